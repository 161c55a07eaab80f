/**
 * Example codes: a QA setting of one world under which the OpenAPI document's request examples
 * replay as they are written (Postman, newman, a tester pasting them). Every OTP mailed there is
 * EXAMPLE_CODE, and the authenticator step accepts EXAMPLE_CODE as the current step's code (the
 * real code keeps working too). Codes stay hashed, single use, time-limited and counted against
 * the guess limits. The flag is a row of the world's `meta` (it travels with an export) and
 * counts only while QA control is on: a file carrying it on a server without QA control changes nothing.
 */
import type { Services } from './services.ts';
import { prepared } from './prepared.ts';

export const EXAMPLE_CODE = '123456';
const KEY = 'example_codes';

type CodeServices = Pick<Services, 'sqlite' | 'config'>;

export function exampleCodesOn(ctx: CodeServices): boolean {
  if (!ctx.config.qaControl) return false;
  const row = prepared(ctx.sqlite, 'SELECT value FROM meta WHERE key = ?').get(KEY) as
    { value: string } | undefined;
  return row?.value === '1';
}

export function setExampleCodes(ctx: Pick<Services, 'sqlite'>, on: boolean): void {
  if (on)
    prepared(
      ctx.sqlite,
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(KEY, '1');
  else prepared(ctx.sqlite, 'DELETE FROM meta WHERE key = ?').run(KEY);
}
