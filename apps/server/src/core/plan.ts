/** The plan the server runs with: the shared defaults, or the JSON file named by PLAN_FILE. */
import { readFileSync } from 'node:fs';
import { DEFAULT_PLAN, firstIssueMessage, planSchema, type Plan } from '@md/shared';

export function loadPlan(file: string | undefined = process.env.PLAN_FILE): Plan {
  if (!file) return DEFAULT_PLAN;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`PLAN_FILE ${file} could not be read as JSON: ${(error as Error).message}`);
  }
  const parsed = planSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `PLAN_FILE ${file} is not a valid plan: ${firstIssueMessage(parsed.error)} at ${parsed.error.issues[0]?.path.join('.')}`,
    );
  return parsed.data;
}
