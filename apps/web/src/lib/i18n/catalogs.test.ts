/**
 * The catalogs hold together: every language has every English key and no other, each message is
 * valid ICU with the same placeholders and tags as the English, plurals end in `other`, and a
 * translation is a translation (Arabic in Arabic script; Spanish and Portuguese not the English
 * sentence copied). The message ids the code may use are the English keys (catalog-types.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { NAMESPACES } from './catalog-types.ts';
import { LOCALES } from './locales.ts';

const ROOT = join(import.meta.dirname, '../../locales');
const read = (locale: string, namespace: string) =>
  JSON.parse(readFileSync(join(ROOT, locale, `${namespace}.json`), 'utf8')) as Record<string, string>;
const namespacesOf = (locale: string) =>
  readdirSync(join(ROOT, locale))
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();

/** Placeholder names and tag names a message uses, and whether every plural/select has `other`. */
function shapeOf(elements: MessageFormatElement[], into = { names: new Set<string>(), others: true }) {
  for (const element of elements) {
    if (element.type === TYPE.literal || element.type === TYPE.pound) continue;
    into.names.add(`${element.type === TYPE.tag ? '<>' : ''}${element.value}`);
    if (element.type === TYPE.tag) shapeOf(element.children, into);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      if (!('other' in element.options)) into.others = false;
      for (const option of Object.values(element.options)) shapeOf(option.value, into);
    }
  }
  return into;
}

/** Words of a message a translation must change: its text without placeholders and product names. */
const PRODUCT_TERMS =
  /\b(USDT|BEP20|P2P|TOTP|OTP|ROI|ID|IDs|PDF|CSV|QR|URL|API|2FA|UK|UTC|GMT|OK|TxID|TransID|QA)\b/g;
const wordsOf = (message: string) =>
  message
    .replace(/\{[^{}]*\}/g, ' ')
    .replace(/<\/?[a-z]+>/gi, ' ')
    .replace(PRODUCT_TERMS, ' ')
    .match(/\p{L}{2,}/gu) ?? [];

describe('message catalogs', () => {
  const english = namespacesOf('en');

  it('name the same namespaces in every language, each one listed for the typechecker', () => {
    for (const locale of LOCALES) expect(namespacesOf(locale), locale).toEqual(english);
    expect([...NAMESPACES].sort()).toEqual(english);
  });

  for (const locale of LOCALES)
    it(`${locale}: every English key, no other, valid ICU with the English placeholders and tags`, () => {
      const problems: string[] = [];
      for (const namespace of english) {
        const source = read('en', namespace);
        const target = read(locale, namespace);
        for (const key of Object.keys(source))
          if (!(key in target)) problems.push(`${namespace}.${key}: missing`);
        for (const key of Object.keys(target))
          if (!(key in source)) problems.push(`${namespace}.${key}: not in English`);
        for (const [key, message] of Object.entries(target)) {
          if (!(key in source)) continue;
          let shape;
          try {
            shape = shapeOf(parse(message));
          } catch (error) {
            problems.push(`${namespace}.${key}: not ICU (${String(error)})`);
            continue;
          }
          const want = shapeOf(parse(source[key]!));
          if ([...shape.names].sort().join() !== [...want.names].sort().join())
            problems.push(`${namespace}.${key}: placeholders ${[...shape.names]} ≠ ${[...want.names]}`);
          if (!shape.others) problems.push(`${namespace}.${key}: a plural or select without 'other'`);
        }
      }
      expect(problems).toEqual([]);
    });

  it('translations are translations: Arabic in Arabic script, longer sentences never the English copied', () => {
    const problems: string[] = [];
    for (const namespace of english) {
      const source = read('en', namespace);
      for (const locale of LOCALES.filter((l) => l !== 'en')) {
        const target = read(locale, namespace);
        for (const [key, message] of Object.entries(target)) {
          const words = wordsOf(source[key] ?? '');
          if (words.length === 0) continue;
          if (locale === 'ar' && !/[\u0600-\u06FF]/.test(message))
            problems.push(`ar ${namespace}.${key}: "${message}"`);
          if (locale !== 'ar' && words.length > 2 && message === source[key])
            problems.push(`${locale} ${namespace}.${key}: the English copied`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
