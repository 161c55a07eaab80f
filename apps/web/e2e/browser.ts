/** The system Chromium, driven by playwright-core: never a downloaded browser. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export function browserPath(): string {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  ) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found)
    throw new Error(
      'No Chromium found for the browser tests. Install one (Debian: apt-get update && apt-get install -y chromium) or set CHROME_PATH.',
    );
  return found;
}

/**
 * `scrollbars`: shown, taking room as on a desktop (and in Lighthouse's Chromium); playwright hides
 * them by default, as a phone overlays them.
 */
export const launchBrowser = ({ scrollbars = false } = {}): Promise<Browser> =>
  chromium.launch({
    executablePath: browserPath(),
    headless: true,
    ...(scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
