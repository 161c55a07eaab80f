/**
 * The member's own reports, extensions of this stand-in (not provider endpoints): why each payout
 * (capability `payout_details`) and monthly wallet statements (capability `statements`). The
 * withdrawal timeline lives with the withdrawals.
 */
import type { Handlers } from '../../transport/handlers.ts';
import { payoutDetails } from './payout-details.ts';
import { walletStatement } from './statements.ts';

export const reportHandlers: Handlers = {
  'earning.view_payout_details': (ctx, input) => ({
    Success: payoutDetails(ctx, ctx.member.id, input.trans_id),
  }),
  'wallet.view_statement': (ctx, input) => ({ Success: walletStatement(ctx, input.wallet, input.month) }),
};
