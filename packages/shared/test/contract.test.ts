import { describe, expect, it } from 'vitest';
import { contract, endpointByPath, extensionNames, procedureNameOf, procedureNames } from '../src/index.ts';

/** Every provider endpoint of spec §7, the paged list and total endpoints and the deposit host included. */
const SPEC_PATHS = [
  '/binary/total_pagination_binary_transaction',
  '/binary/view_binary_downline',
  '/binary/view_binary_downline_details',
  '/binary/view_binary_transaction',
  '/deposit/make_payment',
  '/direct/view_direct_team_details',
  '/earning/total_pagination_earning_history',
  '/earning/view_all_earning_history',
  '/level/downline_exist',
  '/level/level_earning_transaction',
  '/level/total_pagination_level_earning',
  '/level/view_downline',
  '/notification/total_view_notification',
  '/notification/view_notification',
  '/rank/current_rank',
  '/rank/total_pagination_rank_qualification',
  '/rank/total_pagination_rank_transaction',
  '/rank/view_all_ranks',
  '/rank/view_rank_qualification',
  '/rank/view_rank_transaction',
  '/subscription/buy_subscription_packages',
  '/subscription/subscription_transaction',
  '/subscription/total_pagination_subscription_transaction',
  '/table/total_pagination_deposit_transaction',
  '/table/view_deposit_transaction',
  '/table/view_subscription',
  '/transfer_to_user',
  '/user/change_email',
  '/user/change_email_request',
  '/user/change_password',
  '/user/change_totp_status',
  '/user/check_username_available',
  '/user/enable_totp',
  '/user/forgot_username',
  '/user/login',
  '/user/register',
  '/user/reset_password',
  '/user/reset_password_email',
  '/user/reset_transaction_password',
  '/user/verify_otp',
  '/user/verify_transaction_password',
  '/user/view_country',
  '/user/view_profile',
  '/user_analytics/view_user_analytics',
  '/wallet/transfer_wallet',
  '/wallet/update_wallet_address',
  '/wallet/view_all_wallets_details',
  '/wallet/view_from_wallets',
  '/wallet/view_to_wallets',
  '/wallet/wallet_address_verification',
  '/withdraw/withdraw_fees',
  '/withdraw/withdraw_request',
];

describe('the contract', () => {
  it('has exactly one entry per provider endpoint of spec §7', () => {
    const provider = procedureNames.filter((name) => !extensionNames.includes(name));
    expect(provider.map((name) => contract[name].path).sort()).toEqual([...SPEC_PATHS].sort());
  });
  it('marks the extensions of this stand-in with the capability that advertises them', () => {
    expect(extensionNames.map((name) => [name, contract[name].extension])).toEqual([
      ['support.send_message', 'support'],
      ['activity.view_recent', 'activity'],
      ['level.view_downline_page', 'downline_pages'],
      ['binary.view_leg_bottom', 'binary_paths'],
      ['binary.view_path', 'binary_paths'],
      ['earning.view_daily_earnings', 'daily_series'],
      ['binary.view_daily_volume', 'daily_series'],
      ['rank.view_rank_progress', 'rank_progress'],
      ['earning.view_payout_details', 'payout_details'],
      ['withdraw.view_withdrawal_timeline', 'withdrawal_timeline'],
      ['wallet.view_statement', 'statements'],
      ['team.view_team_summary', 'team_summary'],
      ['binary.view_next_run', 'binary_next_run'],
      ['rank.view_rank_history', 'rank_history'],
      ['notification.view_preferences', 'notification_preferences'],
      ['notification.update_preferences', 'notification_preferences'],
      ['notification.view_push_key', 'web_push'],
      ['notification.subscribe_push', 'web_push'],
      ['notification.unsubscribe_push', 'web_push'],
      ['user.logout', 'sessions'],
      ['user.view_sessions', 'sessions'],
      ['user.end_session', 'sessions'],
      ['user.end_other_sessions', 'sessions'],
    ]);
    for (const name of extensionNames)
      expect(contract[name].summary).toMatch(/^Extension .*not a provider endpoint/);
  });
  it('names each procedure after its path', () => {
    for (const name of procedureNames) expect(procedureNameOf(contract[name].path)).toBe(name);
    expect(endpointByPath.get('/transfer_to_user')).toBe('transfer_to_user');
  });
  it('puts make_payment on the deposit host and everything else on the API host', () => {
    const deposit = procedureNames.filter((name) => contract[name].host === 'deposit');
    expect(deposit).toEqual(['deposit.make_payment']);
  });
  it('pairs the 7 paged list endpoints with their 7 total endpoints', () => {
    const totals = SPEC_PATHS.filter((p) => p.includes('total_pagination'));
    expect(totals).toHaveLength(7);
    for (const path of totals) {
      const name = endpointByPath.get(path)!;
      expect(contract[name].kind).toBe('query');
      expect(contract[name].output.safeParse({ Success: 3 }).success).toBe(true);
    }
  });
  it('reads the token from the body field the provider uses', () => {
    expect(contract['notification.total_view_notification'].tokenField).toBe('token');
    expect(contract['user.view_profile'].tokenField).toBe('jwt');
    expect(contract['user.login'].auth).toBe('none');
  });
  it('keeps the provider spellings', () => {
    const details = contract['binary.view_binary_downline_details'].output;
    const ranks = contract['rank.view_all_ranks'].output;
    expect(JSON.stringify(details.toJSONSchema?.() ?? {})).toContain('Direct_Bouns');
    expect(JSON.stringify(ranks.toJSONSchema?.() ?? {})).toContain('Left_Volune');
  });
  it('accepts both binary Downline shapes the spec names', () => {
    const output = contract['binary.view_binary_downline'].output;
    expect(
      output.safeParse({ Success: { Username: 'a', CountUser: 2, Downline: [{ Username: 'b', Side: '0' }] } })
        .success,
    ).toBe(true);
    expect(
      output.safeParse({ Success: { Username: 'a', CountUser: 2, Downline: { '0': 'b', '1': 'c' } } })
        .success,
    ).toBe(true);
  });
  it('refuses unsafe money on the wire', () => {
    const input = contract['transfer_to_user'].input;
    for (const amount of [-1, 0, Number.NaN, '10', 1e10, 1.0000001]) {
      expect(input.safeParse({ username: 'x', amount, password: 'p' }).success).toBe(false);
    }
    expect(input.safeParse({ username: 'X', amount: 10.5, password: 'p' }).success).toBe(true);
  });
});
