/** Business constants and limits of spec §9. */

export const WALLET_NAMES = [
  'Deposit',
  'Direct',
  'Binary',
  'Level',
  'P2P',
  'Withdrawal',
  'ROI',
  'Rank',
] as const;
export type WalletName = (typeof WALLET_NAMES)[number];
/** The dashboard home shows seven wallets: every one but P2P. */
export const HOME_WALLET_NAMES = WALLET_NAMES.filter((w) => w !== 'P2P');
/** Wallets whose lifetime Total makes up "Total Earnings" (Upline_Bonus counts when the provider sends it). */
export const EARNING_TOTAL_WALLETS = ['Binary', 'Direct', 'Upline_Bonus', 'Level'] as const;
export const REWARD_WALLETS = [
  'Direct',
  'Binary',
  'Level',
  'ROI',
  'Rank',
] as const satisfies readonly WalletName[];

export const PROFILE_REFRESH_MS = 3_600_000;
export const NOTIFICATIONS_PAGE_SIZE = 20;
export const DASHBOARD_NOTIFICATIONS = 4;
export const PROFILE_AREA_NOTIFICATIONS = 200;
export const SIDEBAR_BREAKPOINT_PX = 768;
export const SIDEBAR_WIDTH = '16rem';
export const SESSION_ERROR_LOGOUT_DELAY_MS = 2000;

export const LOGIN_PASSWORD_MIN = 6;
export const REGISTRATION_PASSWORD_MIN = 8;
export const TRANSACTION_PASSWORD_MIN = 6;
export const OTP_LENGTH = 6;
export const RESET_THROTTLE_MS = 10_000;
export const TOTP_LOOKUP_DEBOUNCE_MS = 500;

export const MIN_DEPOSIT = 10;
export const MIN_WITHDRAWAL = 20;
/**
 * How long a withdrawal request may wait for its decision: the spec and DESIGN give no processing
 * window, so the stand-in promises one (docs/decisions/money-and-ledger.md, "Rejection reasons and
 * the expected time"): a PENDING request is expected to be decided within this many hours of its request.
 */
export const WITHDRAWAL_PROCESSING_HOURS = 24;
/** The longest rejection reason QA may give (POST /__qa/withdrawals/:id/reject `{ reason }`). */
export const WITHDRAWAL_REASON_MAX = 200;
/** The reason a rejection carries when QA gives none. */
export const WITHDRAWAL_DEFAULT_REJECT_REASON = 'The request did not pass the payout review';
export const P2P_STEP = 0.1;
export const P2P_FEE = 0;
export const SWAP_STEP = 0.01;
export const SWAP_SUBMIT_GUARD_MS = 10_000;
export const CURRENCIES = ['USDT.BEP20', 'BNB.BSC'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** BNB Smart Chain mainnet's EIP-155 chain id (https://chainlist.org/chain/56). */
export const BSC_CHAIN_ID = 56;
/**
 * USDT on BSC (BEP20, "Binance-Peg BSC-USD"): the token contract and its decimals, as BscScan shows
 * them (https://bscscan.com/token/0x55d398326f99059fF775485246999027B3197955, decimals 18) and the
 * PancakeSwap token list repeats them. Unlike USDT on Ethereum (6 decimals), one USDT here is 10^18 base units.
 */
export const USDT_BEP20_CONTRACT = '0x55d398326f99059fF775485246999027B3197955';
export const USDT_BEP20_DECIMALS = 18;
/** BNB, BSC's native coin: 10^18 wei a BNB. */
export const BNB_DECIMALS = 18;
export const NETWORK = 'BEP.20';
export const PAYMENT_WINDOW_MINUTES = 30;

export const EARNINGS_CAP_MULTIPLIER = 3;
export const LEVEL_CHART_LEVELS = 5;
export const FREE_TRIAL_DAYS = 14;

export const REGISTRATION_PROJECT = 'Pro';
export const SIDE_LEFT = '0';
export const SIDE_RIGHT = '1';
export type Side = typeof SIDE_LEFT | typeof SIDE_RIGHT;

export const SUPPORT_MESSAGE_MIN = 10;
export const SUPPORT_HOURS = 'Mon-Fri 9am-5pm EST';
export const SUPPORT_SEND_DELAY_MS = 1500;

export const TABLE_DEFAULT_PAGE = 1;
export const TABLE_DEFAULT_PAGE_SIZE = 10;
export const TABLE_PAGE_SIZES = [10, 25, 50] as const;
/** The largest pageSize a paged table call accepts (the contract's bound; an export reads pages this big). */
export const TABLE_PAGE_SIZE_MAX = 100;
/** A calendar day as the app writes it ("Nov 27, 2026"); DATE_FORMAT adds the time. */
export const DAY_FORMAT = 'MMM dd, yyyy';
/** A day where the year is known from around it (a chart's axis): "Nov 27". */
export const SHORT_DAY_FORMAT = 'MMM dd';
export const DATE_FORMAT = `${DAY_FORMAT} HH:mm`;
export const COPY_CONFIRM_MS = 2000;

export const TOAST_DEFAULTS = {
  duration: 4000,
  width: 356,
  visibleToasts: 3,
  gap: 14,
  swipeThreshold: 45,
  removeDelay: 200,
  offsetDesktop: 24,
  offsetMobile: 16,
} as const;

export const DEFAULT_RANK = 'Starter';
/** Micro-units per USDT: the server keeps money as integers of this unit. */
export const MICROS_PER_UNIT = 1_000_000;
/** Largest amount a single request may name (1e9 USDT): keeps micro-units far inside safe integers. */
export const MAX_AMOUNT = 1_000_000_000;

/**
 * Longest accepted text inputs (the spec sets none). They keep one request from storing
 * what breaks the account later (a 50,001-character username made its own JWT too big for a
 * header) and bound what a password hash or a lookup costs. Each is above every value the spec
 * and the demo data use. Inputs that only name an existing member take USERNAME_MAX too, so an
 * over-long one is refused before any lookup.
 */
export const TEXT_MAX = {
  username: 30,
  name: 100,
  /** RFC 5321: a forward path (an address) is at most 256 octets with its brackets, 254 without. */
  email: 254,
  country: 60,
  /** Every password: sign-in, registration, reset, change and the transaction password (also bounds scrypt's input). */
  password: 128,
  supportSubject: 200,
  supportMessage: 5000,
  /** Table search text. */
  search: 100,
  /** A package name (plan files are held to it too). */
  plan: 100,
  /** Session token in the body (`jwt` / `token`); a header line of 8 KB is the usual server limit. */
  token: 8192,
  /** The ALTCHA payload (base64 JSON, ~400 characters). */
  captcha: 4096,
  /** Fixed client values: `project`, `gateway`, the table `path` echo. */
  tag: 100,
  /** A table date, YYYY-MM-DD (room for surrounding spaces, which the server trims). */
  date: 32,
  /** A preset filter's column name, and each accepted value. */
  filterName: 50,
  filterValue: 100,
} as const;
/** At most this many preset filters in one table query, and this many values in one filter. */
export const FILTERS_MAX = 20;
export const FILTER_VALUES_MAX = 50;
/** A BEP.20 (EVM) address: 0x and 40 hex digits. */
export const BEP20_ADDRESS_LENGTH = 42;

/** A BEP20 transaction on the explorer members know (the withdrawal timeline's link). */
export const bscscanTxUrl = (hash: string) => `https://bscscan.com/tx/${hash}`;

/**
 * Idempotency keys of money moves (DESIGN §11, after Stripe and the IETF draft "The
 * Idempotency-Key HTTP Header Field"): a client names one intent with a key, and a retry with the
 * key gets the first answer again, marked as a replay, instead of a second move.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** The /config.json capability of a server that honours the header. */
export const IDEMPOTENCY_CAPABILITY = 'idempotency_keys';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
/**
 * The /config.json capability of a server whose paged tables take a `cursor` (the `Next_Cursor` of
 * the page before) and whose page counts carry `Rows`: a reader of every page sees each row once
 * while new rows arrive.
 */
export const CURSOR_PAGING_CAPABILITY = 'cursor_paging';
/** A key is 1 to this many visible ASCII characters (Stripe's bound); a UUID is 36. */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
/** A key's answer is kept at least this long on the server clock. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
