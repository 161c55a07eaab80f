#!/usr/bin/env node
/**
 * Contract drift of a provider: signs in, calls every read endpoint of the contract
 * and runs each answer through the gateway's drift checker, then prints what differs.
 *   npm run drift -- --provider URL --username U --password P [--totp CODE] [--deposit-url URL] [--writes] [--json]
 * Exit 0: every answer matches the contract; 1: something drifted (or a call got no answer);
 * 2: bad arguments, or the sign-in failed. The first thing to run against a provider sandbox.
 */
import { parseArgs } from 'node:util';
import { contract, procedureNames, tableInput, type InputOf, type ProcedureName } from '@md/shared';
import { createDriftStore, type DriftEntry } from '../apps/server/src/modules/gateway/drift.ts';

const USAGE = `Usage: npm run drift -- --provider URL --username USERNAME --password PASSWORD [options]

Signs in at the provider, calls every read endpoint of the contract and checks each answer
against it (envelope, fields, types, enum values, extra fields).

Options:
  --provider URL      the provider's API base URL (required), e.g. https://api.example.com
  --deposit-url URL   the deposit host's base URL (default: --provider)
  --username U        a member of the provider (required)
  --password P        that member's password (required)
  --totp CODE         a current 6-digit code when the member has 2FA
  --writes            also make two conservative writes: open a 10 USDT deposit window (left
                      unpaid, it expires after 30 minutes) and start a 2FA set-up that is never
                      confirmed (skipped when the member has 2FA on)
  --json              print the findings as JSON (the entries of GET /__qa/drift)
  --help              this text

Exit status: 0 no drift, 1 drift found (or a call got no answer), 2 bad arguments or sign-in failed.`;

/** Per call: the provider may be slow, never this slow. */
const CALL_TIMEOUT_MS = 15_000;

class UsageError extends Error {}

function options() {
  const { values } = parseArgs({
    options: {
      provider: { type: 'string' },
      'deposit-url': { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      totp: { type: 'string' },
      writes: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) return null;
  const baseUrl = (name: string, value: string | undefined) => {
    if (!value) throw new UsageError(`--${name} is required`);
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new UsageError(`--${name} must be a URL such as https://api.example.com (got '${value}')`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--${name} must be an http or https URL (got '${value}')`);
    return value.replace(/\/+$/, '');
  };
  const provider = baseUrl('provider', values.provider);
  if (!values.username) throw new UsageError('--username is required');
  if (!values.password) throw new UsageError('--password is required');
  if (values.totp !== undefined && !/^\d{6}$/.test(values.totp))
    throw new UsageError('--totp must be the 6-digit code of the authenticator');
  return {
    provider,
    depositUrl:
      values['deposit-url'] === undefined ? provider : baseUrl('deposit-url', values['deposit-url']),
    username: values.username.trim().toLowerCase(),
    password: values.password,
    totp: values.totp,
    writes: values.writes,
    json: values.json,
  };
}
type Options = NonNullable<ReturnType<typeof options>>;

/** What one call brought back: the parsed JSON (undefined when empty or not JSON), or why nothing came. */
type Answer = { status: number; body: unknown } | { failed: string };

/** One member's inputs of the reads that need some: the first page of each table, the member's own trees. */
function readInput(name: ProcedureName, me: string): Record<string, unknown> {
  const { path, input } = contract[name];
  if (input === tableInput) return { pageNo: 1, pageSize: 10, path };
  const inputs: { [K in ProcedureName]?: InputOf<K> } = {
    'user.check_username_available': { username: me },
    'notification.view_notification': { page_no: 1, page_size: 20 },
    'level.downline_exist': { username: me },
    'withdraw.withdraw_fees': { amount: 100 },
    'level.view_downline': { username: me },
    'binary.view_binary_downline': { username: me },
    'binary.view_binary_downline_details': { username: me },
  };
  return (inputs[name] ?? {}) as Record<string, unknown>;
}

/** The reads: every query of the contract that is a provider endpoint (extensions of the stand-in are not). */
const readEndpoints = procedureNames.filter(
  (name) => contract[name].kind === 'query' && contract[name].extension === undefined,
);

async function call(
  opts: Options,
  name: ProcedureName,
  input: Record<string, unknown>,
  token?: string,
): Promise<Answer> {
  const entry = contract[name];
  // The inputs are this script's own: one the contract refuses is a bug here, not drift there.
  const valid = entry.input.safeParse(input);
  if (!valid.success)
    throw new Error(`drift: the input for ${entry.path} breaks the contract: ${valid.error.message}`);
  const body = token && entry.tokenField ? { ...input, [entry.tokenField]: token } : input;
  const url = `${entry.host === 'deposit' ? opts.depositUrl : opts.provider}${entry.path}`;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed };
  } catch (error) {
    const cause =
      error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return {
      failed:
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${CALL_TIMEOUT_MS / 1000} s`
          : cause,
    };
  }
}

const errorText = (body: unknown) =>
  body && typeof body === 'object' && typeof (body as { Error?: unknown }).Error === 'string'
    ? (body as { Error: string }).Error
    : JSON.stringify(body ?? null).slice(0, 120);
const failed = (answer: Answer): answer is { failed: string } => 'failed' in answer;

/** A readable table: one finding a row, long cells cut. */
function driftTable(entries: DriftEntry[]): string {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const rows = [
    ['endpoint', 'field', 'kind', 'expected', 'seen', 'count'],
    ...entries.map((e) => [
      e.path,
      e.field,
      e.kind,
      e.expected,
      e.seen === undefined ? '-' : JSON.stringify(e.seen),
      String(e.count),
    ]),
  ].map((row) => row.map((cell, i) => cut(cell, [44, 40, 8, 32, 40, 6][i]!)));
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main(): Promise<number> {
  let opts: Options | null;
  try {
    opts = options();
  } catch (error) {
    console.error(`drift: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (!opts) {
    console.log(USAGE);
    return 0;
  }
  const store = createDriftStore();
  const unanswered: string[] = [];
  const refused: string[] = [];
  let answers = 0;
  const checked = async (name: ProcedureName, input: Record<string, unknown>, token?: string) => {
    const answer = await call(opts, name, input, token);
    if (failed(answer)) unanswered.push(`${contract[name].path}: ${answer.failed}`);
    else {
      answers += 1;
      store.check(name, answer.status, answer.body);
      const isError =
        answer.status >= 300 ||
        (answer.body !== null && typeof answer.body === 'object' && 'Error' in answer.body);
      if (isError && name !== 'user.login')
        refused.push(`${contract[name].path}: HTTP ${answer.status} ${errorText(answer.body)}`);
    }
    return answer;
  };

  // Whether the member has 2FA (also the country list's other shape), then the sign-in.
  const twoFactor = await checked('user.view_country', { username: opts.username });
  if (failed(twoFactor)) {
    console.error(`drift: the provider at ${opts.provider} did not answer: ${twoFactor.failed}`);
    return 2;
  }
  const hasTotp = (twoFactor.body as { Success?: unknown } | undefined)?.Success === true;
  if (hasTotp && !opts.totp) {
    console.error(
      `drift: ${opts.username} has 2FA on: pass --totp CODE (a current code of the authenticator)`,
    );
    return 2;
  }
  const login = await checked('user.login', {
    username: opts.username,
    password: opts.password,
    ...(opts.totp ? { totp: opts.totp } : {}),
  });
  const jwt = failed(login) ? undefined : (login.body as { JWT?: unknown } | undefined)?.JWT;
  if (failed(login) || typeof jwt !== 'string' || !jwt) {
    console.error(
      `drift: sign-in as ${opts.username} failed: ${failed(login) ? login.failed : `HTTP ${login.status} ${errorText(login.body)}`}`,
    );
    return 2;
  }

  for (const name of readEndpoints) {
    if (name === 'user.view_country') await checked(name, {});
    else await checked(name, readInput(name, opts.username), jwt);
  }
  if (opts.writes) {
    await checked('deposit.make_payment', { amount_usdt: 10, currency: 'USDT.BEP20' }, jwt);
    if (!hasTotp) await checked('user.enable_totp', {}, jwt);
  }

  const entries = store.list();
  if (opts.json) console.log(JSON.stringify(entries, null, 2));
  else {
    console.log(
      `Checked ${answers} answers of ${opts.provider} against the contract${opts.writes ? ' (with writes)' : ''}.`,
    );
    if (refused.length)
      console.log(
        `\nAnswered with an error (only the { Error } envelope was checked):\n${refused.map((line) => `  ${line}`).join('\n')}`,
      );
    if (entries.length)
      console.log(
        `\n${entries.length} drift finding${entries.length === 1 ? '' : 's'}:\n\n${driftTable(entries)}`,
      );
    else console.log('\nNo drift: every answer matches the contract.');
  }
  if (unanswered.length)
    console.error(`\nNo answer (not checked):\n${unanswered.map((line) => `  ${line}`).join('\n')}`);
  return entries.length || unanswered.length ? 1 : 0;
}

process.exitCode = await main();
