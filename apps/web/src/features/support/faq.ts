/** The five FAQ entries of spec §2 (upgrade, payment methods, cancel, free trial, reset password). */
import { EARNINGS_CAP_MULTIPLIER, FREE_TRIAL_DAYS, MIN_DEPOSIT, PAYMENT_WINDOW_MINUTES } from '@md/shared';

export interface FaqItem {
  id: string;
  question: string;
  answer: string;
}

export const FAQ_ITEMS: readonly FaqItem[] = [
  {
    id: 'upgrade',
    question: 'How do I upgrade my package?',
    answer:
      'Open Package in the menu, select a higher package and confirm the purchase. It is paid from your Deposit wallet, so deposit funds first if your available balance is too low. Packages you already hold stay active.',
  },
  {
    id: 'payment-methods',
    question: 'What payment methods do you accept?',
    answer: `Deposits are made in USDT on the BEP20 network (BNB Smart Chain). Open Deposit, enter an amount of at least $${MIN_DEPOSIT} and send exactly that amount to the address or QR code shown within ${PAYMENT_WINDOW_MINUTES} minutes.`,
  },
  {
    id: 'cancel',
    question: 'Can I cancel my subscription?',
    answer: `A package cannot be cancelled or refunded once it is bought. It stays active until its earnings reach ${EARNINGS_CAP_MULTIPLIER}x its price, then it expires; you can buy a new package at any time.`,
  },
  {
    id: 'free-trial',
    question: 'Is there a free trial?',
    answer: `Yes. Every new account has a ${FREE_TRIAL_DAYS}-day free trial to explore the dashboard, your team tools and the reports before buying a package.`,
  },
  {
    id: 'reset-password',
    question: 'How do I reset my password?',
    answer:
      'On the sign-in page choose "Forgot password?", enter your username and we email you a 6-digit code. Enter it with your new password. When you are signed in, you can also change it under Settings, Security.',
  },
];
