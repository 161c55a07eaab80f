/**
 * History's Type words. The server writes each row's Type in English (its label list, also searched
 * in SQL) and a provider may send others: the known ones read in the member's language, the rest as
 * sent. A search typed in the member's language is turned back into the server's English word.
 */
import type { MessageId } from '@/lib/i18n/catalog-types.ts';
import type { useT } from '@/lib/i18n/i18n.tsx';

type Translate = ReturnType<typeof useT>;

/** The server's labels (apps/server tables/sources.ts REASON_LABELS) → their catalog keys. */
export const HISTORY_TYPE_KEYS: Readonly<Record<string, MessageId>> = {
  Deposit: 'history.type.deposit',
  'Package Purchase': 'history.type.packagePurchase',
  'Wallet Swap': 'history.type.walletSwap',
  'P2P Transfer': 'history.type.p2pTransfer',
  'Withdrawal Request': 'history.type.withdrawalRequest',
  'Withdrawal Paid': 'history.type.withdrawalPaid',
  'Withdrawal Refund': 'history.type.withdrawalRefund',
  'Withdrawal Fee': 'history.type.withdrawalFee',
  ROI: 'history.type.roi',
  'Direct Income': 'history.type.directIncome',
  'Level Income': 'history.type.levelIncome',
  'Binary Income': 'history.type.binaryIncome',
  'Rank Reward': 'history.type.rankReward',
  'QA Credit': 'history.type.qaCredit',
};

/** A Type as the member reads it; one the app does not know as sent. */
export const historyTypeLabel = (t: Translate, type: string): string => {
  const key = HISTORY_TYPE_KEYS[type];
  return key ? t(key) : type;
};

/** Case and accents aside: "depósito" and "Deposito" are one word to a member searching. */
const fold = (text: string) =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().replace(/\s+/g, ' ').trim();

/** Shorter words than this are left alone: they are as likely a name or an ID's start as a Type. */
const MIN_PREFIX = 3;

/**
 * The search as the server reads it: a Type in the member's language (the whole label, or the start
 * of one of its words that only one label has) becomes the server's English label, which its
 * search matches; anything else is sent as typed. English is never changed.
 */
export function historySearchText(t: Translate, typed: string): string {
  const wanted = fold(typed);
  if (wanted === '') return typed;
  const prefixMatches = new Set<string>();
  for (const [english, key] of Object.entries(HISTORY_TYPE_KEYS)) {
    const label = fold(t(key));
    if (label === fold(english)) continue;
    if (label === wanted) return english;
    if (wanted.length >= MIN_PREFIX && (label.startsWith(wanted) || label.includes(` ${wanted}`)))
      prefixMatches.add(english);
  }
  return prefixMatches.size === 1 ? [...prefixMatches][0]! : typed;
}
