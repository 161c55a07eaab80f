/** The money-move toasts' words: the catalog's English is the browser suite's (MONEY_MOVE_MESSAGES). */
import { describe, expect, it } from 'vitest';
import { createIntl } from 'react-intl';
import { createFormatters } from '@md/shared';
import { testI18n } from '@/testing/i18n.ts';
import type { MessageId } from './i18n/catalog-types.ts';
import { MONEY_MOVE_MESSAGES } from './money-move.ts';

const intlIn = (locale: 'en' | 'es') => {
  const intl = createIntl({ locale, messages: testI18n(locale).messages as Record<string, string> });
  return (id: MessageId, values: Record<string, string>) => intl.formatMessage({ id }, values);
};

describe('the money-move toasts', () => {
  it('say in English what the browser suite waits for', () => {
    const t = intlIn('en');
    expect(t('app.moneyMove.checking', { action: 'purchase' })).toBe(
      MONEY_MOVE_MESSAGES.checking('purchase'),
    );
    expect(t('app.moneyMove.wentThrough', { action: 'swap' })).toBe(MONEY_MOVE_MESSAGES.wentThrough('swap'));
    expect(t('app.moneyMove.didNotGoThrough', { reason: 'Insufficient balance' })).toBe(
      MONEY_MOVE_MESSAGES.didNotGoThrough('Insufficient balance'),
    );
    expect(t('app.moneyMove.unknown', { action: 'transfer' })).toBe(MONEY_MOVE_MESSAGES.unknown('transfer'));
    const money = createFormatters('en', 'UTC').money(12.5);
    expect(
      t('app.moneyMove.wentThroughBalance', { action: 'purchase', wallet: 'Upline_Bonus', balance: money }),
    ).toBe('Your purchase went through. Upline Bonus Wallet: $12.50');
  });

  it('name the wallet and its balance in the member’s language', () => {
    const money = createFormatters('es', 'UTC').money(12345.5);
    expect(
      intlIn('es')('app.moneyMove.wentThroughBalance', {
        action: 'compra',
        wallet: 'Deposit',
        balance: money,
      }),
    ).toBe(`La operación (compra) se realizó. Billetera de depósitos: ${money}`);
    expect(money).toMatch(/12\.345,50/);
  });
});
