/**
 * The words of the pages drawn before the app has started (main.tsx: the boot failure and the
 * offline start-up) when no catalog could be loaded: English, built in. Already in FormatJS's
 * syntax tree, as the production build's catalogs are (its bundle has no message parser).
 * When the member's language did load, those pages use it instead.
 */
import { TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { Catalog } from '../lib/i18n/catalogs.ts';
import type { LoadedLocale } from '../lib/i18n/i18n.tsx';
import type { MessageId } from '../lib/i18n/catalog-types.ts';

/** A message of text and `{placeholders}` (no plurals or selects: none of these pages needs one). */
function compiled(message: string): MessageFormatElement[] {
  return message
    .split(/(\{\w+\})/)
    .filter(Boolean)
    .map((part): MessageFormatElement => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return name ? { type: TYPE.argument, value: name } : { type: TYPE.literal, value: part };
    });
}

/** The English of each message these pages show (a test checks them against the English catalogs). */
export const BOOT_ENGLISH = {
  'app.boot.title': 'The app could not start',
  'app.world.gone': "This tab's QA world {id} is gone: it expired or was deleted.",
  'app.world.leave': 'Go back to the default world',
  'app.offline.title': 'You are offline',
  'app.offline.subtitle': 'The dashboard cannot reach the server.',
  'app.offline.body':
    'Balances, earnings and money actions need a connection: nothing is shown or sent until it is back.',
  'app.offline.retrying': 'The app tries again by itself when the connection returns.',
  'app.offline.tryAgain': 'Try again',
  // The theme toggle above the card (components/ui/theme-toggle.tsx).
  'shell.theme.toggle': 'Toggle theme',
  'shell.theme.toLight': 'Switch to light theme',
  'shell.theme.toDark': 'Switch to dark theme',
} as const satisfies Partial<Record<MessageId, string>>;

export const bootFallback = (): LoadedLocale => ({
  locale: 'en',
  messages: Object.fromEntries(
    Object.entries(BOOT_ENGLISH).map(([id, message]) => [id, compiled(message)]),
  ) satisfies Catalog,
  whole: false,
});
