/**
 * Money history of the `demo` scenario, made by calling the money modules (never by writing
 * rows by hand), back-dated relative to the clock. Deterministic: no randomness here.
 *
 * demo: deposits of 5,000, 2,000 and 1,500 (paid) and one of 300 that expired; packages Gold
 * (1,000) and Silver (500), both ACTIVE; level income from its team's purchases, paid by the
 * engine inside buyPackage (10 % of each direct's purchase into Direct, 1 % of levels 2–5 into
 * Level, capped; uplines without an ACTIVE package receive 0); a swap Direct → Withdrawal
 * of 300 and Direct → Deposit of 50; a P2P of 100 to a downline member; transaction password
 * Txn@123; a saved BEP.20 address; a withdrawal of 100 APPROVED and one of 50 PENDING.
 * Generated members: every direct of demo but demo2fa, and every fourth other member, deposit
 * and buy a package (tiers in turn).
 */
import { amountToMicros, microsToAmount } from '@md/shared';
import type { Member, Services } from '../core/services.ts';
import { expireDeposit, openDeposit, payDeposit } from '../modules/deposits/deposits.ts';
import { walletBalance } from '../modules/ledger/ledger.ts';
import { buyPackage } from '../modules/packages/packages.ts';
import { saveWalletAddress, setTransactionPasswordHash } from '../modules/security/security.ts';
import { sendP2p } from '../modules/transfers/p2p.ts';
import { swapWallets } from '../modules/wallets/wallets.ts';
import { decideWithdrawal, requestWithdrawal } from '../modules/withdrawals/withdrawals.ts';

/** scrypt hash of the demo transaction password 'Txn@123', precomputed so seeding costs no KDF time. */
export const DEMO_TRANSACTION_PASSWORD = 'Txn@123';
const DEMO_TRANSACTION_PASSWORD_HASH = 'scrypt$16384$8$1$H8RfSLysYk5v5XJsgWDVsA$zUv1x_VJnJ3PX-uPnp8FG_oAUi368ko0i_2Jz7sCWws';
export const DEMO_WALLET_ADDRESS = '0x842dad94eaA5655D6452EEe18419FaA8a085dab8';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export interface DemoMoneyFacts {
  deposit: number;
  withdrawal: number;
  direct: number;
  activePackages: string[];
}

/** A deposit opened and paid in full five minutes later. */
function paidDeposit(services: Services, memberId: number, amount: number, at: number) {
  const deposit = openDeposit(services, memberId, amountToMicros(amount), 'USDT.BEP20', at);
  payDeposit(services, deposit.id, undefined, at + 5 * 60 * 1000);
}

export function seedDemoMoney(services: Services, demo: Member, generated: readonly Member[], now: number): DemoMoneyFacts {
  const tiers = services.plan.packages;
  paidDeposit(services, demo.id, 5000, now - 170 * DAY);
  buyPackage(services, demo.id, 'Gold', now - 169 * DAY);
  paidDeposit(services, demo.id, 2000, now - 120 * DAY);
  buyPackage(services, demo.id, 'Silver', now - 100 * DAY);
  expireDeposit(services, openDeposit(services, demo.id, amountToMicros(300), 'BNB.BSC', now - 50 * DAY).id);

  generated.forEach((member, index) => {
    const isDirect = member.sponsorId === demo.id;
    if (!isDirect && index % 4 !== 3) return;
    const pkg = tiers[index % Math.min(tiers.length, 4)]!;
    const at = Math.min(member.createdAt + 2 * HOUR, now - 3 * DAY);
    paidDeposit(services, member.id, pkg.price, at);
    buyPackage(services, member.id, pkg.name, at + HOUR);
  });

  paidDeposit(services, demo.id, 1500, now - 3 * DAY);
  setTransactionPasswordHash(services, demo.id, DEMO_TRANSACTION_PASSWORD_HASH);
  saveWalletAddress(services, demo.id, DEMO_WALLET_ADDRESS);
  const recipient = generated.find((m) => m.sponsorId === demo.id)!;
  sendP2p(services, demo.id, recipient.username, amountToMicros(100), now - 2 * DAY);
  swapWallets(services, demo.id, 'Direct', 'Withdrawal', amountToMicros(300), now - 2 * DAY + HOUR);
  swapWallets(services, demo.id, 'Direct', 'Deposit', amountToMicros(50), now - 2 * DAY + 2 * HOUR);
  const approved = requestWithdrawal(services, demo.id, amountToMicros(100), DEMO_WALLET_ADDRESS, now - DAY);
  decideWithdrawal(services, approved.id, 'approve', now - DAY + 4 * HOUR);
  requestWithdrawal(services, demo.id, amountToMicros(50), DEMO_WALLET_ADDRESS, now - 2 * HOUR);

  return {
    deposit: microsToAmount(walletBalance(services, demo.id, 'Deposit')),
    withdrawal: microsToAmount(walletBalance(services, demo.id, 'Withdrawal')),
    direct: microsToAmount(walletBalance(services, demo.id, 'Direct')),
    activePackages: ['Gold', 'Silver'],
  };
}
