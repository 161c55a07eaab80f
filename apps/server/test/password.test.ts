import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@md/shared';
import { AFTER_ANSWER_DELAY_MS } from '../src/core/after-answer.ts';
import { handlers } from '../src/modules/index.ts';
import { invoke } from '../src/transport/invoke.ts';
import { MINUTE, createTestApp, solveCaptcha, wrongCode, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  // Small captcha work so the solver in the test is quick; the rules are the same.
  t = await createTestApp({ seed: 'demo', config: { captchaMaxNumber: 2000 } });
});
afterAll(() => t.close());

const SECOND = 1000;

describe('password reset', () => {
  it('mails a reset OTP, sets the new password, and revokes older tokens', async () => {
    const oldToken = await t.login('claude_003');
    expect((await t.post('/user/reset_password_email', { username: 'Claude_003' })).body).toEqual({
      Success: 'A password reset OTP has been sent to your email',
    });
    const otp = await t.latestOtp('claude_003');
    const reply = await t.post('/user/reset_password', {
      username: 'claude_003',
      otp,
      newpassword: 'Fresh@1234',
      conpassword: 'Fresh@1234',
    });
    expect(reply).toEqual({ status: 200, body: { Success: 'Password reset successfully' } });
    expect(await t.post('/user/view_profile', {}, { token: oldToken })).toMatchObject({
      status: 401,
      body: { Error: 'Session Expired' },
    });
    await t.login('claude_003', 'Fresh@1234');
    expect(
      (await t.post('/user/login', { username: 'claude_003', password: 'Demo@1234' }, { ip: '10.2.2.2' }))
        .body,
    ).toMatchObject({ Error: 'Invalid username or password' });
  });

  it('answers an unknown name as a known one and mails nothing (no enumeration; more in security-auth.test.ts)', async () => {
    expect(await t.post('/user/reset_password_email', { username: 'ghost_member' })).toEqual({
      status: 200,
      body: { Success: 'A password reset OTP has been sent to your email' },
    });
    expect(await t.mailbox('ghost_member')).toEqual([]);
  });

  it('throttles each step to one use per 10 seconds per username, and lifts after 10 s', async () => {
    expect((await t.post('/user/reset_password_email', { username: 'reed_002' })).status).toBe(200);
    const again = await t.post('/user/reset_password_email', { username: 'reed_002' });
    expect(again).toMatchObject({ status: 429, body: { Error: MSG.resetThrottle } });
    // Another member is not affected.
    expect((await t.post('/user/reset_password_email', { username: 'van_005' })).status).toBe(200);
    t.clock.advance(9 * SECOND);
    expect((await t.post('/user/reset_password_email', { username: 'reed_002' })).status).toBe(429);
    t.clock.advance(10 * SECOND);
    expect((await t.post('/user/reset_password_email', { username: 'reed_002' })).status).toBe(200);

    const otp = await t.latestOtp('reed_002');
    const attempt = (code: string) =>
      t.post('/user/reset_password', {
        username: 'reed_002',
        otp: code,
        newpassword: 'Fresh@1234',
        conpassword: 'Fresh@1234',
      });
    expect((await attempt(wrongCode(otp))).body).toMatchObject({ Error: 'Invalid OTP' });
    expect(await attempt(otp)).toMatchObject({ status: 429, body: { Error: MSG.resetThrottle } });
    t.clock.advance(10 * SECOND);
    expect((await attempt(otp)).status).toBe(200);
  });

  it('validates the new password with the spec messages', async () => {
    const base = { username: 'jeff_006', otp: '123456' };
    expect(
      (
        await t.post('/user/reset_password', {
          ...base,
          newpassword: 'alllower1!',
          conpassword: 'alllower1!',
        })
      ).body,
    ).toMatchObject({ Error: MSG.resetPasswordCriteria });
    expect(
      (
        await t.post('/user/reset_password', {
          ...base,
          newpassword: 'Fresh@1234',
          conpassword: 'Fresh@12345',
        })
      ).body,
    ).toMatchObject({ Error: MSG.passwordsDoNotMatch });
    expect(
      (
        await t.post('/user/reset_password', {
          ...base,
          otp: '12',
          newpassword: 'Fresh@1234',
          conpassword: 'Fresh@1234',
        })
      ).body,
    ).toMatchObject({ Error: MSG.enterOtp6 });
  });
});

describe('change password', () => {
  const body = { oldpassword: 'Demo@1234', newpassword: 'Changed@123', conpassword: 'Changed@123' };

  it('checks the fields in the spec order with its messages', async () => {
    const token = await t.login('gonzalo_001');
    const call = (b: Record<string, unknown>) =>
      t.post('/user/change_password', { otp: '123456', ...b }, { token });
    expect((await call({ ...body, oldpassword: '' })).body).toMatchObject({
      Error: MSG.fillAllPasswordFields,
    });
    expect((await call({ ...body, newpassword: 'Demo@1234', conpassword: 'Demo@1234' })).body).toMatchObject({
      Error: MSG.oldNewSame,
    });
    expect((await call({ ...body, conpassword: 'Other@123' })).body).toMatchObject({
      Error: MSG.newConfirmMismatch,
    });
    expect((await call({ ...body, newpassword: 'Ab@1', conpassword: 'Ab@1' })).body).toMatchObject({
      Error: MSG.newPasswordMin6,
    });
    expect(
      (await call({ ...body, newpassword: 'nouppercase1!', conpassword: 'nouppercase1!' })).body,
    ).toMatchObject({ Error: MSG.newPasswordCriteria });
    expect((await call({ ...body, oldpassword: 'Wrong@1234' })).body).toMatchObject({
      Error: 'Old password is incorrect',
    });
    expect((await call({ ...body, otp: '' })).body).toMatchObject({ Error: MSG.enterOtp });
    expect((await call(body)).body).toMatchObject({ Error: 'Invalid OTP' });
  });

  it('changes the password with the mailed OTP; the old token is then Session Expired', async () => {
    const token = await t.login('gonzalo_001');
    expect((await t.post('/user/verify_otp', { page: 'Change Password' }, { token })).body).toEqual({
      Success: MSG.otpSent,
    });
    const otp = await t.latestOtp('gonzalo_001@example.com');
    expect((await t.post('/user/verify_otp', { page: 'Change Password', otp }, { token })).body).toEqual({
      Success: 'OTP verified successfully',
    });
    expect(await t.post('/user/change_password', { ...body, otp }, { token })).toEqual({
      status: 200,
      body: { Success: 'Password changed successfully' },
    });
    expect(await t.post('/user/view_profile', {}, { token })).toMatchObject({
      status: 401,
      body: { Error: 'Session Expired' },
    });
    await t.login('gonzalo_001', 'Changed@123');
  });

  it('the Change Password OTP page needs a session', async () => {
    expect(await t.post('/user/verify_otp', { page: 'Change Password' })).toMatchObject({
      status: 401,
      body: { Error: 'Invalid Authentication' },
    });
    expect((await t.post('/user/verify_otp', { page: 'Nope' })).body).toMatchObject({
      Error: 'Unknown OTP page',
    });
  });

  it('an OTP for change_password expires after 10 minutes', async () => {
    const token = await t.login('jeff_006');
    await t.post('/user/verify_otp', { page: 'Change Password' }, { token });
    const otp = await t.latestOtp('jeff_006');
    t.clock.advance(10 * MINUTE + 1);
    expect((await t.post('/user/change_password', { ...body, otp }, { token })).body).toMatchObject({
      Error: 'OTP has expired',
    });
  });
});

describe('forgot username', () => {
  it('needs a solved captcha', async () => {
    expect(await t.post('/user/forgot_username', { email: 'demo@example.com' })).toMatchObject({
      status: 400,
      body: { Error: 'Please complete the captcha' },
    });
    expect(
      (await t.post('/user/forgot_username', { email: 'demo@example.com', captcha: 'bm90LWEtcGF5bG9hZA==' }))
        .body,
    ).toMatchObject({ Error: 'Please complete the captcha' });
  });

  it('mails the username, answers the same for unknown emails, and refuses a replayed captcha', async () => {
    const captcha = await solveCaptcha(t.get);
    const reply = await t.post('/user/forgot_username', { email: ' Demo@Example.com ', captcha });
    expect(reply).toEqual({
      status: 200,
      body: { Success: 'If an account exists for this email, its username has been sent.' },
    });
    const mail = (await t.mailbox('demo@example.com'))[0]!;
    expect(mail.subject).toBe('Your username');
    expect(mail.text).toContain('demo');
    expect(
      (await t.post('/user/forgot_username', { email: 'demo@example.com', captcha })).body,
    ).toMatchObject({
      Error: 'Please complete the captcha',
    });

    const before = t.count('mail_outbox');
    const unknown = await t.post('/user/forgot_username', {
      email: 'nobody@nowhere.test',
      captcha: await solveCaptcha(t.get),
    });
    expect(unknown.body).toEqual(reply.body);
    expect(t.count('mail_outbox')).toBe(before);
  });

  it('validates the email', async () => {
    expect((await t.post('/user/forgot_username', { email: '   ' })).body).toMatchObject({
      Error: MSG.emailRequired,
    });
  });
});

describe('a known and an unknown name cost the request the same work', () => {
  // Called through invoke, so the test sees the answer at once: what the request itself wrote is
  // all that is there; the work after the answer follows AFTER_ANSWER_DELAY_MS later.
  const caller = { ip: '10.9.9.9' };
  const writes = () => ({ otps: t.count('otps'), mails: t.count('mail_outbox') });
  const afterAnswer = () => new Promise((done) => setTimeout(done, AFTER_ANSWER_DELAY_MS + 5));

  it('reset_password_email looks the name up, issues the code and mails it after answering', async () => {
    t.clock.advance(11 * SECOND);
    for (const [username, known] of [
      ['van_005', 1],
      ['no_such_member', 0],
    ] as const) {
      const before = writes();
      expect(await invoke(t.services, handlers, 'user.reset_password_email', { username }, caller)).toEqual({
        Success: 'A password reset OTP has been sent to your email',
      });
      expect(writes(), `${username} when answered`).toEqual(before);
      await afterAnswer();
      expect(writes(), `${username} afterwards`).toEqual({
        otps: before.otps + known,
        mails: before.mails + known,
      });
    }
    expect((await t.mailbox('van_005'))[0]!.sentAt).toBe(new Date(t.clock.now()).toISOString());
  });

  it('forgot_username looks the email up and mails after answering', async () => {
    for (const [email, known] of [
      ['demo@example.com', 1],
      ['nobody@nowhere.test', 0],
    ] as const) {
      const captcha = await solveCaptcha(t.get);
      await afterAnswer();
      const before = writes();
      expect(await invoke(t.services, handlers, 'user.forgot_username', { email, captcha }, caller)).toEqual({
        Success: 'If an account exists for this email, its username has been sent.',
      });
      expect(writes(), `${email} when answered`).toEqual(before);
      await afterAnswer();
      expect(writes(), `${email} afterwards`).toEqual({ ...before, mails: before.mails + known });
    }
  });
});
