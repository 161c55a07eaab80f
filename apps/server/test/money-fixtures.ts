/** Test-only funding of reward wallets (the income engine pays income on its own schedule; these tests need some now). */
import type { MemberWallet } from '@md/db';
import { amountToMicros } from '@md/shared';
import { moneyTransaction, transfer } from '../src/modules/ledger/ledger.ts';
import { memberIdOf, type TestApp } from './helpers.ts';

export function grant(t: TestApp, username: string, wallet: MemberWallet, amount: number) {
  const memberId = memberIdOf(t, username);
  moneyTransaction(t.services, () =>
    transfer(t.services, [
      {
        transId: `TEST${Date.now()}`,
        from: { system: 'payouts' },
        to: { member: memberId, wallet },
        amount: amountToMicros(amount),
        reason: 'direct_income',
        memberId,
      },
    ]),
  );
}

export const balanceOf = (t: TestApp, username: string, wallet: MemberWallet): number => {
  const row = t.services.sqlite
    .prepare('select balance from accounts where member_id = ? and wallet = ?')
    .get(memberIdOf(t, username), wallet) as { balance: number } | undefined;
  return (row?.balance ?? 0) / 1_000_000;
};
