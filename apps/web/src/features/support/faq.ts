/**
 * The five FAQ entries of spec §2 (upgrade, payment methods, cancel, free trial, reset password):
 * each one's question and answer are `support` catalog messages, filled with the app's figures.
 */
import { EARNINGS_CAP_MULTIPLIER, FREE_TRIAL_DAYS, MIN_DEPOSIT, PAYMENT_WINDOW_MINUTES } from '@md/shared';
import type { MessageId } from '@/lib/i18n/catalog-types.ts';

export interface FaqItem {
  id: string;
  question: MessageId;
  answer: MessageId;
  values?: Record<string, number>;
}

export const FAQ_ITEMS: readonly FaqItem[] = [
  { id: 'upgrade', question: 'support.faq.upgrade.question', answer: 'support.faq.upgrade.answer' },
  {
    id: 'payment-methods',
    question: 'support.faq.paymentMethods.question',
    answer: 'support.faq.paymentMethods.answer',
    values: { minDeposit: MIN_DEPOSIT, minutes: PAYMENT_WINDOW_MINUTES },
  },
  {
    id: 'cancel',
    question: 'support.faq.cancel.question',
    answer: 'support.faq.cancel.answer',
    values: { cap: EARNINGS_CAP_MULTIPLIER },
  },
  {
    id: 'free-trial',
    question: 'support.faq.freeTrial.question',
    answer: 'support.faq.freeTrial.answer',
    values: { days: FREE_TRIAL_DAYS },
  },
  {
    id: 'reset-password',
    question: 'support.faq.resetPassword.question',
    answer: 'support.faq.resetPassword.answer',
  },
];
