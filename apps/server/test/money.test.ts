/** Money endpoints over HTTP: every success path and refusal message, scoping, and the ledger after each move. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, amountToMicros, microsToAmount } from '@md/shared';
import { DEPOSIT_MESSAGES } from '../src/modules/deposits/deposits.ts';
import { PACKAGE_MESSAGES } from '../src/modules/packages/packages.ts';
import { P2P_MESSAGES } from '../src/modules/transfers/p2p.ts';
import { SECURITY_MESSAGES } from '../src/modules/security/security.ts';
import { SWAP_MESSAGES } from '../src/modules/wallets/wallets.ts';
import { WITHDRAWAL_MESSAGES } from '../src/modules/withdrawals/withdrawals.ts';
import { DEMO_TRANSACTION_PASSWORD, DEMO_WALLET_ADDRESS } from '../src/seed/demo-money.ts';
import { createTestApp, expectLedgerSound, MINUTE, moneySnapshot, type TestApp } from './helpers.ts';
import { balanceOf, grant } from './money-fixtures.ts';

let t: TestApp;
let demo: string;
/** A direct of demo without a subscription, transaction password or address. */
let fresh: { username: string; token: string };
beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
  const row = t.services.sqlite
    .prepare(
      'select username from members m where sponsor_id = 1 and totp_enabled = 0 and not exists (select 1 from subscriptions s where s.member_id = m.id) order by id limit 1',
    )
    .get() as { username: string } | undefined;
  const username =
    row?.username ??
    (
      t.services.sqlite
        .prepare(
          'select username from members where sponsor_id = 1 and totp_enabled = 0 order by id desc limit 1',
        )
        .get() as { username: string }
    ).username;
  fresh = { username, token: await t.login(username) };
});
afterAll(() => t.close());

type Body = { Success?: unknown; Error?: string };
const refused = async (url: string, body: unknown, token: string, status = 400) => {
  const before = moneySnapshot(t);
  const reply = await t.post<Body>(url, body, { token });
  expect(moneySnapshot(t), `${url} moved nothing`).toBe(before);
  expect(reply.status).toBe(status);
  return reply.body.Error;
};

describe('wallets', () => {
  it('answers all 8 wallets with Available, Total, This_Month, Last_Month and User', async () => {
    const reply = await t.post<{
      Success: Record<string, { Available: number; Total: number; User: string }>;
    }>('/wallet/view_all_wallets_details', {}, { token: demo });
    expect(Object.keys(reply.body.Success)).toEqual([
      'Deposit',
      'Direct',
      'Binary',
      'Level',
      'P2P',
      'Withdrawal',
      'ROI',
      'Rank',
    ]);
    expect(reply.body.Success.Deposit).toMatchObject({ Available: 5450, Total: 8550, User: 'demo' });
    expect(reply.body.Success.Withdrawal).toMatchObject({ Available: 150, Total: 300 });
  });

  it('lists swap sources and destinations by the rules', async () => {
    expect((await t.post('/wallet/view_from_wallets', {}, { token: demo })).body).toEqual({
      Success: {
        Deposit: false,
        Direct: true,
        Binary: true,
        Level: true,
        P2P: true,
        Withdrawal: false,
        ROI: true,
        Rank: true,
      },
    });
    expect((await t.post('/wallet/view_to_wallets', {}, { token: demo })).body).toEqual({
      Success: {
        Deposit: true,
        Direct: false,
        Binary: false,
        Level: false,
        P2P: false,
        Withdrawal: true,
        ROI: false,
        Rank: false,
      },
    });
  });
});

describe('deposits', () => {
  it('validates the amount with the spec messages', async () => {
    const pay = (amount_usdt: unknown) =>
      refused('/deposit/make_payment', { amount_usdt, currency: 'USDT.BEP20' }, demo);
    expect(await pay(5)).toBe(MSG.depositMin);
    expect(await pay(0)).toBe(MSG.validAmount);
    expect(await pay('50')).toBe(MSG.validAmount);
    expect(await refused('/deposit/make_payment', { amount_usdt: 50, currency: 'EUR' }, demo)).toMatch(
      /currency/,
    );
  });

  it('opens a window with a unique checksummed address and QR, credited once in full', async () => {
    const open = async () =>
      (
        await t.post<{ Success: { Amount: number; QR_Code: string; Address: string; TransID: string } }>(
          '/deposit/make_payment',
          { amount_usdt: 25.5, currency: 'USDT.BEP20' },
          { token: fresh.token },
        )
      ).body.Success;
    const a = await open();
    const b = await open();
    expect(a.Amount).toBe(25.5);
    expect(a.QR_Code).toMatch(/^data:image\/png;base64,/);
    expect(a.Address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(a.Address).not.toBe(a.Address.toLowerCase());
    expect(a.Address).not.toBe(b.Address);
    const before = balanceOf(t, fresh.username, 'Deposit');

    const partial = await t.post(`/__qa/deposits/${a.TransID}/pay`, { amount: 10 });
    expect(partial.body).toMatchObject({
      status: 'PARTIAL',
      credited: false,
      message: DEPOSIT_MESSAGES.partial,
    });
    expect(balanceOf(t, fresh.username, 'Deposit')).toBe(before);

    const full = await t.post(`/__qa/deposits/${a.TransID}/pay`, {});
    expect(full.body).toMatchObject({ status: 'PAID', credited: true });
    const again = await t.post(`/__qa/deposits/${a.TransID}/pay`, {});
    expect(again).toMatchObject({ status: 200, body: { status: 'PAID', credited: false } });
    expect(balanceOf(t, fresh.username, 'Deposit')).toBe(before + 25.5);

    // Numeric ids work too; an expired window refuses payment.
    const id = (
      t.services.sqlite.prepare('select id from deposits where trans_id = ?').get(b.TransID) as { id: number }
    ).id;
    expect((await t.post(`/__qa/deposits/${id}/expire`, {})).body).toMatchObject({ status: 'EXPIRED' });
    expect(await t.post(`/__qa/deposits/${b.TransID}/pay`, {})).toMatchObject({
      status: 409,
      body: { Error: DEPOSIT_MESSAGES.expired },
    });
    expect((await t.post('/__qa/deposits/DP99999999/pay', {})).status).toBe(404);
    await expectLedgerSound(t);
  });

  it('refuses payment after the 30-minute window and lists by status', async () => {
    const open = (
      await t.post<{ Success: { TransID: string } }>(
        '/deposit/make_payment',
        { amount_usdt: 10, currency: 'BNB.BSC' },
        { token: fresh.token },
      )
    ).body.Success;
    const pending = await t.get<{ TransID: string }[]>('/__qa/deposits?status=PENDING');
    expect(pending.body.map((d) => d.TransID)).toContain(open.TransID);
    t.clock.advance(30 * MINUTE);
    expect(await t.post(`/__qa/deposits/${open.TransID}/pay`, {})).toMatchObject({
      status: 409,
      body: { Error: DEPOSIT_MESSAGES.expired },
    });
    const expired = await t.get<{ TransID: string }[]>('/__qa/deposits?status=EXPIRED');
    expect(expired.body.map((d) => d.TransID)).toContain(open.TransID);
    expect((await t.get('/__qa/deposits?status=NOPE')).status).toBe(400);
    await expectLedgerSound(t);
  });
});

describe('packages', () => {
  it('lists the plan', async () => {
    const reply = await t.post<{ Success: { Name: string; Price: number; Max_Cap: number }[] }>(
      '/table/view_subscription',
      {},
      { token: demo },
    );
    expect(reply.body.Success.map((p) => p.Name)).toEqual([
      'Starter',
      'Basic',
      'Silver',
      'Gold',
      'Platinum',
      'Diamond',
    ]);
    expect(reply.body.Success[0]).toMatchObject({ Price: 100, Max_Cap: 300, ROI_Percentage: 1 });
  });

  it('refuses unknown plans and short balances, buys with the Deposit wallet', async () => {
    expect(await refused('/subscription/buy_subscription_packages', { plan: 'Mithril' }, demo)).toBe(
      PACKAGE_MESSAGES.unknown,
    );
    expect(await refused('/subscription/buy_subscription_packages', { plan: '' }, demo)).toBe(
      'Plan is required',
    );
    expect(await refused('/subscription/buy_subscription_packages', { plan: 'Diamond' }, fresh.token)).toBe(
      PACKAGE_MESSAGES.insufficient,
    );
    const before = balanceOf(t, 'demo', 'Deposit');
    expect(
      (await t.post('/subscription/buy_subscription_packages', { plan: 'starter' }, { token: demo })).body,
    ).toEqual({ Success: 'Package Starter purchased successfully' });
    expect(balanceOf(t, 'demo', 'Deposit')).toBe(before - 100);
    const profile = await t.post<{ Success: { package: string; Subscription: boolean }[] }>(
      '/user/view_profile',
      {},
      { token: demo },
    );
    expect(profile.body.Success[0]).toMatchObject({ package: 'Starter', Subscription: true });
    const analytics = await t.post<{ Success: Record<string, number> }>(
      '/user_analytics/view_user_analytics',
      {},
      { token: demo },
    );
    // Platinum, Silver and the new Starter: 3 × 3,100; the cap left is that less what the engine has paid on them.
    const earned =
      (
        t.services.sqlite
          .prepare(
            "select sum(total_earnings) as n from subscriptions where member_id = 1 and status = 'ACTIVE'",
          )
          .get() as { n: number }
      ).n / 1_000_000;
    expect(earned).toBeGreaterThan(0);
    expect(analytics.body.Success).toMatchObject({
      Active_Subscriptions: 3,
      Max_Earnings: 9300,
      Remaining_Earnings: 9300 - earned,
    });
    await expectLedgerSound(t);
  });
});

describe('swaps', () => {
  it('applies the rules of DESIGN §6 with clear messages', async () => {
    grant(t, 'demo', 'ROI', 12.345678);
    // The engine's ROI plus the grant: six decimals, so MAX below moves a balance that is not a multiple of the step.
    const roi = amountToMicros(balanceOf(t, 'demo', 'ROI'));
    const swap = (from_wallet: string, to_wallet: string, amount: unknown) =>
      refused('/wallet/transfer_wallet', { from_wallet, to_wallet, amount }, demo);
    expect(await swap('Deposit', 'Withdrawal', 1)).toBe(SWAP_MESSAGES.notSource('Deposit'));
    expect(await swap('Withdrawal', 'Deposit', 1)).toBe(SWAP_MESSAGES.notSource('Withdrawal'));
    expect(await swap('ROI', 'ROI', 1)).toBe(SWAP_MESSAGES.sameWallet);
    expect(await swap('ROI', 'P2P', 1)).toBe(SWAP_MESSAGES.notRoute('ROI', ['Withdrawal', 'Deposit']));
    expect(await swap('P2P', 'Withdrawal', 1)).toBe(SWAP_MESSAGES.notRoute('P2P', ['Deposit']));
    expect(await swap('ROI', 'Withdrawal', microsToAmount(roi) + 1)).toBe(MSG.insufficientBalance);
    expect(await swap('ROI', 'Withdrawal', 1.005)).toBe(SWAP_MESSAGES.step);
    expect(await swap('Gold', 'Withdrawal', 1)).toBe('Unknown wallet');
    expect(
      (
        await t.post(
          '/wallet/transfer_wallet',
          { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 2.34 },
          { token: demo },
        )
      ).status,
    ).toBe(200);
    // MAX: the whole balance, whatever its decimals.
    const rest = microsToAmount(roi - 2_340_000);
    expect(
      (
        await t.post(
          '/wallet/transfer_wallet',
          { from_wallet: 'ROI', to_wallet: 'Withdrawal', amount: rest },
          { token: demo },
        )
      ).body,
    ).toEqual({
      Success: SWAP_MESSAGES.done(rest, 'ROI', 'Withdrawal'),
    });
    expect(balanceOf(t, 'demo', 'ROI')).toBe(0);
    await expectLedgerSound(t);
  });
});

describe('P2P', () => {
  it('checks the recipient is in the sponsor downline', async () => {
    expect(
      (await t.post('/level/downline_exist', { username: fresh.username.toUpperCase() }, { token: demo }))
        .body,
    ).toEqual({ Success: true });
    expect((await t.post('/level/downline_exist', { username: 'demo' }, { token: demo })).body).toEqual({
      Success: false,
    });
    expect(
      (await t.post('/level/downline_exist', { username: 'demo' }, { token: fresh.token })).body,
    ).toEqual({ Success: false });
    expect(
      (await t.post('/level/downline_exist', { username: 'nobody_here' }, { token: demo })).body,
    ).toEqual({ Success: false });
  });

  it('moves Deposit → recipient P2P with the transaction password, fee 0', async () => {
    const send = (body: Record<string, unknown>, token = demo) =>
      refused(
        '/transfer_to_user',
        { username: fresh.username, amount: 5, password: DEMO_TRANSACTION_PASSWORD, ...body },
        token,
      );
    expect(await send({ username: 'demo' })).toBe(MSG.recipientNotFoundOrInvalid);
    expect(await send({ username: 'nobody_here' })).toBe(MSG.recipientNotFoundOrInvalid);
    expect(await send({ username: 'demo' }, fresh.token)).toBe(MSG.recipientNotFoundOrInvalid);
    expect(await send({ password: 'Wrong@99' })).toBe(SECURITY_MESSAGES.invalidTransactionPassword);
    expect(await send({ password: '' })).toBe(MSG.enterTransactionPassword);
    expect(await send({ amount: 1_000_000 })).toBe(MSG.insufficientBalance);
    const child = t.services.sqlite
      .prepare(
        'select c.username from members c join members p on p.id = c.sponsor_id where p.totp_enabled = 0 and p.transaction_password_hash is null order by c.id limit 1',
      )
      .get() as { username: string } | undefined;
    expect(child).toBeDefined();
    if (child) {
      const parentToken = await t.login(
        (
          t.services.sqlite
            .prepare(
              'select p.username from members c join members p on p.id = c.sponsor_id where c.username = ?',
            )
            .get(child.username) as { username: string }
        ).username,
      );
      expect(
        await refused(
          '/transfer_to_user',
          { username: child.username, amount: 1, password: 'Any@123' },
          parentToken,
        ),
      ).toBe(P2P_MESSAGES.setPassword);
    }
    const before = {
      sender: balanceOf(t, 'demo', 'Deposit'),
      recipient: balanceOf(t, fresh.username, 'P2P'),
    };
    expect(
      (
        await t.post(
          '/transfer_to_user',
          { username: fresh.username, amount: 7.25, password: DEMO_TRANSACTION_PASSWORD },
          { token: demo },
        )
      ).body,
    ).toEqual({ Success: MSG.transferSuccessful });
    expect(balanceOf(t, 'demo', 'Deposit')).toBe(before.sender - 7.25);
    expect(balanceOf(t, fresh.username, 'P2P')).toBe(before.recipient + 7.25);
    await expectLedgerSound(t);
  });
});

describe('transaction password', () => {
  it('is set at once the first time, then reset through an emailed OTP', async () => {
    const { token, username } = fresh;
    expect(await refused('/user/reset_transaction_password', { password: '' }, token)).toBe(
      MSG.enterTransactionPassword,
    );
    expect(await refused('/user/reset_transaction_password', { password: 'abcdef' }, token)).toBe(
      MSG.transactionPasswordCriteria,
    );
    expect(
      (await t.post('/user/reset_transaction_password', { password: 'Pay@123' }, { token })).body,
    ).toEqual({ Success: SECURITY_MESSAGES.transactionPasswordSet, OTP_Sent: false });
    const profile = await t.post<{ Success: { Transaction_Password: boolean }[] }>(
      '/user/view_profile',
      {},
      { token },
    );
    expect(profile.body.Success[0]!.Transaction_Password).toBe(true);

    expect(
      (await t.post('/user/reset_transaction_password', { password: 'Pay@456' }, { token })).body,
    ).toEqual({ Success: MSG.otpSent, OTP_Sent: true });
    const otp = await t.latestOtp(username);
    expect(
      (await t.post('/user/verify_transaction_password', { password: 'Pay@456', otp: '12' }, { token })).body,
    ).toMatchObject({ Error: MSG.enterOtp6 });
    expect(
      (await t.post('/user/verify_transaction_password', { password: 'Pay@789', otp }, { token })).body,
    ).toMatchObject({ Error: SECURITY_MESSAGES.passwordDiffers });
    expect(
      (
        await t.post(
          '/user/verify_transaction_password',
          { password: 'Pay@456', otp: otp === '000000' ? '000001' : '000000' },
          { token },
        )
      ).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
    expect(
      (await t.post('/user/verify_transaction_password', { password: 'Pay@456', otp }, { token })).body,
    ).toEqual({ Success: SECURITY_MESSAGES.transactionPasswordChanged });
    expect(
      (await t.post('/user/verify_transaction_password', { password: 'Pay@456', otp }, { token })).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
  });
});

describe('wallet address', () => {
  const lower = DEMO_WALLET_ADDRESS.toLowerCase();
  it('checks format and EIP-55 checksum, then saves with the OTP', async () => {
    const { token, username } = fresh;
    const broken = DEMO_WALLET_ADDRESS.slice(0, -1) + (DEMO_WALLET_ADDRESS.endsWith('8') ? '9' : '8');
    const badCase = DEMO_WALLET_ADDRESS.replace('eaA5', 'eAa5');
    for (const address of ['0x123', 'nope', `${lower}00`, badCase, ' ' + lower])
      expect(
        await refused('/wallet/update_wallet_address', { address, network: 'BEP.20' }, token),
        address,
      ).toBe(MSG.invalidWalletAddress);
    expect(await refused('/wallet/update_wallet_address', { address: '', network: 'BEP.20' }, token)).toBe(
      MSG.enterWalletAddress,
    );
    expect(await refused('/wallet/update_wallet_address', { address: lower, network: 'ERC20' }, token)).toBe(
      'Only BEP.20 addresses are accepted',
    );
    expect(broken).toMatch(/^0x/);
    expect(
      (await t.post('/wallet/update_wallet_address', { address: lower, network: 'BEP.20' }, { token })).body,
    ).toEqual({ Success: MSG.otpSent });
    const otp = await t.latestOtp(username);
    // Bound to the address it was sent for.
    expect(
      (
        await t.post(
          '/wallet/wallet_address_verification',
          { address: '0x' + '1'.repeat(40), network: 'BEP.20', otp },
          { token },
        )
      ).body,
    ).toMatchObject({ Error: 'Invalid OTP' });
    expect(
      (
        await t.post(
          '/wallet/update_wallet_address',
          { address: lower.toUpperCase().replace('0X', '0x'), network: 'BEP.20' },
          { token },
        )
      ).status,
    ).toBe(200);
    const otp2 = await t.latestOtp(username);
    expect(
      (
        await t.post(
          '/wallet/wallet_address_verification',
          { address: DEMO_WALLET_ADDRESS, network: 'BEP.20', otp: otp2 },
          { token },
        )
      ).body,
    ).toEqual({ Success: SECURITY_MESSAGES.walletSaved });
    const profile = await t.post<{ Success: { Wallet_Details: { Wallet_Address: string } }[] }>(
      '/user/view_profile',
      {},
      { token },
    );
    expect(profile.body.Success[0]!.Wallet_Details.Wallet_Address).toBe(DEMO_WALLET_ADDRESS);
  });

  it('has a stand-in for the third-party address check', async () => {
    expect(await t.get(`/__mock/bscscan/wallet-stats/${lower}`)).toMatchObject({
      status: 200,
      body: { status: '1' },
    });
    expect((await t.get('/__mock/bscscan/wallet-stats/0x12')).status).toBe(400);
  });
});

describe('withdrawals', () => {
  it('answers the fee percentage', async () => {
    expect((await t.post('/withdraw/withdraw_fees', { amount: 100 }, { token: demo })).body).toEqual({
      Success: 5,
    });
    expect(await refused('/withdraw/withdraw_fees', { amount: -1 }, demo)).toBe(MSG.validAmount);
  });

  it('refuses with the spec messages, reserves at once, approves and rejects once', async () => {
    const request = (body: Record<string, unknown>, token = demo) =>
      refused(
        '/withdraw/withdraw_request',
        { amount: 20, password: DEMO_TRANSACTION_PASSWORD, ...body },
        token,
      );
    expect(await request({ amount: 19.99 })).toBe(MSG.withdrawalMin);
    expect(await request({ password: 'Wrong@1' })).toBe(SECURITY_MESSAGES.invalidTransactionPassword);
    expect(await request({ amount: 100_000 })).toBe(MSG.insufficientBalance);
    const noPassword = t.services.sqlite
      .prepare(
        'select username from members where transaction_password_hash is null and totp_enabled = 0 and id > 2 limit 1',
      )
      .get() as { username: string };
    expect(await request({}, await t.login(noPassword.username))).toBe(MSG.setTransactionPassword);
    // A member with a transaction password but no saved address.
    const noAddress = t.services.sqlite
      .prepare(
        'select username from members where transaction_password_hash is null and totp_enabled = 0 and id > 2 order by id desc limit 1',
      )
      .get() as { username: string };
    t.services.sqlite
      .prepare(
        'update members set transaction_password_hash = (select transaction_password_hash from members where username = ?) where username = ?',
      )
      .run('demo', noAddress.username);
    expect(await request({}, await t.login(noAddress.username))).toBe(WITHDRAWAL_MESSAGES.noAddress);

    grant(t, 'demo', 'Direct', 200);
    await t.post(
      '/wallet/transfer_wallet',
      { from_wallet: 'Direct', to_wallet: 'Withdrawal', amount: 200 },
      { token: demo },
    );
    const before = balanceOf(t, 'demo', 'Withdrawal');
    expect(
      (
        await t.post(
          '/withdraw/withdraw_request',
          { amount: 40, password: DEMO_TRANSACTION_PASSWORD },
          { token: demo },
        )
      ).body,
    ).toEqual({ Success: WITHDRAWAL_MESSAGES.submitted });
    expect(
      (
        await t.post(
          '/withdraw/withdraw_request',
          { amount: 60, password: DEMO_TRANSACTION_PASSWORD },
          { token: demo },
        )
      ).status,
    ).toBe(200);
    expect(balanceOf(t, 'demo', 'Withdrawal')).toBe(before - 100);
    const pending = (
      await t.get<{ id: number; TransID: string; amount: number; fee: number; netAmount: number }[]>(
        '/__qa/withdrawals?status=PENDING',
      )
    ).body;
    const [sixty, forty] = pending;
    expect(forty).toMatchObject({ amount: 40, fee: 2, netAmount: 38 });
    expect((await t.post(`/__qa/withdrawals/${forty!.TransID}/approve`, {})).body).toMatchObject({
      status: 'APPROVED',
    });
    expect(await t.post(`/__qa/withdrawals/${forty!.id}/reject`, {})).toMatchObject({
      status: 409,
      body: { Error: WITHDRAWAL_MESSAGES.alreadyDecided('APPROVED') },
    });
    expect((await t.post(`/__qa/withdrawals/${sixty!.id}/reject`, {})).body).toMatchObject({
      status: 'REJECTED',
    });
    expect(await t.post(`/__qa/withdrawals/${sixty!.id}/approve`, {})).toMatchObject({
      status: 409,
      body: { Error: WITHDRAWAL_MESSAGES.alreadyDecided('REJECTED') },
    });
    expect((await t.post('/__qa/withdrawals/WD99999999/approve', {})).status).toBe(404);
    expect(balanceOf(t, 'demo', 'Withdrawal')).toBe(before - 40);
    await expectLedgerSound(t);
  });
});

describe('demo auto-pay', () => {
  it('pays a deposit after DEMO_AUTOPAY_SECONDS, even when only a read notices', async () => {
    const a = await createTestApp({ seed: 'demo', config: { demoAutopaySeconds: 5 } });
    const token = await a.login('demo');
    const open = (
      await a.post<{ Success: { TransID: string } }>(
        '/deposit/make_payment',
        { amount_usdt: 40, currency: 'USDT.BEP20' },
        { token },
      )
    ).body.Success;
    const wallets = async () =>
      (
        await a.post<{ Success: { Deposit: { Available: number } } }>(
          '/wallet/view_all_wallets_details',
          {},
          { token },
        )
      ).body.Success.Deposit.Available;
    const before = await wallets();
    a.clock.advance(6000);
    expect(await wallets()).toBe(before + 40);
    expect(
      (await a.get<{ TransID: string; status: string }[]>('/__qa/deposits')).body.find(
        (d) => d.TransID === open.TransID,
      )?.status,
    ).toBe('PAID');
    await expectLedgerSound(a);
    await a.close();
  });
});
