/**
 * Each language's catalogs in two parts (catalogs.ts): sign-in's namespaces first, the rest after.
 * The parts' files name FIRST_NAMESPACES' catalogs between them, each once; a language loads its
 * first part alone or its whole, English beneath either.
 */
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from './catalog-types.ts';
import { loadMessages } from './catalogs.ts';
import { FIRST_NAMESPACES, LOCALES } from './locales.ts';

const FIRST = import.meta.glob<Record<string, unknown>>('../../locales/*/first.ts', {
  import: 'default',
  eager: true,
});
const REST = import.meta.glob<Record<string, unknown>>('../../locales/*/rest.ts', {
  import: 'default',
  eager: true,
});
const namespacesIn = (parts: Record<string, Record<string, unknown>>, locale: string) =>
  Object.keys(parts[`../../locales/${locale}/${parts === FIRST ? 'first' : 'rest'}.ts`] ?? {})
    .map((path) => /([^/]+)\.json$/.exec(path)![1]!)
    .sort();
const namespacesOf = (messages: Record<string, unknown>) =>
  [...new Set(Object.keys(messages).map((id) => id.split('.')[0]))].sort();

describe('catalog parts', () => {
  it.each(LOCALES)(
    '%s: the first part is sign-in’s namespaces, the rest every other, none twice',
    (locale) => {
      expect(namespacesIn(FIRST, locale)).toEqual([...FIRST_NAMESPACES].sort());
      expect(namespacesIn(REST, locale)).toEqual(
        NAMESPACES.filter((ns) => !(FIRST_NAMESPACES as readonly string[]).includes(ns)).sort(),
      );
    },
  );

  it('loads a language’s first part alone, English beneath it, and its whole when asked', async () => {
    const first = await loadMessages('es', 'first');
    expect(namespacesOf(first)).toEqual([...FIRST_NAMESPACES].sort());
    const whole = await loadMessages('es', 'whole');
    expect(namespacesOf(whole)).toEqual([...NAMESPACES].sort());
    // Spanish where it has the key, the same message in both loads.
    expect(first['auth.signIn.submit']).toEqual(whole['auth.signIn.submit']);
    expect(first['auth.signIn.submit']).not.toEqual(
      (await loadMessages('en', 'first'))['auth.signIn.submit'],
    );
    // English's first part needs no load of its own; its whole is every namespace.
    expect(namespacesOf(await loadMessages('en', 'first'))).toEqual([...FIRST_NAMESPACES].sort());
    expect(namespacesOf(await loadMessages('en'))).toEqual([...NAMESPACES].sort());
  });
});
