/**
 * The pseudo-locale en-XA: each English message with its letters accented, a third longer and in
 * brackets ("[Ŵàļļéţš ·······]"). Placeholders, plurals and tags keep working; a text on screen
 * without the accents was never in a catalog, and a bracket cut off shows a clipped label.
 */
import {
  parse,
  TYPE,
  type MessageFormatElement,
  type PluralOrSelectOption,
} from '@formatjs/icu-messageformat-parser';
import type { Catalog } from './catalogs.ts';

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, i) => [
    letter,
    [...'àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀßÇÐÉƑĜĤÎĴĶĻḾÑÖÞǪŘŠŢÛṼŴẊÝŽ'][i]!,
  ]),
);
const accent = (text: string) => [...text].map((c) => ACCENTED[c] ?? c).join('');

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.tag) return { ...element, children: pseudoElements(element.children) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options: Record<string, PluralOrSelectOption> = {};
      for (const [key, option] of Object.entries(element.options))
        options[key] = { ...option, value: pseudoElements(option.value) };
      return { ...element, options };
    }
    return element;
  });
}

/** Lengthens by a third of the message's visible letters: German-like expansion. */
const letterCount = (elements: MessageFormatElement[]): number =>
  elements.reduce((sum, element) => sum + (element.type === TYPE.literal ? element.value.length : 4), 0);

export function pseudoMessage(message: string | MessageFormatElement[]): MessageFormatElement[] {
  const ast = typeof message === 'string' ? parse(message) : message;
  const padding = '·'.repeat(Math.max(1, Math.ceil(letterCount(ast) / 3)));
  return [
    { type: TYPE.literal, value: '[' },
    ...pseudoElements(ast),
    { type: TYPE.literal, value: ` ${padding}]` },
  ];
}

export const pseudoCatalog = (english: Catalog): Catalog =>
  Object.fromEntries(Object.entries(english).map(([key, message]) => [key, pseudoMessage(message)]));
