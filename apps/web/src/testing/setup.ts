import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toaster } from '@/lib/toast-store.ts';

// The classes the app draws its frame and first screen with, as main.tsx loads them: what they hide
// (the sidebar column below md) is hidden here too. A rule at a time (the file has one per line):
// jsdom drops a whole sheet for one rule it cannot parse (@layer's statement, for one).
const firstScreenStyle = document.createElement('style');
document.head.append(firstScreenStyle);
const firstScreenCss = readFileSync(
  join(import.meta.dirname, '../components/first-screen/first-screen.css'),
  'utf8',
);
for (const rule of firstScreenCss.split('\n'))
  try {
    firstScreenStyle.sheet!.insertRule(rule, firstScreenStyle.sheet!.cssRules.length);
  } catch {
    // Not for jsdom: the page's look is the browser tests' to check.
  }

// The whole suite runs its projects in parallel on 2 cores: give find*/waitFor room under load.
configure({ asyncUtilTimeout: 5000 });

// jsdom lacks a few browser APIs that Chakra (Ark/Zag) and next-themes use.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
Element.prototype.scrollTo ??= () => {};

afterEach(() => {
  cleanup();
  // The toaster is a module singleton (max 3 visible): start every test with none.
  toaster.remove();
  localStorage.clear();
  document.documentElement.className = '';
});
