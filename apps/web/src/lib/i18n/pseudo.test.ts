import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { pseudoMessage } from './pseudo.ts';

const format = (message: string, values?: Record<string, unknown>) =>
  new IntlMessageFormat(pseudoMessage(message), 'en').format(values) as string;

describe('the pseudo-locale', () => {
  it('accents every letter, lengthens by a third and brackets the message', () => {
    const shown = format('Wallets');
    expect(shown).toMatch(/^\[Ŵàļļéţš ·+\]$/);
    expect(shown).not.toMatch(/[a-zA-Z]/);
  });

  it('keeps placeholders and plurals working, their values untouched', () => {
    expect(format('Welcome, {username}', { username: 'demo' })).toMatch(/^\[Ŵéļçöɱé, demo ·+\]$/);
    const plural = '{count, plural, one {# direct} other {# directs}}';
    expect(format(plural, { count: 1 })).toMatch(/^\[1 đîŕéçţ ·+\]$/);
    expect(format(plural, { count: 13 })).toMatch(/^\[13 đîŕéçţš ·+\]$/);
  });
});
