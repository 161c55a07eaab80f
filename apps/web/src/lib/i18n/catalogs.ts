/**
 * The message catalogs (src/locales/<locale>/<namespace>.json, ICU MessageFormat), in two parts per
 * language: the namespaces sign-in reads (`first.ts`: loaded at boot; English's are in the app's
 * first file, so sign-in in English waits for no catalog) and the others (`rest.ts`: one chunk,
 * loaded with the first screen past sign-in, or at boot on any other URL). A key reads
 * `<namespace>.<key>`. A language lacking a key answers the English text (a translation not yet
 * made), never the key.
 */
import type { MessageFormatElement } from 'react-intl';
import englishFirst from '../../locales/en/first.ts';
import { loadChunk } from '../chunk-load.ts';
import { PSEUDO_LOCALE, type AnyLocale } from './locales.ts';

export type Catalog = Record<string, string | MessageFormatElement[]>;

/** `first`: FIRST_NAMESPACES (locales.ts) alone; `whole`: every namespace. */
export type CatalogPart = 'first' | 'whole';

type Loader = () => Promise<Record<string, Catalog>>;
/** Each language's two parts (each folder's first.ts and rest.ts gather its catalogs). */
const FIRST_PARTS = import.meta.glob<Record<string, Catalog>>('../../locales/*/first.ts', {
  import: 'default',
});
const REST_PARTS = import.meta.glob<Record<string, Catalog>>('../../locales/*/rest.ts', {
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

const ENGLISH_FIRST = mergeCatalogs(englishFirst as Record<string, Catalog>);

/**
 * Parts loaded or loading, by language and part: a part asked for again (a preload, then the
 * screen that needs it) is loaded once. A failed load is forgotten, so the next ask tries again.
 */
const loadedParts = new Map<string, Promise<Catalog>>();

function loadPart(locale: string, parts: Record<string, Loader>): Promise<Catalog> {
  const entry = Object.entries(parts).find(([path]) => localeOf(path) === locale);
  if (!entry) return Promise.reject(new Error(`No catalogs for the language ${locale}`));
  const [path, load] = entry;
  let loading = loadedParts.get(path);
  if (!loading) {
    // A chunk like a screen's: a blip or a deploy still reaching the CDN is tried again (chunk-load.ts).
    loading = loadChunk(load).then(mergeCatalogs, (error: unknown) => {
      loadedParts.delete(path);
      throw error;
    });
    loadedParts.set(path, loading);
  }
  return loading;
}

async function englishOf(part: CatalogPart): Promise<Catalog> {
  return part === 'first' ? ENGLISH_FIRST : { ...ENGLISH_FIRST, ...(await loadPart('en', REST_PARTS)) };
}

/**
 * A language's messages, English beneath them: its first part, or the whole of it. The
 * pseudo-locale (English made strange, for QA) is always whole.
 */
export async function loadMessages(locale: AnyLocale, part: CatalogPart = 'whole'): Promise<Catalog> {
  if (locale === 'en') return englishOf(part);
  if (locale === PSEUDO_LOCALE) {
    const [english, { pseudoCatalog }] = await Promise.all([englishOf('whole'), import('./pseudo.ts')]);
    return pseudoCatalog(english);
  }
  const [english, first, rest] = await Promise.all([
    englishOf(part),
    loadPart(locale, FIRST_PARTS),
    part === 'whole' ? loadPart(locale, REST_PARTS) : undefined,
  ]);
  return { ...english, ...first, ...rest };
}

/** Starts loading the whole of a language's catalogs, for a screen about to need them (sign-in's form in use). */
export const preloadMessages = (locale: AnyLocale) => void loadMessages(locale).catch(() => undefined);
