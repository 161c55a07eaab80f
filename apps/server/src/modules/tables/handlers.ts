/** The 7 paged list endpoints and their 7 total endpoints (spec §7), all scoped to the caller. */
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { pageCountOf, pageOf, type TableQuery, type TableSource } from './engine.ts';
import {
  binaryVolumeSource,
  depositSource,
  earningSource,
  levelEarningSource,
  rankRewardSource,
  rankVolumeSource,
  subscriptionSource,
} from './sources.ts';

const pages = (source: TableSource<unknown>) => (ctx: AuthedCtx, input: TableQuery) => ({
  Success: pageCountOf(ctx, source, input),
});

export const tableHandlers: Handlers = {
  'table.view_deposit_transaction': (ctx, input) => ({ Success: pageOf(ctx, depositSource, input) }),
  'table.total_pagination_deposit_transaction': pages(depositSource),
  'subscription.subscription_transaction': (ctx, input) => ({
    Success: pageOf(ctx, subscriptionSource, input),
  }),
  'subscription.total_pagination_subscription_transaction': pages(subscriptionSource),
  'earning.view_all_earning_history': (ctx, input) => ({ Success: pageOf(ctx, earningSource, input) }),
  'earning.total_pagination_earning_history': pages(earningSource),
  'level.level_earning_transaction': (ctx, input) => ({ Success: pageOf(ctx, levelEarningSource, input) }),
  'level.total_pagination_level_earning': pages(levelEarningSource),
  'rank.view_rank_qualification': (ctx, input) => ({ Success: pageOf(ctx, rankVolumeSource, input) }),
  'rank.total_pagination_rank_qualification': pages(rankVolumeSource),
  'binary.view_binary_transaction': (ctx, input) => ({ Success: pageOf(ctx, binaryVolumeSource, input) }),
  'binary.total_pagination_binary_transaction': pages(binaryVolumeSource),
  'rank.view_rank_transaction': (ctx, input) => ({ Success: pageOf(ctx, rankRewardSource, input) }),
  'rank.total_pagination_rank_transaction': pages(rankRewardSource),
};
