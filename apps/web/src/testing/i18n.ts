/** English, loaded at once: what component tests render in (the app loads a language at boot). */
import { mergeCatalogs, type Catalog } from '@/lib/i18n/catalogs.ts';
import { pseudoCatalog } from '@/lib/i18n/pseudo.ts';
import type { LoadedLocale } from '@/lib/i18n/i18n.tsx';
import type { AnyLocale } from '@/lib/i18n/locales.ts';

const FILES = import.meta.glob<Catalog>('../locales/*/*.json', { import: 'default', eager: true });
const catalogsOf = (locale: string) =>
  mergeCatalogs(
    Object.fromEntries(Object.entries(FILES).filter(([path]) => path.includes(`/locales/${locale}/`))),
  );
const english = catalogsOf('en');

/** A language's messages, English beneath (as the app loads them). */
export function testI18n(locale: AnyLocale = 'en'): LoadedLocale {
  if (locale === 'en') return { locale, messages: english, whole: true };
  if (locale === 'en-XA') return { locale, messages: pseudoCatalog(english), whole: true };
  return { locale, messages: { ...english, ...catalogsOf(locale) }, whole: true };
}

export const englishI18n = testI18n('en');
