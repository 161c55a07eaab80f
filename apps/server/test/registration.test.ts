import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@md/shared';
import { MINUTE, createTestApp, wrongCode, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
});
afterAll(() => t.close());

const form = (username: string, overrides: Record<string, unknown> = {}) => ({
  username,
  name: `Name ${username}`,
  sponsor: 'demo',
  email: `${username}@mail.test`,
  password: 'Strong@123',
  conpassword: 'Strong@123',
  side: '0',
  country: 'United Kingdom',
  project: 'Pro',
  ...overrides,
});

async function sendOtp(username: string, email = `${username}@mail.test`) {
  const reply = await t.post('/user/verify_otp', {
    username,
    email,
    page: 'Email Verification',
    project: 'Pro',
  });
  expect(reply).toEqual({ status: 200, body: { Success: MSG.otpSent } });
  return t.latestOtp(email);
}

type Row = {
  id: number;
  username: string;
  parent: string | null;
  side: string | null;
  sponsor: string | null;
};
const memberRow = (username: string) =>
  t.services.sqlite
    .prepare(
      `select m.id, m.username, p.username as parent, m.side, s.username as sponsor
       from members m left join members p on p.id = m.parent_id left join members s on s.id = m.sponsor_id where m.username = ?`,
    )
    .get(username) as Row | undefined;

/** The outer end of `side`'s leg below `username`, walked in JS as an independent check. */
function outerEnd(username: string, side: '0' | '1'): string {
  let current = memberRow(username)!;
  for (;;) {
    const child = t.services.sqlite
      .prepare('select username from members where parent_id = ? and side = ?')
      .get(current.id, side) as { username: string } | undefined;
    if (!child) return current.username;
    current = memberRow(child.username)!;
  }
}

describe('registration', () => {
  it('mails an OTP, registers, places at the outer end of the left leg and notifies the sponsor', async () => {
    const expectedParent = outerEnd('demo', '0');
    const otp = await sendOtp('newleft');
    expect(
      (
        await t.post('/user/verify_otp', {
          username: 'newleft',
          email: 'newleft@mail.test',
          page: 'Email Verification',
          otp,
        })
      ).body,
    ).toEqual({
      Success: 'OTP verified successfully',
    });
    const reply = await t.post<{ Success: string; JWT: string }>('/user/register', form('NewLeft', { otp }));
    expect(reply.status).toBe(200);
    expect(reply.body.Success).toBe('Registration successful');
    expect(memberRow('newleft')).toMatchObject({ parent: expectedParent, side: '0', sponsor: 'demo' });
    // The token works at once.
    const profile = await t.post<{ Success: [{ Username: string; Sponsor: string }] }>(
      '/user/view_profile',
      {},
      { token: reply.body.JWT },
    );
    expect(profile.body.Success[0]).toMatchObject({ Username: 'newleft', Sponsor: 'demo' });
    const demoToken = await t.login('demo');
    const notes = await t.post<{ Success: { Type: string; Message: string }[] }>(
      '/notification/view_notification',
      {},
      { token: demoToken },
    );
    expect(notes.body.Success[0]).toMatchObject({ Type: 'New_Registration' });
    expect(notes.body.Success[0]!.Message).toContain('newleft');
  });

  it('places on the right leg too, and under a deep sponsor at the end of its own leg', async () => {
    const expectedRight = outerEnd('demo', '1');
    const otp = await sendOtp('newright');
    expect((await t.post('/user/register', form('newright', { otp, side: '1' }))).status).toBe(200);
    expect(memberRow('newright')).toMatchObject({ parent: expectedRight, side: '1' });

    // A sponsor with no child on that side gets the new member directly below.
    const otp2 = await sendOtp('underright');
    expect(
      (await t.post('/user/register', form('underright', { otp: otp2, side: '0', sponsor: 'newright' })))
        .status,
    ).toBe(200);
    expect(memberRow('underright')).toMatchObject({ parent: 'newright', side: '0', sponsor: 'newright' });
    const otp3 = await sendOtp('underright2');
    expect(
      (await t.post('/user/register', form('underright2', { otp: otp3, side: '0', sponsor: 'newright' })))
        .status,
    ).toBe(200);
    expect(memberRow('underright2')).toMatchObject({ parent: 'underright', side: '0' });
  });

  it('refuses an unknown sponsor, a taken name, a wrong OTP and bad fields with the spec messages', async () => {
    const otp = await sendOtp('checker');
    expect((await t.post('/user/register', form('checker', { otp, sponsor: 'ghost' }))).body).toMatchObject({
      Error: MSG.invalidSponsorLong,
    });
    expect((await t.post('/user/register', form('demo', { otp }))).body).toMatchObject({
      Error: 'Username already exists',
    });
    expect((await t.post('/user/register', form('checker', { otp: wrongCode(otp) }))).body).toMatchObject({
      Error: 'Invalid OTP',
    });
    expect((await t.post('/user/register', form('12345', { otp }))).body).toMatchObject({
      Error: MSG.usernameOnlyNumbers,
    });
    expect((await t.post('/user/register', form('checker', { otp, sponsor: '' }))).body).toMatchObject({
      Error: MSG.sponsorRequired,
    });
    expect(
      (await t.post('/user/register', form('checker', { otp, conpassword: 'Other@123' }))).body,
    ).toMatchObject({ Error: MSG.passwordsDoNotMatch });
    expect(
      (await t.post('/user/register', form('checker', { otp, password: 'weak', conpassword: 'weak' }))).body,
    ).toMatchObject({ Error: MSG.registrationPasswordCriteria });
    expect(
      (await t.post('/user/register', form('checker', { otp, email: 'not-an-email' }))).body,
    ).toMatchObject({
      Error: MSG.emailInvalid,
    });
    expect((await t.post('/user/register', form('checker', { otp: '' }))).body).toMatchObject({
      Error: MSG.otpRequired,
    });
    expect((await t.post('/user/register', form('checker', { otp, side: '2' }))).status).toBe(400);
    expect(memberRow('checker')).toBeUndefined();
    // The OTP is bound to the username it was sent for.
    expect(
      (await t.post('/user/register', form('otherchecker', { otp, email: 'checker@mail.test' }))).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
  });

  it('refuses to mail a registration OTP for a taken username', async () => {
    const reply = await t.post('/user/verify_otp', {
      username: 'demo',
      email: 'x@mail.test',
      page: 'Email Verification',
    });
    expect(reply).toMatchObject({ status: 400, body: { Error: 'Username already exists' } });
  });
});

describe('OTP rules', () => {
  it('expires after 10 minutes', async () => {
    const otp = await sendOtp('expiring');
    t.clock.advance(10 * MINUTE);
    expect((await t.post('/user/register', form('expiring', { otp }))).body).toMatchObject({
      Error: 'OTP has expired',
    });
  });

  it('is single use', async () => {
    const otp = await sendOtp('onceonly');
    expect((await t.post('/user/register', form('onceonly', { otp }))).status).toBe(200);
    // Same code for another name at the same address: already used.
    expect((await t.post('/user/register', form('onceonly', { otp }))).body).toMatchObject({
      Error: 'Username already exists',
    });
    expect(
      (await t.post('/user/register', form('onceonly2', { otp, email: 'onceonly@mail.test' }))).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
  });

  it('is bound to its purpose', async () => {
    const token = await t.login('demo');
    expect((await t.post('/user/verify_otp', { page: 'Change Password' }, { token })).body).toEqual({
      Success: MSG.otpSent,
    });
    const otp = await t.latestOtp('demo@example.com');
    // A change-password code is no registration code, even at the same address.
    expect(
      (await t.post('/user/register', form('purposecheck', { otp, email: 'demo@example.com' }))).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
  });

  it('dies after 5 wrong tries', async () => {
    const otp = await sendOtp('fivetries');
    const verify = (code: string) =>
      t.post(
        '/user/verify_otp',
        { username: 'fivetries', email: 'fivetries@mail.test', page: 'Email Verification', otp: code },
        { ip: '10.5.5.5' },
      );
    for (let i = 1; i <= 4; i++)
      expect((await verify(wrongCode(otp))).body).toMatchObject({ Error: 'Invalid OTP' });
    expect((await verify(wrongCode(otp))).body).toMatchObject({
      Error: 'Too many wrong attempts. Request a new OTP.',
    });
    expect((await verify(otp)).body).toMatchObject({ Error: 'Too many wrong attempts. Request a new OTP.' });
    expect((await t.post('/user/register', form('fivetries', { otp }))).body).toMatchObject({
      Error: 'Too many wrong attempts. Request a new OTP.',
    });
    // A new code works and retires the old one.
    const fresh = await sendOtp('fivetries');
    expect((await t.post('/user/register', form('fivetries', { otp: fresh }))).status).toBe(200);
  });

  it('a new code retires the older one', async () => {
    const first = await sendOtp('twocodes');
    const second = await sendOtp('twocodes');
    if (first !== second)
      expect((await t.post('/user/register', form('twocodes', { otp: first }))).body).toMatchObject({
        Error: 'Invalid OTP',
      });
    expect((await t.post('/user/register', form('twocodes', { otp: second }))).status).toBe(200);
  });

  it('the OTP is stored hashed, never in clear', async () => {
    const otp = await sendOtp('hashcheck');
    const rows = t.services.sqlite.prepare('select code_hash from otps').all() as { code_hash: string }[];
    expect(rows.every((r) => r.code_hash !== otp && r.code_hash.length === 64)).toBe(true);
  });
});
