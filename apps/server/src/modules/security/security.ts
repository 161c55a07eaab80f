/**
 * The transaction password (first set at once, reset through an emailed OTP) and the BEP.20
 * withdrawal address (checked, confirmed by an emailed OTP). The stand-in for the third-party
 * address check the web app calls is in wallet-check-standin.ts.
 */
import { and, desc, eq, isNull } from 'drizzle-orm';
import { getAddress } from 'viem';
import type { output, ZodType } from 'zod';
import { members, otps } from '@md/db';
import {
  BEP20_ADDRESS,
  firstIssueMessage,
  MSG,
  otpSchema,
  shortenAddress,
  transactionPasswordField,
} from '@md/shared';
import { badRequest } from '../../core/errors.ts';
import { consumeOtp, mailOtp } from '../../core/otp.ts';
import { hashLane, hashPassword, verifyPassword } from '../../core/passwords.ts';
import { reserveGuessInTurn } from '../../core/attempts.ts';
import { mailSecurityNotice } from '../../core/security-notice.ts';
import type { Ctx, Member, Services } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { notify } from '../notifications/notify.ts';

export const SECURITY_MESSAGES = {
  transactionPasswordSet: 'Transaction password set successfully',
  transactionPasswordChanged: 'Transaction password changed successfully',
  passwordDiffers: 'The password differs from the one the OTP was sent for',
  invalidTransactionPassword: 'Invalid transaction password',
  walletSaved: 'Wallet address saved successfully',
} as const;

const TRANSACTION_PASSWORD_OTP = 'transaction_password';
const WALLET_ADDRESS_OTP = 'wallet_address';

function parseOrThrow<T extends ZodType>(schema: T, value: unknown): output<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/**
 * A BEP.20 (EVM) address in its EIP-55 checksummed form, or null. All-lowercase and
 * all-uppercase hex carry no checksum and are accepted; mixed case must match EIP-55.
 */
export function checksummedBep20(address: string): string | null {
  if (!BEP20_ADDRESS.test(address)) return null;
  const hex = address.slice(2);
  const checksummed = getAddress(`0x${hex.toLowerCase()}`);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return checksummed;
  return checksummed === address ? checksummed : null;
}

const walletAddressOrThrow = (address: string) => {
  const checksummed = checksummedBep20(address);
  if (!checksummed) throw badRequest(MSG.invalidWalletAddress);
  return checksummed;
};

/**
 * Checks the member's transaction password (scrypt, so call it BEFORE the money transaction).
 * `missingMessage` is the refusal when none is set yet. Wrong ones are limited per account and
 * per client (a stolen session must not guess it): the guess is reserved before the hash and
 * given back when right, so concurrent guesses never pass the limits (core/attempts.ts).
 */
export async function requireTransactionPassword(
  ctx: Ctx,
  member: Member,
  password: string,
  missingMessage: string,
): Promise<void> {
  const stored = member.transactionPasswordHash;
  if (!stored) throw badRequest(missingMessage);
  const guess = await reserveGuessInTurn(ctx, 'transactionPassword', {
    account: member.username,
    caller: ctx.caller,
  });
  try {
    const right = await verifyPassword(password, stored, hashLane(ctx));
    // Read again after the hash: a password reset confirmed meanwhile makes the old one wrong.
    const current = ctx.db
      .select({ hash: members.transactionPasswordHash })
      .from(members)
      .where(eq(members.id, member.id))
      .get();
    if (!right || current?.hash !== stored) {
      guess.fail();
      throw badRequest(SECURITY_MESSAGES.invalidTransactionPassword, 'INVALID_CREDENTIALS');
    }
  } finally {
    guess.release();
  }
}

/** The latest unused OTP of a purpose for a member: its payload carries the pending value. */
const pendingOtp = (ctx: Pick<Services, 'db'>, purpose: string, username: string) =>
  ctx.db
    .select()
    .from(otps)
    .where(and(eq(otps.purpose, purpose), eq(otps.subject, username), isNull(otps.usedAt)))
    .orderBy(desc(otps.id))
    .limit(1)
    .get();

export const securityHandlers: Handlers = {
  'user.reset_transaction_password': async (ctx, input) => {
    const password = parseOrThrow(transactionPasswordField, input.password);
    const hash = await hashPassword(password, hashLane(ctx));
    const member = ctx.member;
    if (!member.transactionPasswordHash) {
      // First time: set at once. The `is null` guard keeps a concurrent first set from overwriting.
      const set = ctx.db
        .update(members)
        .set({ transactionPasswordHash: hash })
        .where(and(eq(members.id, member.id), isNull(members.transactionPasswordHash)))
        .run();
      if (set.changes === 1) {
        notify(ctx, member.id, 'Security_Alert', 'Your transaction password was set.');
        return { Success: SECURITY_MESSAGES.transactionPasswordSet, OTP_Sent: false };
      }
    }
    // A reset: the pending hash travels in the OTP's payload until the code confirms it.
    await mailOtp(ctx, {
      purpose: TRANSACTION_PASSWORD_OTP,
      subject: member.username,
      email: member.email,
      username: member.username,
      payload: hash,
      label: 'transaction password reset',
    });
    return { Success: MSG.otpSent, OTP_Sent: true };
  },

  'user.verify_transaction_password': async (ctx, input) => {
    const password = parseOrThrow(transactionPasswordField, input.password);
    const otp = parseOrThrow(otpSchema, input.otp.trim());
    const member = ctx.member;
    const pending = pendingOtp(ctx, TRANSACTION_PASSWORD_OTP, member.username);
    if (pending?.payload && !(await verifyPassword(password, pending.payload, hashLane(ctx))))
      throw badRequest(SECURITY_MESSAGES.passwordDiffers);
    // Bound to that very row's payload: a newer reset in between makes this code fail.
    consumeOtp(ctx, {
      purpose: TRANSACTION_PASSWORD_OTP,
      subject: member.username,
      code: otp,
      payload: pending?.payload ?? null,
    });
    if (!pending?.payload) throw badRequest('Invalid OTP');
    ctx.db.transaction(() => {
      ctx.db
        .update(members)
        .set({ transactionPasswordHash: pending.payload })
        .where(eq(members.id, member.id))
        .run();
      notify(ctx, member.id, 'Security_Alert', 'Your transaction password was changed.');
      mailSecurityNotice(ctx, member, {
        subject: 'your transaction password was changed',
        change: 'The transaction password of your account was changed',
      });
    });
    return { Success: SECURITY_MESSAGES.transactionPasswordChanged };
  },

  'wallet.update_wallet_address': async (ctx, input) => {
    const address = walletAddressOrThrow(input.address);
    const member = ctx.member;
    // The mail names the address (first 6 and last 4 characters): a member who did not ask sees which one.
    await mailOtp(ctx, {
      purpose: WALLET_ADDRESS_OTP,
      subject: member.username,
      email: member.email,
      username: member.username,
      payload: address,
      label: 'wallet address confirmation',
      about: `It confirms ${shortenAddress(address)} as your BEP.20 withdrawal address.`,
    });
    return { Success: MSG.otpSent };
  },

  'wallet.wallet_address_verification': (ctx, input) => {
    const address = walletAddressOrThrow(input.address);
    const member = ctx.member;
    consumeOtp(ctx, {
      purpose: WALLET_ADDRESS_OTP,
      subject: member.username,
      code: input.otp,
      payload: address,
    });
    ctx.db.transaction(() => {
      saveWalletAddress(ctx, member.id, address);
      notify(ctx, member.id, 'Security_Alert', `Your BEP.20 withdrawal address was changed to ${address}.`);
      mailSecurityNotice(ctx, member, {
        subject: 'your withdrawal address was changed',
        change: `The BEP.20 withdrawal address of your account was changed to ${shortenAddress(address)}`,
      });
    });
    return { Success: SECURITY_MESSAGES.walletSaved };
  },
};

/** Sets a transaction password from an already computed hash (the seed; the handlers hash first). */
export function setTransactionPasswordHash(ctx: Pick<Services, 'db'>, memberId: number, hash: string): void {
  ctx.db.update(members).set({ transactionPasswordHash: hash }).where(eq(members.id, memberId)).run();
}

/** Saves a withdrawal address (checked and checksummed). */
export function saveWalletAddress(ctx: Pick<Services, 'db'>, memberId: number, address: string): string {
  const checksummed = walletAddressOrThrow(address);
  ctx.db.update(members).set({ walletAddress: checksummed }).where(eq(members.id, memberId)).run();
  return checksummed;
}
