/**
 * The app's languages: which ones there are, how each is named in its own words, which way it is
 * written, and which one a visitor gets (their stored choice, else the browser's languages, else
 * English). The choice is the browser's, like the theme: it survives signing out.
 */
import { STORAGE_KEYS } from '../storage.ts';

export const LOCALES = ['en', 'es', 'pt-BR', 'ar'] as const;
export type AppLocale = (typeof LOCALES)[number];
/**
 * A pseudo-locale for testing, never offered in the menu: every catalog text accented, lengthened
 * and bracketed, so a string left outside the catalogs, or clipped, shows on screen.
 */
export const PSEUDO_LOCALE = 'en-XA';

/**
 * The catalogs' namespaces sign-in, the boot and offline pages, the toasts and the language menu
 * read: each language's first part (catalogs.ts; its folder's first.ts names the same files).
 */
export const FIRST_NAMESPACES = ['app', 'auth', 'common', 'msg', 'shell'] as const;
export type AnyLocale = AppLocale | typeof PSEUDO_LOCALE;

export const DEFAULT_LOCALE: AppLocale = 'en';

/** Each language in its own words: the menu a member reads before the app speaks their language. */
export const LOCALE_NAMES: Record<AppLocale, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  ar: 'العربية',
};

export const directionOf = (locale: AnyLocale): 'rtl' | 'ltr' => (locale === 'ar' ? 'rtl' : 'ltr');

/**
 * The locale handed to `Intl` for numbers and dates. Arabic keeps Latin digits: amounts, member
 * IDs, wallet addresses and transaction IDs are copied between apps, and one figure written two
 * ways invites mistakes with money (docs/decisions/web-client.md).
 */
export const intlLocaleOf = (locale: AnyLocale): string =>
  locale === 'ar' ? 'ar-u-nu-latn' : locale === PSEUDO_LOCALE ? 'en' : locale;

const LANGUAGE_STORAGE_KEY = STORAGE_KEYS.language;

const isLocale = (value: string | null | undefined): value is AnyLocale =>
  value === PSEUDO_LOCALE || (LOCALES as readonly string[]).includes(value ?? '');

/** A browser language tag to one of ours: exact ('pt-BR'), else by language ('es-MX' → es, 'pt-PT' → pt-BR). */
export function matchLocale(tag: string): AppLocale | undefined {
  const lower = tag.toLowerCase();
  const exact = LOCALES.find((locale) => locale.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split('-')[0];
  return LOCALES.find((locale) => locale.toLowerCase().split('-')[0] === language);
}

/**
 * Which language to start in: `?lang=` (a link, a test), the stored choice, the browser's
 * languages in its order of preference, then English.
 */
export function pickLocale({
  query = null,
  stored = null,
  browser = [],
}: {
  query?: string | null;
  stored?: string | null;
  browser?: readonly string[];
}): AnyLocale {
  if (isLocale(query)) return query;
  if (isLocale(stored)) return stored;
  for (const tag of browser) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return DEFAULT_LOCALE;
}

/** This browser's starting language (reads the address, the stored choice and navigator.languages). */
export function startingLocale(): AnyLocale {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the browser's languages decide.
  }
  return pickLocale({
    query: new URLSearchParams(window.location.search).get('lang'),
    stored,
    browser: navigator.languages?.length ? navigator.languages : [navigator.language],
  });
}

export function rememberLocale(locale: AnyLocale) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // Not remembered; the choice holds for this page.
  }
}

/** The page's `lang` and `dir`: screen readers, fonts, and every logical CSS property follow them. */
export function applyDocumentLocale(locale: AnyLocale) {
  document.documentElement.lang = locale === PSEUDO_LOCALE ? 'en' : locale;
  document.documentElement.dir = directionOf(locale);
}
