/**
 * The QA section's examples, recorded like the contract's (example-session.ts): after the member
 * session, a tester's session plays every /__qa call once on the same world, from reading the
 * mailbox to making, exporting, importing and deleting a world, and keeps each call's path
 * parameters, query, body and answer. The document shows each route's first call.
 */
import { QA_ROUTES, type QaRoute } from './qa-table.ts';

export interface RecordedQaCall {
  method: QaRoute['method'];
  /** The route as the table names it (`/__qa/worlds/:id`). */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The JSON body sent, if any (a world file sent is not kept). */
  request?: unknown;
  status: number;
  /** The JSON answer, if any (a world file or a redirect has none). */
  response?: unknown;
}

export interface QaAnswer {
  status: number;
  /** The answer as JSON, or undefined when it is not JSON. */
  json: unknown;
  /** The answer's bytes (a world file). */
  raw: Buffer;
}

/** One call: a JSON body, or a world file's bytes (`file`); `world` names the world it is made in. */
export type SendQaCall = (
  method: QaRoute['method'],
  url: string,
  options: { body?: unknown; file?: Buffer; world?: string },
) => Promise<QaAnswer>;

/** A member call the session needs to set a stage (a deposit window to expire): its JSON answer. */
export type SendMemberCall = (path: string, body: unknown, username: string) => Promise<unknown>;

interface Call {
  method: QaRoute['method'];
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  file?: Buffer;
  world?: string;
  /** A status answered instead of success that is not a failure (nothing recorded). */
  ended?: number;
}

const routeKeys = new Set(QA_ROUTES.map((route) => `${route.method} ${route.path}`));
const field = (value: unknown, key: string) => String((value as Record<string, unknown>)[key]);
const first = (value: unknown, key: string) => field((value as unknown[])[0], key);

/** Plays the tester's session; throws on an answer that is not the route's success. */
export async function playQaExampleSession(
  send: SendQaCall,
  member: SendMemberCall,
): Promise<RecordedQaCall[]> {
  const calls: RecordedQaCall[] = [];
  const call = async ({
    method,
    path,
    params = {},
    query = {},
    body,
    file,
    world,
    ended,
  }: Call): Promise<QaAnswer> => {
    if (!routeKeys.has(`${method} ${path}`)) throw new Error(`No QA route ${method} ${path}`);
    const url =
      path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name]!)) +
      (Object.keys(query).length > 0 ? `?${new URLSearchParams(query)}` : '');
    const answer = await send(method, url, {
      ...(body !== undefined ? { body } : {}),
      ...(file ? { file } : {}),
      ...(world ? { world } : {}),
    });
    if (answer.status === ended) return answer;
    if (answer.status >= 400)
      throw new Error(`${method} ${url} answered ${answer.status}: ${answer.raw.toString().slice(0, 300)}`);
    calls.push({
      method,
      path,
      params,
      query,
      ...(body !== undefined ? { request: body } : {}),
      status: answer.status,
      ...(answer.json !== undefined ? { response: answer.json } : {}),
    });
    return answer;
  };

  await call({ method: 'GET', path: '/__qa/scenarios' });
  await call({ method: 'GET', path: '/__qa/example-codes' });
  await call({ method: 'PUT', path: '/__qa/example-codes', body: { on: true } });
  await call({ method: 'GET', path: '/__qa/mailbox', query: { to: 'demo' } });
  await call({ method: 'GET', path: '/__qa/totp' });
  await call({ method: 'GET', path: '/__qa/totp/:username', params: { username: 'demo2fa' } });
  await call({ method: 'GET', path: '/__qa/clock' });

  // Money the tester settles: the member session's deposit window is paid, a new one expires,
  // and the two pending withdrawals are approved and rejected.
  const windows = (await call({ method: 'GET', path: '/__qa/deposits', query: { status: 'PENDING' } })).json;
  await call({
    method: 'POST',
    path: '/__qa/deposits/:transId/pay',
    params: { transId: first(windows, 'TransID') },
    body: { amount: 100 },
  });
  const opened = await member(
    '/deposit/make_payment',
    { amount_usdt: 50, currency: 'USDT.BEP20' },
    'gonzalo_001',
  );
  const expiring = field((opened as { Success: unknown }).Success, 'TransID');
  await call({ method: 'POST', path: '/__qa/deposits/:transId/expire', params: { transId: expiring } });
  const pending = (await call({ method: 'GET', path: '/__qa/withdrawals', query: { status: 'PENDING' } }))
    .json as Record<string, unknown>[];
  if (pending.length < 2) throw new Error('The demo world has fewer than two pending withdrawals');
  await call({
    method: 'POST',
    path: '/__qa/withdrawals/:id/approve',
    params: { id: String(pending[0]!.TransID) },
  });
  await call({
    method: 'POST',
    path: '/__qa/withdrawals/:id/reject',
    params: { id: String(pending[1]!.TransID) },
    body: { reason: 'The address is on a payout hold list' },
  });
  await call({ method: 'GET', path: '/__qa/ledger/check' });
  // What the settled deposit and decided withdrawals pushed to the member's subscribed device.
  await call({ method: 'GET', path: '/__qa/pushes', query: { to: 'demo' } });

  // Faults and the journal.
  const fault = await call({
    method: 'POST',
    path: '/__qa/faults',
    body: { path: '/user/view_profile', member: 'demo', status: 500, error: 'Boom', times: 1 },
  });
  await call({ method: 'GET', path: '/__qa/faults' });
  await call({ method: 'DELETE', path: '/__qa/faults/:id', params: { id: field(fault.json, 'id') } });
  await call({ method: 'POST', path: '/__qa/faults/seed', body: { seed: 42 } });
  await call({ method: 'DELETE', path: '/__qa/faults' });
  await call({ method: 'GET', path: '/__qa/journal', query: { limit: '3' } });
  await call({ method: 'DELETE', path: '/__qa/journal' });

  // The gateway's views (this server has no provider: every route is the stand-in's).
  await call({ method: 'GET', path: '/__qa/routing' });
  await call({
    method: 'POST',
    path: '/__qa/routing',
    body: { path: '/wallet/view_all_wallets_details', target: 'mock' },
  });
  await call({ method: 'GET', path: '/__qa/drift' });
  await call({ method: 'DELETE', path: '/__qa/drift' });
  await call({ method: 'GET', path: '/__qa/recordings' });
  await call({ method: 'POST', path: '/__qa/recordings', body: { name: 'sandbox-day-1' } });
  await call({ method: 'POST', path: '/__qa/recordings/:name/stop', params: { name: 'sandbox-day-1' } });
  await call({ method: 'DELETE', path: '/__qa/recordings/:name', params: { name: 'sandbox-day-1' } });

  // Time: a day's runs waited for, then a day's runs as a job.
  await call({ method: 'POST', path: '/__qa/clock', query: { wait: '60' }, body: { advance: 'P1D' } });
  const job = await call({ method: 'POST', path: '/__qa/clock', body: { advance: 'P1D' } });
  const jobId = field(job.json, 'id');
  await call({ method: 'GET', path: '/__qa/jobs' });
  await call({ method: 'GET', path: '/__qa/jobs/:id', params: { id: jobId }, query: { wait: '60' } });
  // A long move, cancelled while it works (the clock stays where its last whole day left it); a
  // longer one should a move end before its cancel arrives (409).
  for (const advance of ['P30D', 'P90D', 'P360D']) {
    const move = await call({ method: 'POST', path: '/__qa/clock', body: { advance } });
    const cancel = {
      method: 'DELETE',
      path: '/__qa/jobs/:id',
      params: { id: field(move.json, 'id') },
    } as const;
    if ((await call({ ...cancel, ended: 409 })).status !== 409) break;
  }

  // Snapshots, one of them from a world file.
  await call({ method: 'POST', path: '/__qa/snapshots', body: { name: 'before-payday' } });
  await call({ method: 'GET', path: '/__qa/snapshots' });
  await call({ method: 'POST', path: '/__qa/snapshots/:name/restore', params: { name: 'before-payday' } });
  await call({ method: 'DELETE', path: '/__qa/snapshots/:name', params: { name: 'before-payday' } });

  // Worlds: made, looked at, carried as a file, entered, left, deleted.
  const made = await call({
    method: 'POST',
    path: '/__qa/worlds',
    query: { wait: '60' },
    body: { from: 'demo', ttlMinutes: 60 },
  });
  const world = field(made.json, 'id');
  await call({ method: 'GET', path: '/__qa/worlds' });
  await call({ method: 'GET', path: '/__qa/worlds/current', world });
  const file = (await call({ method: 'GET', path: '/__qa/worlds/:id/export', params: { id: world } })).raw;
  await call({ method: 'PUT', path: '/__qa/snapshots/:name', params: { name: 'imported-demo' }, file });
  const imported = await call({ method: 'POST', path: '/__qa/worlds/import', query: { name: 'copy' }, file });
  await call({ method: 'GET', path: '/__qa/worlds/:id/enter', params: { id: world } });
  await call({ method: 'GET', path: '/__qa/worlds/leave' });
  await call({ method: 'DELETE', path: '/__qa/worlds/:id', params: { id: field(imported.json, 'id') } });
  await call({ method: 'DELETE', path: '/__qa/worlds/:id', params: { id: world } });

  await call({ method: 'POST', path: '/__qa/reset', body: { scenario: 'demo' } });
  return calls;
}
