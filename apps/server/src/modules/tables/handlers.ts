/** The 7 paged list endpoints and their 7 total endpoints (spec §7), all scoped to the caller. */
import type { AuthedCtx } from '../../core/services.ts';
import type { Handlers } from '../../transport/handlers.ts';
import { pageCountOf, pageOf, type TableQuery, type TableSource, type TableSourceBase } from './engine.ts';
import {
  binaryVolumeSource,
  depositSource,
  earningSource,
  levelEarningSource,
  rankRewardSource,
  rankVolumeSource,
  subscriptionSource,
} from './sources.ts';

const pages = (source: TableSourceBase) => (ctx: AuthedCtx, input: TableQuery) => {
  const { pages, rows } = pageCountOf(ctx, source, input);
  return { Success: pages, Rows: rows };
};
const page =
  <Row>(source: TableSource<Row>) =>
  (ctx: AuthedCtx, input: TableQuery) =>
    pageOf(ctx, source, input);

export const tableHandlers: Handlers = {
  'table.view_deposit_transaction': page(depositSource),
  'table.total_pagination_deposit_transaction': pages(depositSource),
  'subscription.subscription_transaction': page(subscriptionSource),
  'subscription.total_pagination_subscription_transaction': pages(subscriptionSource),
  'earning.view_all_earning_history': page(earningSource),
  'earning.total_pagination_earning_history': pages(earningSource),
  'level.level_earning_transaction': page(levelEarningSource),
  'level.total_pagination_level_earning': pages(levelEarningSource),
  'rank.view_rank_qualification': page(rankVolumeSource),
  'rank.total_pagination_rank_qualification': pages(rankVolumeSource),
  'binary.view_binary_transaction': page(binaryVolumeSource),
  'binary.total_pagination_binary_transaction': pages(binaryVolumeSource),
  'rank.view_rank_transaction': page(rankRewardSource),
  'rank.total_pagination_rank_transaction': pages(rankRewardSource),
};
