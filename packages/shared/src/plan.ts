/**
 * The plan: package tiers and the withdrawal fee (DESIGN §6). These are the defaults; the
 * server accepts an override file (env PLAN_FILE) validated with `planSchema`.
 */
import './zod-config.ts';
import { z } from 'zod';
import { EARNINGS_CAP_MULTIPLIER, TEXT_MAX } from './constants.ts';

const usdt = z.number().finite().positive().max(1_000_000_000);

export const planPackageSchema = z.object({
  // Within the contract's bound on `plan`, so every package can be bought by name.
  name: z.string().trim().min(1).max(TEXT_MAX.plan),
  /** Price in USDT. Max_Cap is always EARNINGS_CAP_MULTIPLIER × price. */
  price: usdt,
  /** Daily ROI percentage, between 1 and 2 (DESIGN §6); at most 2 decimals. */
  roiPercentage: z
    .number()
    .min(1)
    .max(2)
    .refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, {
      error: 'roiPercentage has at most 2 decimals',
    }),
  binaryVolume: usdt,
  rankVolume: usdt,
});
export type PlanPackage = z.infer<typeof planPackageSchema>;

const usdtOrZero = z.number().finite().min(0).max(1_000_000_000);

/** A rank (DESIGN §6): reached once both legs' lifetime Rank_Volume and the leaders count are met. */
export const planRankSchema = z.object({
  name: z.string().trim().min(1),
  /** Lifetime rank volume needed on the left leg (USDT). */
  leftVolume: usdtOrZero,
  /** Lifetime rank volume needed on the right leg (USDT). */
  rightVolume: usdtOrZero,
  /** Directs who themselves have at least one left-leg and one right-leg direct ("their own 1:1 directs"). */
  qualifiedLeaders: z.number().int().min(0),
  /** One-time reward into the Rank wallet (USDT); not counted against the 3x cap. */
  reward: usdtOrZero,
});
export type PlanRank = z.infer<typeof planRankSchema>;

export const DEFAULT_RANKS: PlanRank[] = [
  { name: 'Starter', leftVolume: 0, rightVolume: 0, qualifiedLeaders: 0, reward: 0 },
  { name: 'Bronze', leftVolume: 1_000, rightVolume: 1_000, qualifiedLeaders: 0, reward: 50 },
  { name: 'Silver', leftVolume: 5_000, rightVolume: 5_000, qualifiedLeaders: 1, reward: 200 },
  { name: 'Gold', leftVolume: 20_000, rightVolume: 20_000, qualifiedLeaders: 2, reward: 1_000 },
  { name: 'Platinum', leftVolume: 100_000, rightVolume: 100_000, qualifiedLeaders: 3, reward: 5_000 },
  { name: 'Diamond', leftVolume: 500_000, rightVolume: 500_000, qualifiedLeaders: 5, reward: 25_000 },
];

export const planSchema = z.object({
  packages: z
    .array(planPackageSchema)
    .min(1)
    .refine((list) => new Set(list.map((p) => p.name.toLowerCase())).size === list.length, {
      error: 'Package names must be unique',
    }),
  /** Withdrawal fee percentage (5 = 5 %), at most 2 decimals. */
  withdrawalFeePercent: z.number().min(0).max(100).default(5),
  /** Ordered ranks, the entry rank (all requirements 0, reward 0) first; each asks at least as much as the one before. */
  ranks: z
    .array(planRankSchema)
    .min(1)
    .default(DEFAULT_RANKS)
    .refine((list) => new Set(list.map((r) => r.name.toLowerCase())).size === list.length, {
      error: 'Rank names must be unique',
    })
    .refine(
      (list) =>
        list[0]!.leftVolume === 0 &&
        list[0]!.rightVolume === 0 &&
        list[0]!.qualifiedLeaders === 0 &&
        list[0]!.reward === 0,
      {
        error: 'The first rank is the entry rank: no requirements, no reward',
      },
    )
    .refine(
      (list) =>
        list.every(
          (r, i) =>
            i === 0 ||
            (r.leftVolume >= list[i - 1]!.leftVolume &&
              r.rightVolume >= list[i - 1]!.rightVolume &&
              r.qualifiedLeaders >= list[i - 1]!.qualifiedLeaders),
        ),
      { error: 'Ranks must be ordered by requirements' },
    ),
});
export type Plan = z.infer<typeof planSchema>;

export const DEFAULT_PLAN: Plan = {
  packages: [
    { name: 'Starter', price: 100, roiPercentage: 1, binaryVolume: 100, rankVolume: 100 },
    { name: 'Basic', price: 250, roiPercentage: 1.2, binaryVolume: 250, rankVolume: 250 },
    { name: 'Silver', price: 500, roiPercentage: 1.4, binaryVolume: 500, rankVolume: 500 },
    { name: 'Gold', price: 1000, roiPercentage: 1.5, binaryVolume: 1000, rankVolume: 1000 },
    { name: 'Platinum', price: 2500, roiPercentage: 1.75, binaryVolume: 2500, rankVolume: 2500 },
    { name: 'Diamond', price: 5000, roiPercentage: 2, binaryVolume: 5000, rankVolume: 5000 },
  ],
  withdrawalFeePercent: 5,
  ranks: DEFAULT_RANKS,
};

export const maxCapOf = (pkg: Pick<PlanPackage, 'price'>) => pkg.price * EARNINGS_CAP_MULTIPLIER;
