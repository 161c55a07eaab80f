export * from './constants.ts';
export * from './messages.ts';
export * from './rules.ts';
export * from './format.ts';
export * from './contract.ts';
export * from './runtime-config.ts';
export type * from './router-types.ts';
export * from './error-codes.ts';
export * from './plan.ts';
