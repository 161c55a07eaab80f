/**
 * Request examples for the OpenAPI document, from the `demo` scenario (seed/demo.ts,
 * seed/demo-money.ts): the member demo / Demo@1234 with transaction password Txn@123, its direct
 * gonzalo_001, demo2fa with TOTP on. A tool that replays them against a demo server gets answers,
 * not 400s (the OTPs and TOTP codes stand for the mailed or current ones).
 */
import { contract, type InputOf, type ProcedureName, type TableInput } from '@md/shared';

/** The address the demo member saved (seed/demo-money.ts's DEMO_WALLET_ADDRESS; docs-examples.test.ts holds them equal). */
export const DEMO_ADDRESS = '0x842dad94eaA5655D6452EEe18419FaA8a085dab8';
const OTP = '123456';
const NEW_MEMBER = { username: 'newmember01', email: 'newmember01@example.com' };

type Examples = { [K in ProcedureName]?: InputOf<K> };

const EXAMPLES: Examples = {
  'user.login': { username: 'demo', password: 'Demo@1234' },
  'user.view_country': { username: 'demo2fa' },
  'user.check_username_available': { username: NEW_MEMBER.username },
  'user.verify_otp': { page: 'Email Verification', ...NEW_MEMBER },
  'user.register': {
    ...NEW_MEMBER,
    name: 'New Member',
    sponsor: 'demo',
    password: 'Fresh@12345',
    conpassword: 'Fresh@12345',
    otp: OTP,
    side: '1',
    country: 'India',
  },
  'user.reset_password_email': { username: 'demo' },
  'user.reset_password': {
    username: 'demo',
    otp: OTP,
    newpassword: 'Fresh@12345',
    conpassword: 'Fresh@12345',
  },
  'user.forgot_username': { email: 'demo@example.com' },
  'user.view_profile': {},
  'user.enable_totp': {},
  'user.change_totp_status': { status: true, totp: OTP },
  'user.change_password': {
    oldpassword: 'Demo@1234',
    newpassword: 'Fresh@12345',
    conpassword: 'Fresh@12345',
    otp: OTP,
  },
  'user.change_email_request': { email: 'demo.new@example.com' },
  'user.change_email': { email: 'demo.new@example.com', otp: OTP },
  'user.reset_transaction_password': { password: 'Txn@456' },
  'user.verify_transaction_password': { password: 'Txn@456', otp: OTP },
  'user_analytics.view_user_analytics': {},
  'direct.view_direct_team_details': {},
  'notification.view_notification': { page_no: 1, page_size: 20 },
  'notification.total_view_notification': {},
  'wallet.view_all_wallets_details': {},
  'table.view_subscription': {},
  'subscription.buy_subscription_packages': { plan: 'Starter' },
  'level.downline_exist': { username: 'gonzalo_001' },
  transfer_to_user: { username: 'gonzalo_001', amount: 100, password: 'Txn@123' },
  'wallet.view_from_wallets': {},
  'wallet.view_to_wallets': {},
  'wallet.transfer_wallet': { amount: 50, from_wallet: 'Direct', to_wallet: 'Deposit' },
  'wallet.update_wallet_address': { address: DEMO_ADDRESS, network: 'BEP.20' },
  'wallet.wallet_address_verification': { address: DEMO_ADDRESS, network: 'BEP.20', otp: OTP },
  'withdraw.withdraw_fees': { amount: 100 },
  'withdraw.withdraw_request': { amount: 100, password: 'Txn@123' },
  'deposit.make_payment': { amount_usdt: 100, currency: 'USDT.BEP20' },
  'level.view_downline': { username: 'demo' },
  'level.view_downline_page': { username: 'demo', page: 1, per_page: 20 },
  'binary.view_binary_downline': { username: 'demo' },
  'binary.view_binary_downline_details': { username: 'gonzalo_001' },
  'rank.view_all_ranks': {},
  'rank.current_rank': {},
  'support.send_message': {
    name: 'Demo Member',
    email: 'demo@example.com',
    subject: 'Withdrawal status',
    message: 'My withdrawal of 50 USDT is still pending. Could you check it?',
  },
  'activity.view_recent': { limit: 20 },
  'earning.view_daily_earnings': { days: 30 },
  'binary.view_daily_volume': { days: 30 },
  'rank.view_rank_progress': {},
  'binary.view_leg_bottom': { side: '0' },
  'binary.view_path': { username: 'gonzalo_001' },
  // demo's first direct income (from its direct's package) and its approved withdrawal (its number
  // depends on when the scenario was seeded: GET /__qa/withdrawals lists it).
  'earning.view_payout_details': { trans_id: 'LIPK00000002L1' },
  'withdraw.view_withdrawal_timeline': { trans_id: 'WD00000189' },
  'wallet.view_statement': { wallet: 'ROI', month: '2026-10' },
  'team.view_team_summary': {},
  'binary.view_next_run': {},
  'rank.view_rank_history': {},
  'notification.view_preferences': {},
  'notification.update_preferences': { event: 'withdrawals', email: true },
  'user.logout': {},
  'user.view_sessions': {},
  'user.end_session': { session: 'kq3Vd0c8x1Zr5YwTn2LbMA' },
  'user.end_other_sessions': {},
};

const tableInput = contract['table.view_deposit_transaction'].input;
const isTotal = (name: ProcedureName) => contract[name].path.includes('/total_');

/**
 * The example body of a procedure: the paged tables (one shared input) ask for their first page
 * as the web app does (a total call sends no pageNo).
 */
export function requestExample(name: ProcedureName): unknown {
  if (contract[name].input === tableInput) {
    const page: TableInput = isTotal(name)
      ? { pageSize: 10, path: contract[name].path }
      : { pageNo: 1, pageSize: 10, path: contract[name].path };
    return page;
  }
  return EXAMPLES[name];
}
