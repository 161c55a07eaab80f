/**
 * The message catalogs (src/locales/<locale>/<namespace>.json, ICU MessageFormat), loaded when a
 * language is chosen: one chunk per language (vite.config.ts). A key reads `<namespace>.<key>`. A
 * language lacking a key answers the English text (a translation not yet made), never the key.
 */
import type { MessageFormatElement } from 'react-intl';
import { loadChunk } from '../chunk-load.ts';
import { PSEUDO_LOCALE, type AnyLocale } from './locales.ts';

export type Catalog = Record<string, string | MessageFormatElement[]>;

/** One loader per language (its folder's index.ts gathers its catalogs into one chunk). */
const LANGUAGES = import.meta.glob<Record<string, Catalog>>('../../locales/*/index.ts', {
  import: 'default',
});

/** `…/locales/es/wallets.json` or `./wallets.json` in `es`: the namespace `wallets`. */
const namespaceOf = (path: string) => /([^/]+)\.json$/.exec(path)?.[1];
const localeOf = (path: string) => /\/locales\/([^/]+)\//.exec(path)?.[1];

/** One language's catalogs as one, each key under its namespace (`wallets.moveFunds`). */
export function mergeCatalogs(files: Record<string, Catalog>): Catalog {
  const merged: Catalog = {};
  for (const [path, catalog] of Object.entries(files)) {
    const namespace = namespaceOf(path);
    if (!namespace) continue;
    for (const [key, message] of Object.entries(catalog)) merged[`${namespace}.${key}`] = message;
  }
  return merged;
}

async function loadCatalogs(locale: string): Promise<Catalog> {
  const load = Object.entries(LANGUAGES).find(([path]) => localeOf(path) === locale)?.[1];
  if (!load) throw new Error(`No catalogs for the language ${locale}`);
  // A chunk like a screen's: a blip or a deploy still reaching the CDN is tried again (chunk-load.ts).
  return mergeCatalogs(await loadChunk(load));
}

/** Every message of a language, English beneath it; the pseudo-locale is English made strange. */
export async function loadMessages(locale: AnyLocale): Promise<Catalog> {
  const english = await loadCatalogs('en');
  if (locale === 'en') return english;
  if (locale === PSEUDO_LOCALE) {
    const { pseudoCatalog } = await import('./pseudo.ts');
    return pseudoCatalog(english);
  }
  return { ...english, ...(await loadCatalogs(locale)) };
}
