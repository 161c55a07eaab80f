/**
 * The output check of development and tests (config.validateOutput): every answer against its
 * endpoint's output schema, so a handler that breaks the contract fails loudly (a 500 naming the
 * endpoint and the field) instead of reaching a client. An answer object is checked once: answers
 * from the read cache are the same immutable object on every hit, so only their first hit pays
 * (checking each hit again made cached reads a fifth dearer).
 */
import { contract, type ProcedureName } from '@md/shared';
import type { z } from 'zod';
import { WrittenAnswer } from '../core/answer-json.ts';
import { ContractError } from '../core/errors.ts';

/** Every issue with where it is ('Success.0.Rank: …'), so a broken answer names the field. */
const describeIssues = (error: z.ZodError) =>
  error.issues
    .slice(0, 5)
    .map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');

// Answers that passed, by identity: nothing changes an answer once it is made (the read cache shares them).
const passed = new WeakSet<object>();

/** Throws a ContractError naming the endpoint and the field when `output` breaks the endpoint's output schema. */
export function checkOutput(name: ProcedureName, output: unknown): void {
  const isObject = typeof output === 'object' && output !== null;
  if (isObject && passed.has(output)) return;
  const entry = contract[name];
  const checked = entry.output.safeParse(output instanceof WrittenAnswer ? output.toJSON() : output);
  if (!checked.success)
    throw new ContractError(`Answer of ${entry.path} breaks the contract: ${describeIssues(checked.error)}`);
  if (isObject) passed.add(output);
}
