/**
 * Email OTPs (DESIGN §5): 6 digits, stored hashed, 10 minutes, single use, bound to a purpose,
 * a subject (username or email) and optionally a payload (new email, wallet address, ...),
 * at most 5 wrong tries. Issuing a new code for the same purpose and subject retires older ones.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { otps } from '@md/db';
import { runAfterAnswerJobs } from './after-answer.ts';
import { reserveGuess } from './attempts.ts';
import { AppError, badRequest } from './errors.ts';
import { EXAMPLE_CODE, exampleCodesOn } from './example-codes.ts';
import type { Delivery } from './mailer.ts';
import type { Caller, Services } from './services.ts';

export const OTP_TTL_MS = 10 * 60 * 1000;
export const OTP_MAX_WRONG_TRIES = 5;

export const OTP_MESSAGES = {
  invalid: 'Invalid OTP',
  expired: 'OTP has expired',
  tooManyTries: 'Too many wrong attempts. Request a new OTP.',
} as const;

/** Purposes in use; the money actions add their own (strings are accepted, these are the known ones). */
export type OtpPurpose =
  'registration' | 'reset_password' | 'change_password' | 'change_email' | (string & {});

const LABELS: Record<string, string> = {
  registration: 'email verification',
  reset_password: 'password reset',
  change_password: 'password change',
  change_email: 'email change',
};

type OtpServices = Pick<Services, 'db' | 'sqlite' | 'clock' | 'mailer' | 'config'> & { caller?: Caller };

export interface IssueOtpOptions {
  purpose: OtpPurpose;
  /** Username, or the email before an account exists. */
  subject: string;
  /** Where the code is mailed. */
  email: string;
  username?: string | null;
  payload?: string | null;
  /** Words naming the action in the mail ('password reset'); defaults by purpose. */
  label?: string;
  /** When the code was asked for (a code issued after the answer counts its 10 minutes from the request). */
  at?: number;
  /** A sentence naming what the code confirms ('It confirms the withdrawal address 0x5290...9EE7.'). */
  about?: string;
}

export interface CheckOtpOptions {
  purpose: OtpPurpose;
  subject: string;
  code: string;
  /** When given, must equal the payload the code was issued with. */
  payload?: string | null;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest();

export function issueOtp(
  ctx: OtpServices,
  options: IssueOtpOptions,
): { expiresAt: number; delivery: Promise<Delivery> } {
  // Codes issued after an earlier answer are written first, so a newer code always retires older ones.
  runAfterAnswerJobs(ctx);
  const code = exampleCodesOn(ctx) ? EXAMPLE_CODE : String(randomInt(0, 1_000_000)).padStart(6, '0');
  const now = options.at ?? ctx.clock.now();
  const expiresAt = now + OTP_TTL_MS;
  ctx.db.transaction((tx) => {
    tx.update(otps)
      .set({ usedAt: now })
      .where(and(eq(otps.purpose, options.purpose), eq(otps.subject, options.subject), isNull(otps.usedAt)))
      .run();
    tx.insert(otps)
      .values({
        purpose: options.purpose,
        subject: options.subject,
        payload: options.payload ?? null,
        codeHash: hashCode(code).toString('hex'),
        createdAt: now,
        expiresAt,
      })
      .run();
  });
  const label = options.label ?? LABELS[options.purpose] ?? options.purpose.replaceAll('_', ' ');
  const { delivery } = ctx.mailer.send({
    to: options.email,
    toUsername: options.username ?? null,
    subject: `Your ${label} code`,
    text: [
      `Your ${label} code is ${code}.`,
      ...(options.about ? [options.about] : []),
      'It expires in 10 minutes and works once. If you did not ask for it, ignore this message.',
    ].join(' '),
    otp: code,
    sentAt: now,
  });
  return { expiresAt, delivery };
}

/** The answer when a code's mail could not be delivered (SMTP down): never 'OTP sent'. */
export const MAIL_NOT_SENT = 'We could not send the email. Please try again in a few minutes.';

/**
 * Issues a code and answers only once its mail is delivered (or kept in the outbox, without SMTP):
 * a mail that failed every attempt is a 503 with MAIL_NOT_SENT, never 'OTP sent'. While mail is
 * known to be failing (core/mailer.ts unavailable) it refuses at once rather than wait through the
 * retries again. For answers that must not wait (timing: a password reset), see docs/decisions/identity-and-sessions.md.
 */
export async function mailOtp(ctx: OtpServices, options: IssueOtpOptions): Promise<{ expiresAt: number }> {
  if (ctx.mailer.unavailable()) throw new AppError(503, MAIL_NOT_SENT);
  const { expiresAt, delivery } = issueOtp(ctx, options);
  if ((await delivery) === 'failed') throw new AppError(503, MAIL_NOT_SENT);
  return { expiresAt };
}

/**
 * Checks a code; a wrong one counts against the code's 5 tries and against the subject's and the
 * client's wrong-code limits (core/attempts.ts), which refuse further guesses with 429 whichever
 * code they aim at. The guess is reserved before the code is read and given back when right, so
 * concurrent wrong codes never pass the limits. With `consume` a right one is used up.
 */
function check(ctx: OtpServices, options: CheckOtpOptions, consume: boolean): number {
  const guess = reserveGuess(ctx, 'code', { account: options.subject, caller: ctx.caller });
  try {
    runAfterAnswerJobs(ctx);
    const now = ctx.clock.now();
    // The outcome is written before the error is thrown, so a wrong try is counted.
    let usedId = 0;
    const failure = ctx.db.transaction((tx): string | null => {
      const row = tx
        .select()
        .from(otps)
        .where(and(eq(otps.purpose, options.purpose), eq(otps.subject, options.subject), isNull(otps.usedAt)))
        .orderBy(desc(otps.id))
        .limit(1)
        .get();
      if (!row) return OTP_MESSAGES.invalid;
      if (row.attempts >= OTP_MAX_WRONG_TRIES) return OTP_MESSAGES.tooManyTries;
      if (now >= row.expiresAt) return OTP_MESSAGES.expired;
      const expected = Buffer.from(row.codeHash, 'hex');
      const codeMatches = /^\d{6}$/.test(options.code) && timingSafeEqual(expected, hashCode(options.code));
      const payloadMatches =
        options.payload === undefined || (row.payload ?? null) === (options.payload ?? null);
      if (!codeMatches || !payloadMatches) {
        const attempts = row.attempts + 1;
        tx.update(otps).set({ attempts }).where(eq(otps.id, row.id)).run();
        return attempts >= OTP_MAX_WRONG_TRIES ? OTP_MESSAGES.tooManyTries : OTP_MESSAGES.invalid;
      }
      if (consume) tx.update(otps).set({ usedAt: now }).where(eq(otps.id, row.id)).run();
      usedId = row.id;
      return null;
    });
    if (failure) {
      guess.fail();
      throw badRequest(failure);
    }
    return usedId;
  } finally {
    guess.release();
  }
}

/** Verify without using the code up (the registration step that only checks). */
export const checkOtp = (ctx: OtpServices, options: CheckOtpOptions) => check(ctx, options, false);
/** Verify and use the code up: it never works again. Answers the code's id, for `giveBackOtp`. */
export const consumeOtp = (ctx: OtpServices, options: CheckOtpOptions) => check(ctx, options, true);

/**
 * Makes a used code usable again when the request that used it failed before changing anything
 * (the hashing queue was full): the member retries with the code in hand instead of asking for a
 * new one. Only the request that used the code calls this, so no one else can have relied on it.
 */
export function giveBackOtp(ctx: OtpServices, id: number): void {
  ctx.db
    .update(otps)
    .set({ usedAt: null })
    .where(and(eq(otps.id, id), isNotNull(otps.usedAt)))
    .run();
}
