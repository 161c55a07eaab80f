/**
 * The plan: package tiers and the withdrawal fee (DESIGN §6). These are the defaults; the
 * server accepts an override file (env PLAN_FILE) validated with `planSchema`.
 */
import { z } from 'zod';
import { EARNINGS_CAP_MULTIPLIER } from './constants.ts';

const usdt = z.number().finite().positive().max(1_000_000_000);

export const planPackageSchema = z.object({
  name: z.string().trim().min(1),
  /** Price in USDT. Max_Cap is always EARNINGS_CAP_MULTIPLIER × price. */
  price: usdt,
  /** Daily ROI percentage, between 1 and 2 (DESIGN §6); at most 2 decimals. */
  roiPercentage: z.number().min(1).max(2).refine((n) => Number.isInteger(Math.round(n * 100)) && Math.abs(n * 100 - Math.round(n * 100)) < 1e-9, {
    error: 'roiPercentage has at most 2 decimals',
  }),
  binaryVolume: usdt,
  rankVolume: usdt,
});
export type PlanPackage = z.infer<typeof planPackageSchema>;

export const planSchema = z.object({
  packages: z
    .array(planPackageSchema)
    .min(1)
    .refine((list) => new Set(list.map((p) => p.name.toLowerCase())).size === list.length, { error: 'Package names must be unique' }),
  /** Withdrawal fee percentage (5 = 5 %), at most 2 decimals. */
  withdrawalFeePercent: z.number().min(0).max(100).default(5),
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
};

export const maxCapOf = (pkg: Pick<PlanPackage, 'price'>) => pkg.price * EARNINGS_CAP_MULTIPLIER;
