/**
 * Identity: sign-in, registration, password reset and change, username recovery, TOTP.
 * Every password, TOTP and code guess is reserved against its limits before it is checked and
 * given back when right (core/attempts.ts); hashes go through the bounded queue with the caller's
 * address (core/passwords.ts); a TOTP step is claimed by one conditional write.
 */
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { members } from '@md/db';
import {
  emailField,
  meetsChangePassword,
  MSG,
  registrationUsername,
  type ErrorCode,
  RESET_THROTTLE_MS,
  stripSpaces,
} from '@md/shared';
import { AppError, badRequest, unauthorized } from '../../core/errors.ts';
import { afterAnswer } from '../../core/after-answer.ts';
import { rememberAddress, reserveGuess, reserveGuessInTurn, type Guess } from '../../core/attempts.ts';
import {
  checkOtp,
  consumeOtp,
  giveBackOtp,
  issueOtp,
  MAIL_NOT_SENT,
  mailOtp,
  OTP_MESSAGES,
} from '../../core/otp.ts';
import { hashLane, hashPassword, verifyAgainstDummy, verifyPassword } from '../../core/passwords.ts';
import { mailSecurityNotice } from '../../core/security-notice.ts';
import type { Ctx, Services } from '../../core/services.ts';
import { throttleOnce } from '../../core/throttle.ts';
import { revokeOtherSessions } from '../../core/tokens.ts';
import { matchTotp, newTotpSecret, totpUri } from '../../core/totp.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { newTransId, notify } from '../notifications/notify.ts';
import { endOtherSessions } from '../sessions/handlers.ts';
import { verifyCaptcha } from './captcha.ts';
import { COUNTRIES } from './countries.ts';
import { findMemberByUsername, insertMember } from './members.ts';

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid username or password',
  invalidTotp: 'Invalid TOTP',
  usernameAvailable: 'Username is available',
  usernameTaken: 'Username already exists',
  otpVerified: 'OTP verified successfully',
  resetEmailSent: 'A password reset OTP has been sent to your email',
  passwordReset: 'Password reset successfully',
  captchaRequired: 'Please complete the captcha',
  usernameSent: 'If an account exists for this email, its username has been sent.',
  oldPasswordIncorrect: 'Old password is incorrect',
  passwordChanged: 'Password changed successfully',
  totpAlreadyEnabled: '2FA is already enabled',
  totpNotEnabled: '2FA is not enabled',
  totpNotStarted: 'Start 2FA set-up first to get a key',
} as const;

const isUniqueViolation = (error: unknown) =>
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE';

function requireMember(ctx: Ctx) {
  if (!ctx.member) throw unauthorized(MSG.invalidAuthentication);
  return ctx.member;
}

/** A wrong guess: it stays counted against the limits. */
const wrongGuess = (guess: Guess, message: string, code: ErrorCode) => {
  guess.fail();
  return badRequest(message, code);
};

const findMemberById = (ctx: Pick<Services, 'db'>, id: number) =>
  ctx.db.select().from(members).where(eq(members.id, id)).get();

/**
 * Accepts a TOTP step for a member: one conditional write, true only when it moved the member's
 * last step forward, so of concurrent uses of one code exactly one wins (and never an older one).
 */
const claimTotpStep = (ctx: Pick<Services, 'db'>, memberId: number, step: number) =>
  ctx.db
    .update(members)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(members.id, memberId),
        eq(members.totpEnabled, true),
        or(isNull(members.totpLastStep), lt(members.totpLastStep, step)),
      ),
    )
    .run().changes === 1;

/** The new password's hash after its emailed code was used up; when the busy hashing queue refuses it, the code is given back for the retry. */
async function hashAfterCode(ctx: Ctx, codeId: number, password: string): Promise<string> {
  try {
    return await hashPassword(password, hashLane(ctx));
  } catch (error) {
    giveBackOtp(ctx, codeId);
    throw error;
  }
}

export const authHandlers: Handlers = {
  'user.login': async (ctx, input) => {
    // Reserved before the hash (a refused attempt costs none), given back when right.
    const guess = await reserveGuessInTurn(ctx, 'login', { account: input.username, caller: ctx.caller });
    try {
      const found = findMemberByUsername(ctx, input.username);
      const passwordOk = found
        ? await verifyPassword(input.password, found.passwordHash, hashLane(ctx))
        : await verifyAgainstDummy(input.password, hashLane(ctx));
      // The row read before the hash is stale now: the password or the TOTP state may have changed.
      const member = found && findMemberById(ctx, found.id);
      if (!member || !passwordOk || member.passwordHash !== found.passwordHash)
        throw wrongGuess(guess, AUTH_MESSAGES.invalidCredentials, 'INVALID_CREDENTIALS');
      if (member.totpEnabled && member.totpSecret) {
        if (!input.totp) throw wrongGuess(guess, MSG.totpRequired, 'TOTP_REQUIRED');
        const step = matchTotp(ctx, member.totpSecret, input.totp, member.totpLastStep);
        if (step === null || !claimTotpStep(ctx, member.id, step))
          throw wrongGuess(guess, AUTH_MESSAGES.invalidTotp, 'INVALID_CODE');
      }
      rememberAddress(ctx, member.username, ctx.caller);
      return { Success: MSG.loginSuccessful, JWT: ctx.tokens.sign(member, ctx.caller) };
    } finally {
      guess.release();
    }
  },

  'user.view_country': (ctx, input) => {
    if (input.username === undefined || input.username.trim() === '') return { Success: [...COUNTRIES] };
    // Only whether TOTP is on: an unknown name answers false like a member without TOTP.
    const member = findMemberByUsername(ctx, input.username.trim());
    return { Success: Boolean(member?.totpEnabled) };
  },

  'user.check_username_available': (ctx, input) =>
    findMemberByUsername(ctx, input.username)
      ? { Status: false, Success: AUTH_MESSAGES.usernameTaken }
      : { Status: true, Success: AUTH_MESSAGES.usernameAvailable },

  'user.verify_otp': async (ctx, input) => {
    if (input.page === 'Change Password') {
      const member = requireMember(ctx);
      if (input.otp === undefined || input.otp === '') {
        await mailOtp(ctx, {
          purpose: 'change_password',
          subject: member.username,
          email: member.email,
          username: member.username,
        });
        return { Success: MSG.otpSent };
      }
      checkOtp(ctx, { purpose: 'change_password', subject: member.username, code: input.otp });
      return { Success: AUTH_MESSAGES.otpVerified };
    }
    // 'Email Verification': the registration OTP, bound to the email and the username.
    const username = registrationUsername.safeParse(input.username);
    if (!username.success) throw badRequest(username.error.issues[0]?.message ?? MSG.usernameRequired);
    const email = emailField.safeParse(input.email);
    if (!email.success) throw badRequest(email.error.issues[0]?.message ?? MSG.emailRequired);
    const address = email.data.toLowerCase();
    if (input.otp === undefined || input.otp === '') {
      if (findMemberByUsername(ctx, username.data)) throw badRequest(AUTH_MESSAGES.usernameTaken);
      await mailOtp(ctx, {
        purpose: 'registration',
        subject: address,
        email: address,
        username: username.data,
        payload: username.data,
      });
      return { Success: MSG.otpSent };
    }
    checkOtp(ctx, { purpose: 'registration', subject: address, code: input.otp, payload: username.data });
    return { Success: AUTH_MESSAGES.otpVerified };
  },

  'user.register': async (ctx, input) => {
    const sponsor = findMemberByUsername(ctx, input.sponsor);
    if (!sponsor) throw badRequest(MSG.invalidSponsorLong);
    if (findMemberByUsername(ctx, input.username)) throw badRequest(AUTH_MESSAGES.usernameTaken);
    const email = input.email.toLowerCase();
    const code = consumeOtp(ctx, {
      purpose: 'registration',
      subject: email,
      code: input.otp,
      payload: input.username,
    });
    const passwordHash = await hashAfterCode(ctx, code, input.password);
    let member;
    try {
      member = ctx.db.transaction(() => {
        const created = insertMember(ctx, {
          username: input.username,
          name: input.name,
          email,
          country: input.country,
          passwordHash,
          sponsorId: sponsor.id,
          side: input.side,
          createdAt: ctx.clock.now(),
        });
        const transId = newTransId('REG');
        notify(
          ctx,
          sponsor.id,
          'New_Registration',
          `${created.name} (${created.username}) joined your team on the ${created.side === '0' ? 'left' : 'right'} leg.`,
          transId,
        );
        notify(ctx, created.id, 'Welcome', `Welcome, ${created.name}! Your account is ready.`, transId);
        return created;
      });
    } catch (error) {
      // Someone took the name between the check and the insert.
      if (isUniqueViolation(error)) throw badRequest(AUTH_MESSAGES.usernameTaken);
      throw error;
    }
    return { Success: MSG.registrationSuccessful, JWT: ctx.tokens.sign(member, ctx.caller) };
  },

  'user.reset_password_email': (ctx, input) => {
    // The answer cannot wait for the mail (timing, below): while mail is known to be failing it says
    // so to every name alike; otherwise a failure after the answer shows in the outbox and the log.
    if (ctx.mailer.unavailable()) throw new AppError(503, MAIL_NOT_SENT);
    throttleOnce(ctx, `reset_password_email|${input.username}`, RESET_THROTTLE_MS, MSG.resetThrottle);
    // The same answer, in the same time, for an unknown name: the name is looked up and the code
    // issued and mailed after the answer has left, so the request does the same work either way.
    const at = ctx.clock.now();
    afterAnswer(ctx, () => {
      const member = findMemberByUsername(ctx, input.username);
      if (member)
        issueOtp(ctx, {
          purpose: 'reset_password',
          subject: member.username,
          email: member.email,
          username: member.username,
          at,
        });
    });
    return { Success: AUTH_MESSAGES.resetEmailSent };
  },

  'user.reset_password': async (ctx, input) => {
    throttleOnce(ctx, `reset_password|${input.username}`, RESET_THROTTLE_MS, MSG.resetThrottle);
    const member = findMemberByUsername(ctx, input.username);
    // An unknown name fails like a known one without a pending code ('Invalid OTP', counted as a wrong code).
    const code = consumeOtp(ctx, {
      purpose: 'reset_password',
      subject: member?.username ?? input.username,
      code: input.otp,
    });
    if (!member) throw badRequest(OTP_MESSAGES.invalid, 'INVALID_CODE');
    const passwordHash = await hashAfterCode(ctx, code, input.newpassword);
    ctx.db.transaction(() => {
      ctx.db.update(members).set({ passwordHash }).where(eq(members.id, member.id)).run();
      // Reset without a session: every session of the account ends (whoever took it over included).
      revokeOtherSessions(ctx.db, ctx.clock, member.id, null);
      notify(
        ctx,
        member.id,
        'Security_Alert',
        'Your password was reset. If this was not you, contact support.',
      );
      mailSecurityNotice(ctx, member, {
        subject: 'your password was reset',
        change: 'The password of your account was reset with a code mailed to this address',
      });
    });
    // The code proved the mailbox from this address: the per-account sign-in ceiling lets it in.
    rememberAddress(ctx, member.username, ctx.caller);
    return { Success: AUTH_MESSAGES.passwordReset };
  },

  'user.forgot_username': async (ctx, input) => {
    if (!(await verifyCaptcha(ctx.config, input.captcha))) throw badRequest(AUTH_MESSAGES.captchaRequired);
    if (ctx.mailer.unavailable()) throw new AppError(503, MAIL_NOT_SENT);
    const email = emailField.safeParse(input.email);
    if (!email.success) throw badRequest(email.error.issues[0]?.message ?? MSG.emailInvalid);
    // The same answer either way, in the same time: the lookup and the mail happen after the
    // answer has left, so the endpoint does not reveal which emails are registered.
    const address = email.data;
    const at = ctx.clock.now();
    afterAnswer(ctx, () => {
      const found = ctx.db
        .select({ username: members.username })
        .from(members)
        .where(eq(members.email, address.toLowerCase()))
        .all();
      if (found.length === 0) return;
      const names = found.map((m) => m.username);
      ctx.mailer.send({
        to: address,
        toUsername: names.length === 1 ? names[0] : null,
        subject: 'Your username',
        text: `The username${names.length > 1 ? 's' : ''} registered with this email: ${names.join(', ')}.`,
        sentAt: at,
      });
    });
    return { Success: AUTH_MESSAGES.usernameSent };
  },

  'user.change_password': async (ctx, input) => {
    const oldPassword = stripSpaces(input.oldpassword);
    const newPassword = stripSpaces(input.newpassword);
    const confirm = stripSpaces(input.conpassword);
    if (!oldPassword || !newPassword || !confirm) throw badRequest(MSG.fillAllPasswordFields);
    if (oldPassword === newPassword) throw badRequest(MSG.oldNewSame);
    if (newPassword !== confirm) throw badRequest(MSG.newConfirmMismatch);
    if (newPassword.length < 6) throw badRequest(MSG.newPasswordMin6);
    if (!meetsChangePassword(newPassword)) throw badRequest(MSG.newPasswordCriteria);
    // The account password guessed with a session: counted with the sign-in failures of the account.
    const guess = await reserveGuessInTurn(ctx, 'login', {
      account: ctx.member.username,
      caller: ctx.caller,
    });
    try {
      if (!(await verifyPassword(oldPassword, ctx.member.passwordHash, hashLane(ctx))))
        throw wrongGuess(guess, AUTH_MESSAGES.oldPasswordIncorrect, 'INVALID_CREDENTIALS');
    } finally {
      guess.release();
    }
    const code = consumeOtp(ctx, {
      purpose: 'change_password',
      subject: ctx.member.username,
      code: input.otp,
    });
    const passwordHash = await hashAfterCode(ctx, code, newPassword);
    const member = ctx.member;
    ctx.db.transaction(() => {
      ctx.db.update(members).set({ passwordHash }).where(eq(members.id, member.id)).run();
      // Every session ends, this one too (DESIGN: tokens issued before a password change are refused;
      // the client signs in again with the new password).
      revokeOtherSessions(ctx.db, ctx.clock, member.id, null);
      notify(
        ctx,
        member.id,
        'Security_Alert',
        'Your password was changed. If this was not you, reset it at once.',
      );
      mailSecurityNotice(ctx, member, {
        subject: 'your password was changed',
        change: 'The password of your account was changed',
      });
    });
    return { Success: AUTH_MESSAGES.passwordChanged };
  },

  'user.enable_totp': (ctx) => {
    if (ctx.member.totpEnabled) throw badRequest(AUTH_MESSAGES.totpAlreadyEnabled);
    const secret = newTotpSecret();
    ctx.db.update(members).set({ totpPendingSecret: secret }).where(eq(members.id, ctx.member.id)).run();
    return { Success: { Key: secret, URI: totpUri(secret, ctx.member.username) } };
  },

  'user.change_totp_status': (ctx, input) => {
    const member = ctx.member;
    // A 6-digit code guessed with a session: limited like the emailed codes, per account and client.
    const guess = reserveGuess(ctx, 'code', { account: member.username, caller: ctx.caller });
    try {
      if (input.status) {
        if (member.totpEnabled) throw badRequest(AUTH_MESSAGES.totpAlreadyEnabled);
        const pending = member.totpPendingSecret;
        if (!pending) throw badRequest(AUTH_MESSAGES.totpNotStarted);
        const step = matchTotp(ctx, pending, input.totp, null);
        if (step === null) throw wrongGuess(guess, MSG.invalidVerificationCode, 'INVALID_CODE');
        ctx.db.transaction(() => {
          // Conditional: only the set-up this code was made for, and only once.
          const turnedOn = ctx.db
            .update(members)
            .set({ totpSecret: pending, totpPendingSecret: null, totpEnabled: true, totpLastStep: step })
            .where(
              and(
                eq(members.id, member.id),
                eq(members.totpEnabled, false),
                eq(members.totpPendingSecret, pending),
              ),
            )
            .run();
          if (turnedOn.changes !== 1) throw wrongGuess(guess, MSG.invalidVerificationCode, 'INVALID_CODE');
          endOtherSessions(ctx);
          notify(ctx, member.id, 'Security_Alert', 'Two-factor authentication was turned on.');
          mailSecurityNotice(ctx, member, {
            subject: 'two-factor authentication was turned on',
            change: 'Two-factor authentication was turned on for your account',
          });
        });
        return { Success: MSG.twoFaEnabled };
      }
      if (!member.totpEnabled || !member.totpSecret) throw badRequest(AUTH_MESSAGES.totpNotEnabled);
      const step = matchTotp(ctx, member.totpSecret, input.totp, member.totpLastStep);
      if (step === null) throw wrongGuess(guess, MSG.invalidVerificationCode, 'INVALID_CODE');
      ctx.db.transaction(() => {
        // The code's step is claimed like at sign-in: a code used once (there or here) never works again.
        if (!claimTotpStep(ctx, member.id, step))
          throw wrongGuess(guess, MSG.invalidVerificationCode, 'INVALID_CODE');
        ctx.db
          .update(members)
          .set({ totpSecret: null, totpPendingSecret: null, totpEnabled: false, totpLastStep: null })
          .where(eq(members.id, member.id))
          .run();
        endOtherSessions(ctx);
        notify(ctx, member.id, 'Security_Alert', 'Two-factor authentication was turned off.');
        mailSecurityNotice(ctx, member, {
          subject: 'two-factor authentication was turned off',
          change: 'Two-factor authentication was turned off for your account',
        });
      });
      return { Success: MSG.twoFaDisabled };
    } finally {
      guess.release();
    }
  },
};
