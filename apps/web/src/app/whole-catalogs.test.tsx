/**
 * A screen past sign-in waits for the rest of the language's catalogs (WholeCatalogs). When they
 * cannot be loaded the screen says so with Retry, as for any chunk, and nothing loads them again
 * behind the member's back; Retry loads them and the screen reads its words, never a message id.
 */
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { retryingLazy } from '@/components/chunk-boundary.tsx';
import { ChunkLoadError } from '@/lib/chunk-load.ts';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import { testI18n } from '@/testing/i18n.ts';
import type * as Catalogs from '@/lib/i18n/catalogs.ts';
import { useT, type LoadedLocale } from '@/lib/i18n/i18n.tsx';
import { FIRST_NAMESPACES } from '@/lib/i18n/locales.ts';
import { WholeCatalogs } from './whole-catalogs.tsx';

const loads = vi.hoisted(() => ({ whole: 0, failing: true }));
vi.mock('@/lib/i18n/catalogs.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Catalogs>();
  return {
    ...original,
    loadMessages: (locale: 'en', part: Catalogs.CatalogPart = 'whole') => {
      if (part === 'whole') loads.whole++;
      return part === 'whole' && loads.failing
        ? Promise.reject(new ChunkLoadError(new Error('Failed to fetch dynamically imported module')))
        : Promise.resolve(testI18n(locale).messages);
    },
  };
});

afterEach(() => vi.restoreAllMocks());

/** English's first part alone, as sign-in boots. */
const english = testI18n('en');
const signInOnly: LoadedLocale = {
  locale: 'en',
  messages: Object.fromEntries(
    Object.entries(english.messages).filter(([id]) =>
      (FIRST_NAMESPACES as readonly string[]).includes(id.split('.')[0]!),
    ),
  ),
  whole: false,
};

function HomeWords() {
  const t = useT();
  return <p>{t('home.run.title')}</p>;
}
const Screen = retryingLazy(
  () =>
    Promise.resolve({
      default: () => (
        <WholeCatalogs>
          <HomeWords />
        </WholeCatalogs>
      ),
    }),
  'screen',
);

describe('the rest of the catalogs', () => {
  it('a load that fails shows Retry, and Retry brings the screen in its words', async () => {
    const user = userEvent.setup();
    render(
      <TestProviders config={testConfig} i18n={signInOnly}>
        {/* As the router has it (app/router.tsx: withSuspense around the Chakra outlet). */}
        <Suspense fallback={<p>loading</p>}>
          <Screen />
        </Suspense>
      </TestProviders>,
    );
    await screen.findByRole('button', { name: 'Retry' });
    expect(screen.queryByText('home.run.title')).toBeNull();
    // A while later, still the one failed load: nothing tries again until Retry.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(loads.whole).toBe(1);

    loads.failing = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Next binary run')).toBeVisible();
    expect(loads.whole).toBe(2);
  });
});
