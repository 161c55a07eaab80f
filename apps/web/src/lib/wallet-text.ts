/**
 * Wallet names and ledger reasons in the member's language. The provider sends them in English
 * (the wallet's key, the reason's label); a name or reason the catalog does not know is shown as sent.
 */
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import type { useT } from '@/lib/i18n/i18n.tsx';

export type Translate = ReturnType<typeof useT>;

/** 'Deposit' → 'Deposit' / 'Depósito'. */
export const walletName = (t: Translate, wallet: string) => t('wallets.wallet.name', { wallet });

/** 'Deposit' → 'Deposit Wallet' / 'Billetera de Depósito'. */
export const walletTitle = (t: Translate, wallet: string) => t('wallets.wallet.title', { wallet });

/** The ledger's reason labels (the server's REASON_LABELS, also the history's Type) to their keys. */
const REASON_KEYS: Record<string, MessageId> = {
  Deposit: 'wallets.reason.deposit',
  'Package Purchase': 'wallets.reason.packagePurchase',
  'Wallet Swap': 'wallets.reason.swap',
  'P2P Transfer': 'wallets.reason.p2p',
  'Withdrawal Request': 'wallets.reason.withdrawalRequest',
  'Withdrawal Paid': 'wallets.reason.withdrawalPaid',
  'Withdrawal Refund': 'wallets.reason.withdrawalRefund',
  'Withdrawal Fee': 'wallets.reason.withdrawalFee',
  ROI: 'wallets.reason.roi',
  'Direct Income': 'wallets.reason.directIncome',
  'Level Income': 'wallets.reason.levelIncome',
  'Binary Income': 'wallets.reason.binaryIncome',
  'Rank Reward': 'wallets.reason.rankReward',
  'QA Credit': 'wallets.reason.qaCredit',
};

export const reasonText = (t: Translate, reason: string) => {
  const key = REASON_KEYS[reason];
  return key ? t(key) : reason;
};
