/**
 * The provider API contract (spec §7): one entry per endpoint. The server's REST routes and
 * tRPC procedures, the client's provider link, the OpenAPI document and the contract tests are
 * all generated from this table. Field names are the provider's, misspellings included.
 */
import './zod-config.ts';
import { z } from 'zod';
import {
  BEP20_ADDRESS_LENGTH,
  CURSOR_PAGING_CAPABILITY,
  FILTER_VALUES_MAX,
  FILTERS_MAX,
  OTP_LENGTH,
  TABLE_PAGE_SIZE_MAX,
  TEXT_MAX,
  WALLET_NAMES,
  WITHDRAWAL_PROCESSING_HOURS,
} from './constants.ts';
import {
  emailField,
  isZeroAddress,
  meetsResetPassword,
  moneyAmount,
  nameField,
  registrationPassword,
  registrationUsername,
  sideField,
  sponsorField,
  supportFormSchema,
} from './rules.ts';
import { MSG, tooLongMessage, unknownFieldMessage } from './messages.ts';

export type Host = 'api' | 'deposit';
/** required: a bearer token (or `jwt`/`token` in the body) is needed; optional: used when present. */
export type AuthMode = 'none' | 'required' | 'optional';
export type Kind = 'query' | 'mutation';

export interface Endpoint<
  I extends z.ZodType = z.ZodType,
  O extends z.ZodType = z.ZodType,
  K extends Kind = Kind,
  A extends AuthMode = AuthMode,
> {
  path: string;
  /** query: reads (cached by the client); mutation: changes state. Both are POST on the provider. */
  kind: K;
  host: Host;
  auth: A;
  /** Body field the provider reads the token from, besides the bearer header. */
  tokenField?: 'jwt' | 'token';
  summary: string;
  /**
   * Set only on extensions of this stand-in (not provider endpoints): the `/config.json`
   * capability that advertises them. The client calls them only when advertised (DESIGN §3).
   */
  extension?: string;
  /**
   * A money move: it accepts an Idempotency-Key header (capability `idempotency_keys`), and a
   * retry with the key is answered with the first answer instead of moving money again.
   */
  idempotent?: true;
  input: I;
  output: O;
}

// A is kept literal so the server's handler types know which calls always have a member.
const endpoint = <I extends z.ZodType, O extends z.ZodType, K extends Kind, A extends AuthMode>(
  e: Endpoint<I, O, K, A>,
) => e;

// ---------- shared pieces ----------
// Every string of an input has an upper bound: TEXT_MAX in constants.ts, shown as
// maxLength in the OpenAPI document; the bounds that are not obvious are in the descriptions.
const bounded = (label: string, max: number) => z.string().max(max, { error: tooLongMessage(label, max) });
const jwt = bounded('jwt', TEXT_MAX.token)
  .optional()
  .describe('Session token; the bearer header is used when both are present');
/**
 * A call's body: only the fields named here. An unknown one is a 400 naming it (a typo such as
 * `pagesize` would otherwise pass silently with the default), and `additionalProperties: false`
 * in the OpenAPI document.
 */
const fields = <S extends z.ZodRawShape>(shape: S) =>
  z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFieldMessage(issue.keys) : undefined),
  });
/** Input of an authenticated call: the fields plus the optional body token. */
const authed = <S extends z.ZodRawShape>(shape: S) => fields({ jwt, ...shape });
const message = z.string().describe('Human-readable success message');
const ok = z.object({ Success: message });
const amount = z.number().describe('USDT, up to 6 decimals');
const nonEmpty = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, { error: `${label} is required`, abort: true });
/**
 * A username that names an existing member (sign-in, lookups, trees, the P2P recipient): held to
 * the registration maximum, so an over-long one is refused before any lookup or hash.
 */
const username = nonEmpty('Username')
  .max(TEXT_MAX.username, { error: MSG.usernameTooLong })
  .transform((v) => v.toLowerCase())
  .describe(`A member's username, at most ${TEXT_MAX.username} characters`);
const password = (required: string) =>
  z
    .string({ error: required })
    .min(1, { error: required, abort: true })
    .max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true });
/** A code of fixed length: anything longer is refused before it is looked at. */
const codeUpTo6 = (message: string) => z.string({ error: message }).max(OTP_LENGTH, { error: message });
const walletAddress = z
  .string({ error: MSG.enterWalletAddress })
  .min(1, { error: MSG.enterWalletAddress, abort: true })
  .max(BEP20_ADDRESS_LENGTH, { error: MSG.invalidWalletAddress, abort: true })
  // Burnt funds: refused here, before any handler, so the call changes nothing.
  .refine((address) => !isZeroAddress(address), { error: MSG.invalidWalletAddress })
  .describe(
    `A BEP.20 address: 0x and 40 hex digits (${BEP20_ADDRESS_LENGTH} characters), not the zero address`,
  );
const fixedTag = (label: string) => bounded(label, TEXT_MAX.tag);
const changedEmail = z
  .string({ error: MSG.enterCurrentEmail })
  .trim()
  .min(1, { error: MSG.enterCurrentEmail, abort: true })
  .max(TEXT_MAX.email, { error: MSG.emailTooLong, abort: true })
  .pipe(z.email({ error: MSG.emailInvalid }));
const otpInput = z
  .string({ error: MSG.otpRequired })
  .trim()
  .min(1, { error: MSG.otpRequired, abort: true })
  .regex(/^\d{6}$/, { error: MSG.enterOtp6 });
// Documented as `format: date-time` (what the stand-in sends); parsed as any string, so a provider's other spelling still reads.
const dateTime = z.string().meta({ format: 'date-time' }).describe('ISO-8601 date-time');
const walletName = z.enum(WALLET_NAMES, { error: 'Unknown wallet' });

export const profileSchema = z.object({
  Username: z.string(),
  Name: z.string(),
  Email: z.string(),
  Side: z.enum(['0', '1']),
  Sponsor: z.string().nullable(),
  Country: z.string(),
  Created_On: dateTime,
  Subscription: z.boolean().describe('true while the member holds an ACTIVE subscription'),
  package: z.string().nullable().describe('Name of the current (latest active) package'),
  Transaction_Password: z.boolean().describe('Whether a transaction password is set'),
  TOTP_Enabled: z.boolean(),
  Wallet_Details: z.object({ Wallet_Address: z.string().nullable(), Network: z.string() }),
});
export type Profile = z.infer<typeof profileSchema>;

export const walletDetailSchema = z.object({
  Available: amount,
  Total: amount.describe('Lifetime credits'),
  This_Month: amount,
  Last_Month: amount,
  User: z.string(),
});
export const walletsSchema = z.record(z.string(), walletDetailSchema).describe('Wallet name → details');

export const notificationSchema = z.object({
  Message: z.string(),
  DateTime: dateTime,
  TransID: z.string(),
  Type: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const analyticsSchema = z
  .object({
    Current_Level: z.number().int().describe('Deepest sponsor level (1-5) that holds a member'),
    Current_Rank: z.string(),
    Binary_Left: amount.describe('Binary volume of the left leg'),
    Binary_Right: amount,
    Active_Subscriptions: z.number().int(),
    Max_Earnings: amount,
    Total_Earnings: amount,
    Remaining_Earnings: amount,
    Direct_Referrals: z.number().int(),
    Team_Size: z.number().int(),
  })
  .describe(
    'Not shown in the spec; defined here and documented in docs/decisions/contract-and-transports.md',
  );

export const directMemberSchema = z.object({
  Username: z.string(),
  Name: z.string(),
  Email: z.string().describe('Masked'),
  Side: z.enum(['0', '1']),
  Country: z.string(),
  Created_On: dateTime,
  Status: z.boolean().describe('Holds an ACTIVE subscription'),
});

export const packageSchema = z.object({
  Name: z.string(),
  Price: amount,
  Max_Cap: amount,
  Binary_Volume: amount,
  Rank_Volume: amount,
  ROI_Percentage: z.number(),
});

export const binaryDownlineSchema = z.object({
  Username: z.string(),
  CountUser: z.number().int(),
  Downline: z.union([
    z.array(
      z.object({
        Username: z.string(),
        Side: z.enum(['0', '1']),
        // Extensions (absent at the provider): let a node show its sponsor and dot before any hover.
        Sponsor: z.string().nullable().optional().describe("Extension: the member's sponsor"),
        Status: z.boolean().optional().describe('Extension: whether the member holds an ACTIVE subscription'),
      }),
    ),
    z.record(z.string(), z.string()),
  ]),
});
export const levelDownlineSchema = z.object({
  Username: z.string(),
  CountUser: z.number().int(),
  Downline: z.array(z.object({ Username: z.string(), Count: z.number().int() })),
});
export const nodeDetailsSchema = z.object({
  Current_Binary: z.tuple([amount, amount]).describe('[left, right] carry volume'),
  Earnings: amount,
  Direct_Bouns: amount,
  Status: z.boolean(),
  Sponsor: z.string().nullable(),
  Side: z.enum(['0', '1']).nullable(),
  Total_User_Subscription_Plan: z.record(
    z.string(),
    z.object({ Active: z.boolean(), Expiry: z.string().nullable() }),
  ),
});
export const rankItemSchema = z.object({
  Rank: z.string(),
  Reward: amount,
  Left_Volune: amount,
  Right_Volume: amount,
  Rank_Qualification_Requirement: z.record(
    z.string(),
    z.object({ Side_1: z.number() }).catchall(z.unknown()),
  ),
});

// ---------- paged tables ----------
/** A table cursor this server did not give, or one of another query. */
export const TABLE_CURSOR_MESSAGE = 'cursor must be the Next_Cursor of an earlier page';
export const tableInput = authed({
  pageNo: z
    .number({ error: 'pageNo must be a number' })
    .int({ error: 'pageNo must be a whole number' })
    .min(1, { error: 'pageNo must be at least 1' })
    .default(1),
  pageSize: z
    .number({ error: 'pageSize must be a number' })
    .int({ error: 'pageSize must be a whole number' })
    .min(1, { error: 'pageSize must be at least 1' })
    .max(TABLE_PAGE_SIZE_MAX, { error: `pageSize must be at most ${TABLE_PAGE_SIZE_MAX}` })
    .default(10),
  path: fixedTag('path').optional().describe('The endpoint path, echoed by the client'),
  cursor: z
    .string({ error: TABLE_CURSOR_MESSAGE })
    .max(TEXT_MAX.tag, { error: TABLE_CURSOR_MESSAGE })
    .optional()
    .describe(
      `Extension (capability \`${CURSOR_PAGING_CAPABILITY}\`): the \`Next_Cursor\` of the page before. The page starts after that page's last row, so rows that arrive meanwhile (always newest, first) never shift a row into the next page twice. Takes the place of \`pageNo\` (send 1 or nothing).`,
    ),
  search: z
    .array(z.string().max(TEXT_MAX.search, { error: MSG.searchTooLong }), {
      error: 'search must be an array of one string',
    })
    .max(1, { error: 'search must be an array of one string' })
    .optional()
    .describe(`Search text as a one-string array; the text at most ${TEXT_MAX.search} characters`),
  start_date: z
    .string()
    .max(TEXT_MAX.date, { error: 'start_date must be a date as YYYY-MM-DD' })
    .optional()
    .describe('YYYY-MM-DD, inclusive'),
  end_date: z
    .string()
    .max(TEXT_MAX.date, { error: 'end_date must be a date as YYYY-MM-DD' })
    .optional()
    .describe('YYYY-MM-DD, inclusive'),
  filters: z
    .record(
      z.string().max(TEXT_MAX.filterName),
      z
        .array(
          z
            .string()
            .max(TEXT_MAX.filterValue, { error: tooLongMessage('A filter value', TEXT_MAX.filterValue) }),
          { error: 'filters must map a column to an array of values' },
        )
        .max(FILTER_VALUES_MAX, { error: `A filter takes at most ${FILTER_VALUES_MAX} values` }),
      // zod's own words for a bad key ('Invalid key in record') name neither the rule nor the field.
      {
        error: (issue) =>
          issue.code === 'invalid_key'
            ? tooLongMessage('A filter name', TEXT_MAX.filterName)
            : issue.code === 'invalid_type'
              ? 'filters must be an object'
              : undefined,
      },
    )
    .refine((filters) => Object.keys(filters).length <= FILTERS_MAX, {
      error: `At most ${FILTERS_MAX} filters`,
    })
    .optional()
    .describe(
      `Preset filters: column → accepted values. A column the table does not offer is refused ('Unknown filter: …'). Names at most ${TEXT_MAX.filterName} characters, values ${TEXT_MAX.filterValue}, at most ${FILTERS_MAX} filters of ${FILTER_VALUES_MAX} values`,
    ),
});
export type TableInput = z.input<typeof tableInput>;
const list = <R extends z.ZodType>(row: R) =>
  z.object({
    Success: z.array(row),
    Next_Cursor: z
      .string()
      .nullable()
      .optional()
      .describe(
        `Extension (capability \`${CURSOR_PAGING_CAPABILITY}\`): send it as \`cursor\` for the page after this one; null on the last page`,
      ),
  });
const pages = z.object({
  Success: z.number().int().describe('Page count (at least 1)'),
  Rows: z
    .number()
    .int()
    .optional()
    .describe(`Extension (capability \`${CURSOR_PAGING_CAPABILITY}\`): the rows the query matches`),
});

export const depositRowSchema = z.object({
  id: z.string(),
  amount: z.string(),
  date: dateTime,
  status: z.string(),
  transaction_id: z.string(),
});
export const subscriptionRowSchema = z.object({
  DateTime: dateTime,
  TransID: z.string(),
  Name: z.string(),
  Amount: amount,
  ROI_Percentage: z.number(),
  Max_Earnings: amount,
  Total_Earnings: amount,
  Wallet: z.string(),
  Status: z.string(),
  Reason: z.string().nullable(),
  End_Date: dateTime.nullable(),
});
export const earningRowSchema = z.object({
  DateTime: dateTime,
  TransID: z.string(),
  Amount: amount,
  Type: z.string(),
  By: z.string(),
  Transfer: z.string(),
  Wallet: z.string(),
  Status: z.string(),
});
export const levelEarningRowSchema = z.object({
  DateTime: dateTime,
  TransID: z.string(),
  Transaction_ID: z.string(),
  Subs_Amount: amount,
  From: z.string(),
  Level: z.number().int(),
  Percentage: z.number(),
  Expected_Amount: amount,
  Received_Amount: amount,
});
export const volumeRowSchema = z.object({
  DateTime: dateTime,
  TransID: z.string(),
  From_User: z.string(),
  Transaction_ID: z.string(),
  Side: z.enum(['0', '1']),
  Volume: amount,
  Left_Volume: amount,
  Left_Carry: amount,
  Left_Total: amount,
  Right_Volume: amount,
  Right_Carry: amount,
  Right_Total: amount,
  Status: z.string(),
});
export const rankRewardRowSchema = z.object({
  DateTime: dateTime,
  Transaction_ID: z.string(),
  Current_Rank: z.string(),
  Reward: amount,
  Status: z.boolean(),
});

// ---------- extensions (not provider endpoints) ----------
export const activitySchema = z.object({
  Title: z.string(),
  Description: z.string(),
  DateTime: dateTime,
  Type: z.string().describe('Notification type, ledger reason, or Support_Message'),
  TransID: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;
export const sessionSchema = z.object({
  ID: z.string().describe('The session (the `jti` of its token): what `user.end_session` takes'),
  Device: z
    .string()
    .describe('Browser and system read from the User-Agent of the sign-in, or "Unknown device"'),
  Address: z
    .string()
    .nullable()
    .describe('The client address of the last call seen (of the sign-in before any call)'),
  Created_On: dateTime.describe('When the member signed in'),
  Last_Seen: dateTime.describe('The last call seen, to the minute (written at most once a minute)'),
  Current: z.boolean().describe('The session of the token making this call'),
});
export type Session = z.infer<typeof sessionSchema>;
/** Bound of a session id in `user.end_session` (the ids are 22 characters). */
const SESSION_ID_MAX = 64;
/**
 * Names kept at each end of a path of the `binary_paths` extension: a path through a spillover leg
 * is thousands of members long (26,378 levels in the `scale` scenario), so the answer and the
 * breadcrumbs hold the first and last few with the count of those between.
 */
export const BINARY_PATH_ENDS = 5;
export const binaryPathSchema = z.object({
  Username: z.string().describe('The member the path leads to (the caller when the leg is empty)'),
  Levels: z.number().int().describe('Levels the member sits below the caller (0: the caller)'),
  Head: z
    .array(z.string())
    .describe(
      `The path's first names, the caller first: the whole path when it has at most ${2 * BINARY_PATH_ENDS} names, else ${BINARY_PATH_ENDS}`,
    ),
  Skipped: z.number().int().describe('Names of the path between Head and Tail, not listed'),
  Tail: z
    .array(z.string())
    .describe(
      `The path's last ${BINARY_PATH_ENDS} names, ending with Username; empty when Head holds the whole path`,
    ),
});
/** Directs per page of `level.view_downline_page` unless `per_page` says otherwise; at most LEVEL_PAGE_MAX. */
export const LEVEL_PAGE_SIZE = 20;
export const LEVEL_PAGE_MAX = 100;
const whole = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .int({ error: `${label} must be a whole number` })
    .min(1, { error: `${label} must be at least 1` });
/** How many activities the timeline asks for by default; at most ACTIVITY_MAX. */
export const ACTIVITY_LIMIT = 20;
export const ACTIVITY_MAX = 50;

/** Days the `daily_series` extension answers at most (the charts' longest range). */
export const SERIES_DAYS_MAX = 90;
const seriesDay = z.string().describe('A UTC day, YYYY-MM-DD');
export const dailyEarningSchema = z.object({
  Date: seriesDay,
  ROI: amount,
  Direct: amount,
  Level: amount,
  Binary: amount,
  Rank: amount,
});
export const dailyVolumeSchema = z.object({ Date: seriesDay, Left: amount, Right: amount });
const seriesInput = authed({
  days: whole('days')
    .max(SERIES_DAYS_MAX, { error: `days must be at most ${SERIES_DAYS_MAX}` })
    .describe(`The last \`days\` UTC days, today included; at most ${SERIES_DAYS_MAX}`),
});
const seriesRange = {
  From: seriesDay.describe('First day of the range'),
  To: seriesDay.describe('Last day of the range (today, UTC)'),
};

// ----- payout details, withdrawal timeline, statements (extensions) -----
/** A TransID as the tables show it (payouts, withdrawals): letters and digits, bounded. */
const transIdField = nonEmpty('Transaction ID')
  .max(TEXT_MAX.tag, { error: 'Transaction ID is too long' })
  .describe(`A TransID as the tables show it, at most ${TEXT_MAX.tag} characters`);
export const PAYOUT_TYPES = ['ROI', 'Binary', 'Direct', 'Level', 'Rank'] as const;
const businessDay = z.string().describe('The business day of the run, YYYY-MM-DD (Europe/London)');
export const binaryLegSchema = z.object({
  Carry_Before: amount.describe('Carried forward from the previous binary run (0 before the first)'),
  New_Volume: amount.describe('Volume that reached the leg since the previous run'),
  Total: amount.describe('Carry_Before + New_Volume: what the run matched against'),
  Carried: amount.describe('Carried forward to the next run'),
  Flushed: amount.describe(
    'Taken off the leg by a flush (Total - Matched - Carried); the plan flushes nothing, so 0 unless the records say otherwise',
  ),
});
export const payoutDetailsSchema = z.object({
  TransID: z.string(),
  Type: z.enum(PAYOUT_TYPES),
  DateTime: dateTime,
  Wallet: z.string().describe('The wallet credited'),
  Expected: amount.describe('What the rules give before the 3x cap'),
  Received: amount.describe('What was credited'),
  Cap_Taken: amount.describe('Expected - Received: what the 3x cap kept back'),
  Cap_Headroom_Before: amount
    .nullable()
    .describe(
      'Room left under the 3x cap of the ACTIVE packages just before this payout (null for rank rewards, which the cap does not bound)',
    ),
  Cap_Headroom_After: amount.nullable(),
  Binary: z
    .object({
      Business_Date: businessDay,
      Left: binaryLegSchema,
      Right: binaryLegSchema,
      Matched: amount,
      Percentage: z.number().describe('Percent of the matched volume paid'),
    })
    .nullable(),
  Level: z
    .object({
      From: z.string().describe('The downline member whose purchase paid it'),
      Level: z.number().int(),
      Percentage: z.number(),
      Subs_Amount: amount,
      Transaction_ID: z.string().describe("The purchase's TransID"),
    })
    .nullable(),
  ROI: z
    .object({
      Business_Date: businessDay,
      Packages: z.array(
        z.object({
          Name: z.string(),
          TransID: z.string(),
          Amount: amount,
          ROI_Percentage: z.number(),
          Daily: amount,
        }),
      ),
    })
    .nullable(),
  Rank: z.object({ Rank: z.string() }).nullable(),
});
export type PayoutDetails = z.infer<typeof payoutDetailsSchema>;

export const WITHDRAWAL_STEPS = ['Requested', 'Approved', 'Paid', 'Rejected', 'Refunded'] as const;
export const withdrawalTimelineSchema = z.object({
  TransID: z.string(),
  Status: z.enum(['PENDING', 'APPROVED', 'REJECTED']),
  Amount: amount,
  Fee: amount,
  Net_Amount: amount,
  Address: z.string(),
  Tx_Hash: z
    .string()
    .nullable()
    .describe(
      'The BEP20 transaction of the payout; null until paid (and for payouts made before hashes were kept)',
    ),
  Explorer_Url: z.string().nullable().describe('The transaction on BscScan'),
  Steps: z
    .array(
      z.object({ Step: z.enum(WITHDRAWAL_STEPS), DateTime: dateTime, Amount: amount, Detail: z.string() }),
    )
    .describe('What has happened, oldest first'),
  Reason: z
    .string()
    .optional()
    .describe(
      'Why a REJECTED withdrawal was rejected; absent for other statuses and for a rejection whose reason was not recorded',
    ),
  Expected_By: dateTime
    .optional()
    .describe(
      `When a PENDING withdrawal is expected to be decided (its request + ${WITHDRAWAL_PROCESSING_HOURS} hours); absent once decided`,
    ),
});
export type WithdrawalTimeline = z.infer<typeof withdrawalTimelineSchema>;

const statementMonth = z
  .string({ error: 'month must be YYYY-MM' })
  .max(TEXT_MAX.date, { error: 'month must be YYYY-MM' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must be YYYY-MM' })
  .describe('A calendar month, YYYY-MM (UTC)');
const reasonTotal = z.object({
  Reason: z.string().describe('The history’s Type'),
  Count: z.number().int(),
  Amount: amount,
});
/** Line items a statement lists at most (`Line_Count` counts them all; the totals always cover all). */
export const STATEMENT_LINES_MAX = 2000;
export const statementLineSchema = z.object({
  DateTime: dateTime,
  Reason: z.string().describe('The history’s Type, in words'),
  Reference: z.string().describe('The TransID the history shows'),
  Amount: amount.describe('Signed: positive into the wallet, negative out of it'),
  Balance: amount.describe('The wallet’s balance after this line (Opening + every line up to it)'),
});
export type StatementLine = z.infer<typeof statementLineSchema>;
export const statementSchema = z.object({
  Wallet: z.string(),
  Month: z.string(),
  From: dateTime.describe('First instant of the month (UTC)'),
  To: dateTime.describe('First instant of the next month (UTC), excluded'),
  Opening: amount.describe('Balance at From: every credit minus every debit before it'),
  Credits: z.array(reasonTotal),
  Total_Credits: amount,
  Debits: z.array(reasonTotal),
  Total_Debits: amount,
  Closing: amount.describe(
    'Opening + Total_Credits - Total_Debits: the balance at To (or at As_Of, for the current month)',
  ),
  // Optional, so that a provider answering the fields above alone still validates.
  As_Of: dateTime
    .optional()
    .describe(
      'The instant the closing balance is at: To for a month that has ended, the moment the statement was made (the server clock) for the current one; never in the future',
    ),
  Made_At: dateTime.optional().describe('The server clock when the statement was made'),
  Reference: z
    .string()
    .optional()
    .describe(
      'Names this statement: from the member, wallet, month and the ledger rows it covers, so the same statement downloaded again has the same reference and any later movement in it gives a new one',
    ),
  Lines: z
    .array(statementLineSchema)
    .optional()
    .describe(
      `Every movement of the month, oldest first, with the running balance (the last one's Balance is Closing); at most ${STATEMENT_LINES_MAX}, the first ones`,
    ),
  Line_Count: z.number().int().optional().describe('How many movements the month has (Lines may list fewer)'),
});
export type Statement = z.infer<typeof statementSchema>;

/** Directs the `team_summary` extension lists at most, newest first (`Directs.Count` counts them all). */
export const TEAM_DIRECTS_LISTED = 100;
const legCountsSchema = z.object({
  Members: z.number().int().describe('Members in the leg (the binary subtree under that side)'),
  Active: z.number().int().describe('Of them, members holding an ACTIVE package'),
  Inactive: z.number().int().describe('Members − Active'),
  New_This_Week: z.number().int().describe('Joined since Monday 00:00 UK time'),
  New_This_Month: z.number().int().describe('Joined since the 1st of the month, 00:00 UK time'),
});
export const teamSummarySchema = z.object({
  Week_From: dateTime.describe('Start of this week (Monday 00:00 Europe/London)'),
  Month_From: dateTime.describe('Start of this month (the 1st, 00:00 Europe/London)'),
  Left: legCountsSchema,
  Right: legCountsSchema,
  Directs: z.object({
    Count: z.number().int().describe('Every member the caller sponsored'),
    Rows: z
      .array(
        z.object({
          Username: z.string(),
          Joined: dateTime,
          Side: z.enum(['0', '1']).describe('The leg of the caller the direct sits in'),
          Package: z
            .string()
            .nullable()
            .describe('The latest ACTIVE package, else the latest package bought, else null'),
          Status: z.enum(['ACTIVE', 'INACTIVE']).describe('ACTIVE while the direct holds an ACTIVE package'),
        }),
      )
      .describe(`The ${TEAM_DIRECTS_LISTED} newest directs at most, newest first`),
  }),
});
export const nextBinaryRunSchema = z.object({
  Now: dateTime.describe('The server clock (the one the daily runs follow)'),
  Next_Run: dateTime.describe('The next binary matching run: 11:00 Europe/London'),
  Left_Carry: amount.describe('Volume carried forward on the left leg after the last matching'),
  Right_Carry: amount,
});
export const rankHistorySchema = z.object({
  Rank: z.string().describe('The current rank'),
  Joined: dateTime.describe('When the member joined (a Starter from then)'),
  History: z
    .array(z.object({ Rank: z.string(), Reached_On: dateTime, Reward: amount, TransID: z.string() }))
    .describe('Each rank reached, in the order the rank runs promoted the member'),
});
/** Event types a member chooses in-app and email notices for; `security` is always both. */
export const NOTIFICATION_EVENTS = [
  'payouts',
  'team',
  'deposits',
  'packages',
  'withdrawals',
  'transfers',
  'security',
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];
export const notificationPreferenceSchema = z.object({
  Event: z.enum(NOTIFICATION_EVENTS),
  In_App: z.boolean(),
  Email: z.boolean(),
  Email_Offered: z.boolean().describe('false where no mail is sent for the event (payouts: several a day)'),
  Locked: z.boolean().describe('true for security notices: always sent, in-app and by email'),
  Phone: z
    .boolean()
    .optional()
    .describe(
      'Extension (capability `web_push`): the notice is pushed to the devices the member turned push on for; absent from providers without it',
    ),
  Phone_Offered: z
    .boolean()
    .optional()
    .describe(
      'Extension (capability `web_push`): false where nothing is pushed for the event (only payouts, transfers received, deposits paid and withdrawals decided are)',
    ),
});
/** At most this many devices of one member receive push notifications. */
export const PUSH_DEVICES_MAX = 10;
/** The longest push endpoint URL accepted (the push services' own are under 500 characters). */
export const PUSH_ENDPOINT_MAX = 2048;
const PUSH_MESSAGES = {
  endpoint: 'endpoint must be the push subscription’s URL (https)',
  p256dh: 'keys.p256dh must be the subscription’s P-256 public key (65 bytes, base64url)',
  auth: 'keys.auth must be the subscription’s 16-byte secret (base64url)',
} as const;
const isHttpUrl = (text: string) => {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
};
const pushEndpoint = z
  .string({ error: PUSH_MESSAGES.endpoint })
  .max(PUSH_ENDPOINT_MAX, { error: PUSH_MESSAGES.endpoint, abort: true })
  .refine(isHttpUrl, { error: PUSH_MESSAGES.endpoint })
  .describe(
    `The push service URL of the subscription (PushSubscription.endpoint), at most ${PUSH_ENDPOINT_MAX} characters. Only https to a public host is accepted (a server in development may allow loopback)`,
  );

const table = <R extends z.ZodType>(path: string, summary: string, row: R) =>
  endpoint({
    path,
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary,
    input: tableInput,
    output: list(row),
  });
const total = (path: string, summary: string) =>
  endpoint({
    path,
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary,
    input: tableInput,
    output: pages,
  });

// ---------- the contract ----------
export const contract = {
  // ----- identity -----
  'user.login': endpoint({
    path: '/user/login',
    kind: 'mutation',
    host: 'api',
    auth: 'none',
    summary: 'Sign in; answers the session token. `totp` is required when the member enabled TOTP.',
    input: fields({
      username,
      password: nonEmpty('Password').max(TEXT_MAX.password, { error: MSG.passwordTooLong }),
      totp: z
        .string()
        .regex(/^\d{0,6}$/, { error: MSG.totpRequired })
        .optional(),
    }),
    output: z.object({ Success: message, JWT: z.string() }),
  }),
  'user.view_country': endpoint({
    path: '/user/view_country',
    kind: 'query',
    host: 'api',
    auth: 'none',
    summary:
      'With a username: Success is whether that member has TOTP enabled. Without: Success is the country list.',
    input: fields({
      username: z
        .string()
        .trim()
        .max(TEXT_MAX.username, { error: MSG.usernameTooLong })
        .optional()
        .describe(`At most ${TEXT_MAX.username} characters`),
    }),
    output: z.object({ Success: z.union([z.boolean(), z.array(z.string())]) }),
  }),
  'user.check_username_available': endpoint({
    path: '/user/check_username_available',
    kind: 'query',
    host: 'api',
    auth: 'none',
    summary: 'Status true when the name is free; a sponsor is valid when it exists (Status false).',
    input: fields({ username }),
    output: z.object({ Status: z.boolean(), Success: message }),
  }),
  'user.verify_otp': endpoint({
    path: '/user/verify_otp',
    kind: 'mutation',
    host: 'api',
    auth: 'optional',
    tokenField: 'jwt',
    summary:
      "Generic OTP sender/verifier by `page`: without `otp` it mails one, with `otp` it checks it. Pages: 'Email Verification' (registration: username, email), 'Change Password' (signed in).",
    input: fields({
      jwt,
      // Trimmed here as the handler's own rules trim them, so surrounding spaces never count.
      username: z.string().trim().max(TEXT_MAX.username, { error: MSG.usernameTooLong }).optional(),
      page: z.enum(['Email Verification', 'Change Password'], { error: 'Unknown OTP page' }),
      email: z.string().trim().max(TEXT_MAX.email, { error: MSG.emailTooLong }).optional(),
      project: fixedTag('project').optional(),
      new_email: z.string().trim().max(TEXT_MAX.email, { error: MSG.emailTooLong }).optional(),
      otp: codeUpTo6(MSG.enterOtp6).optional(),
    }),
    output: ok,
  }),
  'user.register': endpoint({
    path: '/user/register',
    kind: 'mutation',
    host: 'api',
    auth: 'none',
    summary: 'Create an account with the OTP mailed by verify_otp; answers a session token.',
    input: fields({
      username: registrationUsername,
      name: nameField,
      sponsor: sponsorField,
      email: emailField,
      password: registrationPassword,
      conpassword: z
        .string({ error: MSG.passwordsDoNotMatch })
        .max(TEXT_MAX.password, { error: MSG.passwordTooLong }),
      otp: otpInput,
      side: sideField,
      country: nonEmpty('Country').max(TEXT_MAX.country, { error: MSG.countryTooLong }),
      project: fixedTag('project').optional(),
    }).refine((v) => v.password === v.conpassword, { error: MSG.passwordsDoNotMatch }),
    output: z.object({ Success: message, JWT: z.string() }),
  }),
  'user.reset_password_email': endpoint({
    path: '/user/reset_password_email',
    kind: 'mutation',
    host: 'api',
    auth: 'none',
    summary: 'Mail a password-reset OTP to the member (at most once per 10 seconds).',
    input: fields({ username }),
    output: ok,
  }),
  'user.reset_password': endpoint({
    path: '/user/reset_password',
    kind: 'mutation',
    host: 'api',
    auth: 'none',
    summary: 'Set a new password with the reset OTP (at most once per 10 seconds).',
    input: fields({
      username,
      otp: otpInput,
      newpassword: z
        .string({ error: MSG.resetPasswordCriteria })
        .max(TEXT_MAX.password, { error: MSG.passwordTooLong, abort: true })
        .refine(meetsResetPassword, { error: MSG.resetPasswordCriteria }),
      conpassword: z
        .string({ error: MSG.passwordsDoNotMatch })
        .max(TEXT_MAX.password, { error: MSG.passwordTooLong }),
    }).refine((v) => v.newpassword === v.conpassword, { error: MSG.passwordsDoNotMatch }),
    output: ok,
  }),
  'user.forgot_username': endpoint({
    path: '/user/forgot_username',
    kind: 'mutation',
    host: 'api',
    auth: 'none',
    summary:
      'Mail the usernames registered with this email. `captcha` is the ALTCHA payload when the server advertises the captcha capability.',
    input: fields({
      // Bounded as sent (spaces included), so the limit shows in the OpenAPI document.
      email: z
        .string({ error: MSG.emailRequired })
        .max(TEXT_MAX.email, { error: MSG.emailTooLong })
        .transform((v) => v.replace(/\s+/g, '').toLowerCase())
        .pipe(z.string().min(1, { error: MSG.emailRequired, abort: true })),
      captcha: bounded('captcha', TEXT_MAX.captcha).optional(),
    }),
    output: ok,
  }),
  'user.view_profile': endpoint({
    path: '/user/view_profile',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'The signed-in member; Success[0] is the profile.',
    input: authed({}),
    output: z.object({ Success: z.array(profileSchema) }),
  }),
  'user.enable_totp': endpoint({
    path: '/user/enable_totp',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Start TOTP set-up: a new secret key and its otpauth URI (not active until change_totp_status).',
    input: authed({}),
    output: z.object({ Success: z.object({ Key: z.string(), URI: z.string() }) }),
  }),
  'user.change_totp_status': endpoint({
    path: '/user/change_totp_status',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Turn TOTP on (status true) or off (status false); needs a current 6-digit code.',
    input: authed({
      status: z
        .union([z.boolean(), z.enum(['true', 'false'])], { error: 'status must be true or false' })
        .transform((v) => v === true || v === 'true'),
      totp: z
        .string({ error: MSG.invalidVerificationCode })
        .regex(/^\d{6}$/, { error: MSG.invalidVerificationCode }),
    }),
    output: ok,
  }),
  'user.change_password': endpoint({
    path: '/user/change_password',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary:
      "Change the password with the OTP mailed by verify_otp (page 'Change Password'). Earlier tokens stop working.",
    input: authed({
      oldpassword: password(MSG.fillAllPasswordFields),
      newpassword: password(MSG.fillAllPasswordFields),
      conpassword: password(MSG.fillAllPasswordFields),
      otp: z.string({ error: MSG.enterOtp }).regex(/^\d{6}$/, { error: MSG.enterOtp }),
    }),
    output: ok,
  }),
  'user.change_email_request': endpoint({
    path: '/user/change_email_request',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Mail an OTP to the address that is to become current. Refused with an active subscription.',
    input: authed({ email: changedEmail }),
    output: ok,
  }),
  'user.change_email': endpoint({
    path: '/user/change_email',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Confirm the new email with its OTP.',
    input: authed({
      email: changedEmail,
      otp: otpInput,
    }),
    output: ok,
  }),
  'user.reset_transaction_password': endpoint({
    path: '/user/reset_transaction_password',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary:
      'First time: sets the transaction password at once. Afterwards: mails an OTP that verify_transaction_password takes.',
    input: authed({
      password: z
        .string({ error: MSG.enterTransactionPassword })
        .max(TEXT_MAX.password, { error: MSG.passwordTooLong }),
    }),
    output: z.object({ Success: message, OTP_Sent: z.boolean() }),
  }),
  'user.verify_transaction_password': endpoint({
    path: '/user/verify_transaction_password',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Complete a transaction-password reset with the mailed OTP.',
    input: authed({
      password: z
        .string({ error: MSG.enterTransactionPassword })
        .max(TEXT_MAX.password, { error: MSG.passwordTooLong }),
      // The handler trims the code; the bound holds for what it reads.
      otp: z.string({ error: MSG.enterOtp6 }).trim().max(OTP_LENGTH, { error: MSG.enterOtp6 }),
    }),
    output: ok,
  }),
  'user_analytics.view_user_analytics': endpoint({
    path: '/user_analytics/view_user_analytics',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Figures for the dashboard overview and earnings cards.',
    input: authed({}),
    output: z.object({ Success: analyticsSchema }),
  }),
  'direct.view_direct_team_details': endpoint({
    path: '/direct/view_direct_team_details',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'The members the caller sponsored directly.',
    input: authed({}),
    output: z.object({ Success: z.array(directMemberSchema) }),
  }),
  'notification.view_notification': endpoint({
    path: '/notification/view_notification',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary:
      'The caller’s notifications, newest first. page_no/page_size (or pageNo/pageSize), default 1 and 20.',
    input: authed({
      page_no: z.number().int().min(1, { error: 'page_no must be at least 1' }).optional(),
      page_size: z.number().int().min(1).max(200, { error: 'page_size must be at most 200' }).optional(),
      pageNo: z.number().int().min(1, { error: 'pageNo must be at least 1' }).optional(),
      pageSize: z.number().int().min(1).max(200, { error: 'pageSize must be at most 200' }).optional(),
    }),
    output: z.object({ Success: z.array(notificationSchema) }),
  }),
  'notification.total_view_notification': endpoint({
    path: '/notification/total_view_notification',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'token',
    summary: 'Number of notifications of the caller; pages = ceil(total / 20).',
    input: fields({ token: bounded('token', TEXT_MAX.token).optional() }),
    output: z.object({ Success: z.number().int() }),
  }),

  // ----- money -----
  'wallet.view_all_wallets_details': endpoint({
    path: '/wallet/view_all_wallets_details',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Every wallet of the caller: Available, Total, This_Month, Last_Month.',
    input: authed({}),
    output: z.object({ Success: walletsSchema }),
  }),
  'table.view_subscription': endpoint({
    path: '/table/view_subscription',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'The package list.',
    input: authed({}),
    output: z.object({ Success: z.array(packageSchema) }),
  }),
  'subscription.buy_subscription_packages': endpoint({
    path: '/subscription/buy_subscription_packages',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    idempotent: true,
    tokenField: 'jwt',
    summary: 'Buy a package (by Name) from the Deposit wallet.',
    input: authed({ plan: nonEmpty('Plan').max(TEXT_MAX.plan, { error: MSG.planTooLong }) }),
    output: ok,
  }),
  'level.downline_exist': endpoint({
    path: '/level/downline_exist',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Success true when the username is in the caller’s sponsor downline (the P2P recipient check).',
    input: authed({ username }),
    output: z.object({ Success: z.boolean() }),
  }),
  transfer_to_user: endpoint({
    path: '/transfer_to_user',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    idempotent: true,
    tokenField: 'jwt',
    summary:
      'P2P: from the caller’s Deposit wallet to the recipient’s P2P wallet; fee 0; needs the transaction password.',
    input: authed({ username, amount: moneyAmount, password: password(MSG.enterTransactionPassword) }),
    output: ok,
  }),
  'wallet.view_from_wallets': endpoint({
    path: '/wallet/view_from_wallets',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Swap sources: wallet name → selectable.',
    input: authed({}),
    output: z.object({ Success: z.record(z.string(), z.boolean()) }),
  }),
  'wallet.view_to_wallets': endpoint({
    path: '/wallet/view_to_wallets',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Swap destinations: wallet name → selectable.',
    input: authed({}),
    output: z.object({ Success: z.record(z.string(), z.boolean()) }),
  }),
  'wallet.transfer_wallet': endpoint({
    path: '/wallet/transfer_wallet',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    idempotent: true,
    tokenField: 'jwt',
    summary: 'Swap between the caller’s own wallets.',
    input: authed({ amount: moneyAmount, from_wallet: walletName, to_wallet: walletName }),
    output: ok,
  }),
  'wallet.update_wallet_address': endpoint({
    path: '/wallet/update_wallet_address',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Check a BEP.20 address and mail an OTP to confirm it.',
    input: authed({
      address: walletAddress,
      network: z.literal('BEP.20', { error: 'Only BEP.20 addresses are accepted' }),
    }),
    output: ok,
  }),
  'wallet.wallet_address_verification': endpoint({
    path: '/wallet/wallet_address_verification',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Save the address with the OTP mailed by update_wallet_address.',
    input: authed({
      address: walletAddress,
      network: z.literal('BEP.20', { error: 'Only BEP.20 addresses are accepted' }),
      otp: otpInput,
    }),
    output: ok,
  }),
  'withdraw.withdraw_fees': endpoint({
    path: '/withdraw/withdraw_fees',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'The withdrawal fee percentage for an amount.',
    input: authed({ amount: moneyAmount }),
    output: z.object({ Success: z.number().describe('Fee percentage, e.g. 5 for 5%') }),
  }),
  'withdraw.withdraw_request': endpoint({
    path: '/withdraw/withdraw_request',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    idempotent: true,
    tokenField: 'jwt',
    summary:
      'Request a withdrawal from the Withdrawal wallet to the saved address; the amount is reserved at once.',
    input: authed({ amount: moneyAmount, password: password(MSG.enterTransactionPassword) }),
    output: ok,
  }),
  'deposit.make_payment': endpoint({
    path: '/deposit/make_payment',
    kind: 'mutation',
    host: 'deposit',
    auth: 'required',
    idempotent: true,
    tokenField: 'jwt',
    summary: 'Open a 30-minute deposit window with a unique BEP20 address and its QR code.',
    input: authed({
      amount_usdt: moneyAmount.refine((n) => n >= 10, { error: MSG.depositMin }),
      currency: z.enum(['USDT.BEP20', 'BNB.BSC'], { error: 'currency must be USDT.BEP20 or BNB.BSC' }),
      gateway: fixedTag('gateway').optional(),
    }),
    output: z.object({
      Success: z.object({
        Amount: amount,
        QR_Code: z.string().describe('data: URL of a PNG'),
        Address: z.string(),
        TransID: z.string(),
      }),
    }),
  }),

  // ----- network -----
  'level.view_downline': endpoint({
    path: '/level/view_downline',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Direct sponsor downline of `username` (the caller or a member within 5 levels below).',
    input: authed({ username }),
    output: z.object({ Success: levelDownlineSchema }),
  }),
  'binary.view_binary_downline': endpoint({
    path: '/binary/view_binary_downline',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Binary children of `username` (the caller or a member of the caller’s binary downline).',
    input: authed({ username }),
    output: z.object({ Success: binaryDownlineSchema }),
  }),
  'binary.view_binary_downline_details': endpoint({
    path: '/binary/view_binary_downline_details',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Hover-panel details of a member of the caller’s binary downline.',
    input: authed({ username }),
    output: z.object({ Success: nodeDetailsSchema }),
  }),
  'rank.view_all_ranks': endpoint({
    path: '/rank/view_all_ranks',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'Every rank in order, Starter first.',
    input: authed({}),
    output: z.object({ Success: z.array(rankItemSchema) }),
  }),
  'rank.current_rank': endpoint({
    path: '/rank/current_rank',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    summary: 'The caller’s current rank.',
    input: authed({}),
    output: z.object({ Success: z.object({ Rank: z.string() }) }),
  }),

  // ----- paged tables -----
  'table.view_deposit_transaction': table(
    '/table/view_deposit_transaction',
    'Deposit transactions',
    depositRowSchema,
  ),
  'table.total_pagination_deposit_transaction': total(
    '/table/total_pagination_deposit_transaction',
    'Pages of deposit transactions',
  ),
  'subscription.subscription_transaction': table(
    '/subscription/subscription_transaction',
    'Package (subscription) transactions',
    subscriptionRowSchema,
  ),
  'subscription.total_pagination_subscription_transaction': total(
    '/subscription/total_pagination_subscription_transaction',
    'Pages of subscription transactions',
  ),
  'earning.view_all_earning_history': table(
    '/earning/view_all_earning_history',
    'Earning and transfer history',
    earningRowSchema,
  ),
  'earning.total_pagination_earning_history': total(
    '/earning/total_pagination_earning_history',
    'Pages of earning history',
  ),
  'level.level_earning_transaction': table(
    '/level/level_earning_transaction',
    'Level income (Level Bonus)',
    levelEarningRowSchema,
  ),
  'level.total_pagination_level_earning': total(
    '/level/total_pagination_level_earning',
    'Pages of level income',
  ),
  'rank.view_rank_qualification': table('/rank/view_rank_qualification', 'Rank volume', volumeRowSchema),
  'rank.total_pagination_rank_qualification': total(
    '/rank/total_pagination_rank_qualification',
    'Pages of rank volume',
  ),
  'binary.view_binary_transaction': table(
    '/binary/view_binary_transaction',
    'Binary volume',
    volumeRowSchema,
  ),
  'binary.total_pagination_binary_transaction': total(
    '/binary/total_pagination_binary_transaction',
    'Pages of binary volume',
  ),
  'rank.view_rank_transaction': table(
    '/rank/view_rank_transaction',
    'Rank rewards (Rank Bonus)',
    rankRewardRowSchema,
  ),
  'rank.total_pagination_rank_transaction': total(
    '/rank/total_pagination_rank_transaction',
    'Pages of rank rewards',
  ),

  // ----- extensions of this stand-in: NOT provider endpoints -----
  // The real provider has no such calls. The web app uses them only when /config.json lists the
  // capability in `capabilities`; otherwise it keeps the spec's behaviour (simulated support send,
  // static timeline), so provider mode never depends on them.
  'support.send_message': endpoint({
    path: '/support/send_message',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'support',
    summary:
      'Extension (capability `support`), not a provider endpoint: store a Contact Support message of the signed-in member, mail it to the support address and a confirmation to the member.',
    input: authed(supportFormSchema.shape),
    output: z.object({ Success: message, Ticket: z.string().describe('Reference of the stored message') }),
  }),
  'activity.view_recent': endpoint({
    path: '/activity/view_recent',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'activity',
    summary: `Extension (capability \`activity\`), not a provider endpoint: the signed-in member's recent account activity (notifications, ledger movements, support messages), newest first; \`limit\` default ${ACTIVITY_LIMIT}, at most ${ACTIVITY_MAX}.`,
    input: authed({
      limit: z
        .number({ error: 'limit must be a number' })
        .int({ error: 'limit must be a whole number' })
        .min(1, { error: 'limit must be at least 1' })
        .max(ACTIVITY_MAX, { error: `limit must be at most ${ACTIVITY_MAX}` })
        .optional(),
    }),
    output: z.object({ Success: z.array(activitySchema) }),
  }),
  'level.view_downline_page': endpoint({
    path: '/level/view_downline_page',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'downline_pages',
    summary: `Extension (capability \`downline_pages\`), not a provider endpoint: one page of \`level.view_downline\` (the same members, scoping and row shape), for members with thousands of directs. \`page\` from 1; \`per_page\` default ${LEVEL_PAGE_SIZE}, at most ${LEVEL_PAGE_MAX}; \`CountUser\` is every direct, \`Downline\` this page's (empty past the last page).`,
    input: authed({
      username,
      page: whole('page'),
      per_page: whole('per_page')
        .max(LEVEL_PAGE_MAX, { error: `per_page must be at most ${LEVEL_PAGE_MAX}` })
        .optional(),
    }),
    output: z.object({
      Success: levelDownlineSchema.extend({ Page: z.number().int(), Per_Page: z.number().int() }),
    }),
  }),
  'binary.view_leg_bottom': endpoint({
    path: '/binary/view_leg_bottom',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'binary_paths',
    summary:
      'Extension (capability `binary_paths`), not a provider endpoint: the outermost member of the caller’s left (`side` "0") or right ("1") leg, following that side down to its end, where a new registration of the caller on that side is placed, with the path from the caller to it.',
    input: authed({ side: sideField }),
    output: z.object({ Success: binaryPathSchema }),
  }),
  'binary.view_path': endpoint({
    path: '/binary/view_path',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'binary_paths',
    summary:
      'Extension (capability `binary_paths`), not a provider endpoint: the path in the binary tree from the caller to `username`, a member of the caller’s binary downline (search by name). A member outside the downline and an unknown name both answer 404, as the tree reads do.',
    input: authed({ username }),
    output: z.object({ Success: binaryPathSchema }),
  }),
  'earning.view_daily_earnings': endpoint({
    path: '/earning/view_daily_earnings',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'daily_series',
    summary:
      'Extension (capability `daily_series`), not a provider endpoint: the caller’s income credited per UTC day and income type (ROI, direct, level, binary, rank) over the last `days` days, the sums of the earning history’s income rows; days without income are left out.',
    input: seriesInput,
    output: z.object({ Success: z.object({ ...seriesRange, Days: z.array(dailyEarningSchema) }) }),
  }),
  'binary.view_daily_volume': endpoint({
    path: '/binary/view_daily_volume',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'daily_series',
    summary:
      'Extension (capability `daily_series`), not a provider endpoint: the binary volume that reached each of the caller’s legs per UTC day over the last `days` days, the sums of the binary volume table’s Volume by Side; days without volume are left out.',
    input: seriesInput,
    output: z.object({ Success: z.object({ ...seriesRange, Days: z.array(dailyVolumeSchema) }) }),
  }),
  'rank.view_rank_progress': endpoint({
    path: '/rank/view_rank_progress',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'rank_progress',
    summary:
      'Extension (capability `rank_progress`), not a provider endpoint: what the rank run compares with the ranks’ requirements: the caller’s lifetime rank volume per leg (as of the last daily run) and qualified leaders (directs with a direct on each side).',
    input: authed({}),
    output: z.object({
      Success: z.object({
        Rank: z.string(),
        Left_Volume: amount,
        Right_Volume: amount,
        Qualified_Leaders: z.number().int(),
      }),
    }),
  }),
  'earning.view_payout_details': endpoint({
    path: '/earning/view_payout_details',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'payout_details',
    summary:
      'Extension (capability `payout_details`), not a provider endpoint: why one of the caller’s payouts (ROI, binary, direct, level income or a rank reward, by its TransID) is what it is: for binary the legs before the run, what was matched, carried and flushed; for direct and level income the downline member, level and purchase; for ROI the business day, the packages and their rates; for each the 3x cap room before and after. A TransID that is not the caller’s answers 404 as an unknown one does.',
    input: authed({ trans_id: transIdField }),
    output: z.object({ Success: payoutDetailsSchema }),
  }),
  'withdraw.view_withdrawal_timeline': endpoint({
    path: '/withdraw/view_withdrawal_timeline',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'withdrawal_timeline',
    summary:
      'Extension (capability `withdrawal_timeline`), not a provider endpoint: where one of the caller’s withdrawals (by its TransID) is: requested (while PENDING, when it is expected to be decided: `Expected_By`), then approved and paid with the transaction hash, or rejected with the refund and why (`Reason`). A TransID that is not the caller’s answers 404 as an unknown one does.',
    input: authed({ trans_id: transIdField }),
    output: z.object({ Success: withdrawalTimelineSchema }),
  }),
  'wallet.view_statement': endpoint({
    path: '/wallet/view_statement',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'statements',
    summary:
      'Extension (capability `statements`), not a provider endpoint: the monthly statement of one of the caller’s wallets from the ledger: opening balance, credits and debits by reason, every line item with its running balance, closing balance (opening + credits - debits, to the micro-unit), as of the end of the month or, for the current month, the moment it was made, and a reference that the same ledger state reproduces. Without a month, the current one by the server clock. A month after the current one is refused.',
    input: authed({
      wallet: walletName,
      month: statementMonth
        .optional()
        .describe('A calendar month, YYYY-MM (UTC); omitted, the current month by the server clock'),
    }),
    output: z.object({ Success: statementSchema }),
  }),
  'team.view_team_summary': endpoint({
    path: '/team/view_team_summary',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'team_summary',
    summary: `Extension (capability \`team_summary\`), not a provider endpoint: the caller’s team in numbers: per binary leg the members, active and inactive, new this week and this month (UK calendar), and the directs (the ${TEAM_DIRECTS_LISTED} newest) with join date, package and status. Always the token’s member.`,
    input: authed({}),
    output: z.object({ Success: teamSummarySchema }),
  }),
  'binary.view_next_run': endpoint({
    path: '/binary/view_next_run',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'binary_next_run',
    summary:
      'Extension (capability `binary_next_run`), not a provider endpoint: when the next binary matching run is due on the server clock (11:00 UK time, daylight saving followed) and the caller’s carry on each leg after the last matching. Always the token’s member.',
    input: authed({}),
    output: z.object({ Success: nextBinaryRunSchema }),
  }),
  'rank.view_rank_history': endpoint({
    path: '/rank/view_rank_history',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'rank_history',
    summary:
      'Extension (capability `rank_history`), not a provider endpoint: each rank the rank runs promoted the caller to, with the date and the reward, oldest first, and the join date (a Starter from then). Always the token’s member.',
    input: authed({}),
    output: z.object({ Success: rankHistorySchema }),
  }),
  'notification.view_preferences': endpoint({
    path: '/notification/view_preferences',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'notification_preferences',
    summary:
      'Extension (capability `notification_preferences`), not a provider endpoint: the caller’s choice of in-app and email notices per event type. Security notices are always sent.',
    input: authed({}),
    output: z.object({ Success: z.array(notificationPreferenceSchema) }),
  }),
  'notification.update_preferences': endpoint({
    path: '/notification/update_preferences',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'notification_preferences',
    summary:
      'Extension (capability `notification_preferences`), not a provider endpoint: turn the in-app or email notices of one event type on or off; answers every preference. Security notices cannot be turned off; payouts are not mailed.',
    input: authed({
      event: z.enum(NOTIFICATION_EVENTS, { error: 'Unknown event type' }),
      in_app: z.boolean({ error: 'in_app must be true or false' }).optional(),
      email: z.boolean({ error: 'email must be true or false' }).optional(),
      phone: z
        .boolean({ error: 'phone must be true or false' })
        .optional()
        .describe('Extension (capability `web_push`): push the notice to the member’s devices'),
    }),
    output: z.object({ Success: message, Preferences: z.array(notificationPreferenceSchema) }),
  }),
  'notification.view_push_key': endpoint({
    path: '/notification/view_push_key',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'web_push',
    summary:
      'Extension (capability `web_push`), not a provider endpoint: the server’s VAPID public key (the `applicationServerKey` a browser subscribes with) and how many devices of the caller receive push notifications.',
    input: authed({}),
    output: z.object({
      Success: z.object({
        Public_Key: z
          .string()
          .describe('VAPID public key: an uncompressed P-256 point, base64url (RFC 8292)'),
        Devices: z.number().int().describe('Devices of the caller subscribed to push'),
      }),
    }),
  }),
  'notification.subscribe_push': endpoint({
    path: '/notification/subscribe_push',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'web_push',
    summary: `Extension (capability \`web_push\`), not a provider endpoint: push the caller’s notices (payouts, transfers received, deposits paid, withdrawals decided, as the preferences’ \`Phone\` says) to this browser, given its PushSubscription as \`toJSON()\` writes it. An endpoint already subscribed moves to the caller; at most ${PUSH_DEVICES_MAX} devices per member. An endpoint that is not https to a public host is refused (400) and nothing is stored.`,
    input: authed({
      endpoint: pushEndpoint,
      keys: fields({
        p256dh: z
          .string({ error: PUSH_MESSAGES.p256dh })
          .regex(/^B[A-Za-z0-9_-]{86}=?$/, { error: PUSH_MESSAGES.p256dh })
          .describe('The browser’s P-256 public key (uncompressed point, 65 bytes), base64url'),
        auth: z
          .string({ error: PUSH_MESSAGES.auth })
          .regex(/^[A-Za-z0-9_-]{21}[AQgw](==)?$/, { error: PUSH_MESSAGES.auth })
          .describe('The browser’s 16-byte authentication secret, base64url'),
      }),
      expirationTime: z
        .number({ error: 'expirationTime must be a number or null' })
        .nullable()
        .optional()
        .describe('As PushSubscription.toJSON() writes it; not used'),
    }),
    output: z.object({
      Success: message,
      Devices: z.number().int().describe('Devices of the caller subscribed to push, this one included'),
    }),
  }),
  'notification.unsubscribe_push': endpoint({
    path: '/notification/unsubscribe_push',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'web_push',
    summary:
      'Extension (capability `web_push`), not a provider endpoint: stop pushing to this browser (its PushSubscription endpoint). Only the caller’s own subscription is removed; an endpoint the caller has none for answers the same.',
    input: authed({
      endpoint: z
        .string({ error: PUSH_MESSAGES.endpoint })
        .max(PUSH_ENDPOINT_MAX, { error: PUSH_MESSAGES.endpoint })
        .describe('The push service URL of the subscription'),
    }),
    output: z.object({
      Success: message,
      Devices: z.number().int().describe('Devices of the caller still subscribed to push'),
    }),
  }),
  'user.logout': endpoint({
    path: '/user/logout',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'sessions',
    summary:
      'Extension (capability `sessions`), not a provider endpoint: end the session of this token at the server, so the token is refused from now on (401 `Session Expired`). Without the capability the client only forgets the token, as the spec says.',
    input: authed({}),
    output: ok,
  }),
  'user.view_sessions': endpoint({
    path: '/user/view_sessions',
    kind: 'query',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'sessions',
    summary:
      'Extension (capability `sessions`), not a provider endpoint: the signed-in member’s live sessions (not ended, not expired), the current one first, then by last seen, newest first.',
    input: authed({}),
    output: z.object({ Success: z.array(sessionSchema) }),
  }),
  'user.end_session': endpoint({
    path: '/user/end_session',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'sessions',
    summary:
      'Extension (capability `sessions`), not a provider endpoint: sign out one session of the signed-in member (its token is refused from now on); the current one too, like `user.logout`. A session that is not the member’s, or has ended, answers 400 `Session not found` (404 is kept for the downline).',
    input: authed({
      session: nonEmpty('Session')
        .max(SESSION_ID_MAX, { error: 'Session not found' })
        .describe('The `ID` of a session from `user.view_sessions`'),
    }),
    output: ok,
  }),
  'user.end_other_sessions': endpoint({
    path: '/user/end_other_sessions',
    kind: 'mutation',
    host: 'api',
    auth: 'required',
    tokenField: 'jwt',
    extension: 'sessions',
    summary:
      'Extension (capability `sessions`), not a provider endpoint: sign out every session of the signed-in member but the current one; `Ended` says how many.',
    input: authed({}),
    output: z.object({ Success: message, Ended: z.number().int().describe('Sessions signed out') }),
  }),
} as const;

export type Contract = typeof contract;
export type ProcedureName = keyof Contract;
export type InputOf<K extends ProcedureName> = z.input<Contract[K]['input']>;
export type ParsedInputOf<K extends ProcedureName> = z.output<Contract[K]['input']>;
export type OutputOf<K extends ProcedureName> = z.output<Contract[K]['output']>;

export const procedureNames = Object.keys(contract) as ProcedureName[];
/** Extensions of this stand-in (see `Endpoint.extension`); every other entry is a provider endpoint. */
export const extensionNames = procedureNames.filter((name) => contract[name].extension !== undefined);
/** Procedure names are the paths: '/user/login' ↔ 'user.login'. */
export const procedureNameOf = (path: string) => path.replace(/^\//, '').replaceAll('/', '.');
export const endpointByPath = new Map<string, ProcedureName>(
  procedureNames.map((name) => [contract[name].path, name]),
);
