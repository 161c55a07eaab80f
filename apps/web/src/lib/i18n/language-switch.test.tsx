/**
 * A language whose catalogs cannot be loaded (no connection, a deploy's file gone): the app stays in
 * its language, says so in it, and remembers nothing; a later switch that loads works.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LanguageSelect } from '@/components/language-select.tsx';
import { notify } from '@/lib/toaster.ts';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import { testI18n } from '@/testing/i18n.ts';
import type * as Catalogs from './catalogs.ts';

vi.mock('./catalogs.ts', async (importOriginal) => {
  const original = await importOriginal<typeof Catalogs>();
  return {
    ...original,
    loadMessages: (locale: string) =>
      locale === 'es'
        ? Promise.reject(new Error('Failed to fetch dynamically imported module'))
        : Promise.resolve(testI18n(locale as 'ar').messages),
  };
});

afterEach(() => vi.restoreAllMocks());

describe('switching the language', () => {
  it('says when the language cannot be loaded and stays in the one shown', async () => {
    const error = vi.spyOn(notify, 'error');
    const user = userEvent.setup();
    render(
      <TestProviders config={testConfig}>
        <LanguageSelect />
      </TestProviders>,
    );
    const menu = screen.getByTestId('language-select');
    await user.selectOptions(menu, 'es');
    await vi.waitFor(() =>
      expect(error).toHaveBeenCalledWith(
        'The language could not be loaded. Check your connection and try again.',
      ),
    );
    expect(menu).toHaveValue('en');
    expect(menu).not.toBeDisabled();
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('language')).toBeNull();

    await user.selectOptions(menu, 'ar');
    await vi.waitFor(() => expect(document.documentElement.dir).toBe('rtl'));
    expect(localStorage.getItem('language')).toBe('ar');
  });
});
