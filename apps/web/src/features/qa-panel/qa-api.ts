/**
 * The QA control API (/__qa on the same origin, DESIGN §5) as a small typed client. These are
 * plain JSON calls, not tRPC: /__qa is not part of the provider contract. Errors arrive as
 * `{ Error }` and become a QaError carrying that message. A server with a QA_TOKEN gets it in
 * X-QA-Token (qa-token.ts).
 */
import { LEAVE_WORLD_URL, worldFetch } from '@/lib/world.ts';
import { askForQaToken, QA_TOKEN_HEADER, readQaToken } from './qa-token.ts';

export interface QaNextRun {
  job: string;
  /** Business date, YYYY-MM-DD (London). */
  date: string;
  at: string;
}
export interface QaClock {
  now: string;
  /** The next due run of each job (servers before the QA panel do not send it). */
  nextRuns?: QaNextRun[];
}
export interface QaJobRun {
  job: string;
  date: string;
  summary?: string;
}
export interface QaClockMove {
  now: string;
  ran: QaJobRun[];
}

/**
 * A long operation (DESIGN §10): a clock move that owes daily runs, a world built from a declared
 * state. The call that starts one answers 202 with it; GET its `url` for state and progress,
 * DELETE it to cancel. `result` is what the call would have answered (a cancelled clock move
 * keeps the runs done before it stopped).
 */
export type QaJobState = 'running' | 'done' | 'failed' | 'cancelled';
export interface QaJobCount {
  done: number;
  total: number;
}
export interface QaJob<TResult = unknown> {
  id: string;
  /** 'clock' (a move that owes runs) or 'world' (a declared state's build). */
  kind: string;
  /** The world it works on (null: the default world, or a world not made yet). */
  world: string | null;
  /** Who started it (the QA token's label or the caller's address). */
  client: string;
  state: QaJobState;
  /** Done of total by unit: `runs` paid, `members` built. */
  progress: Record<string, QaJobCount>;
  createdAt: string;
  finishedAt: string | null;
  result?: TResult;
  error?: { status: number; Error: string };
  /** Where to GET it (DELETE cancels it): /__qa/jobs/<id>. */
  url: string;
}
export type QaClockJob = QaJob<QaClockMove>;

/** A 202's body: a job, not the call's own answer (a job has a state and a URL; a clock move or a world has neither). */
export function isQaJob(answer: unknown): answer is QaJob {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    typeof (answer as QaJob).id === 'string' &&
    typeof (answer as QaJob).state === 'string' &&
    typeof (answer as QaJob).url === 'string'
  );
}

export interface QaMail {
  to: string;
  subject: string;
  text: string;
  otp: string | null;
  sentAt: string;
  /** SMTP delivery: 'outbox-only' without SMTP_URL; absent from servers older than SMTP delivery. */
  delivery?: 'outbox-only' | 'pending' | 'sent' | 'failed';
  attempts?: number;
  lastError?: string | null;
}

export interface QaDeposit {
  id: number;
  TransID: string;
  username?: string;
  amount: number;
  paidAmount: number;
  currency: string;
  address: string;
  status: string;
  createdAt: string;
  expiresAt: string;
  paidAt: string | null;
}
export interface QaDepositPaid extends QaDeposit {
  credited: boolean;
  message?: string;
}

export interface QaWithdrawal {
  id: number;
  TransID: string;
  username?: string;
  amount: number;
  fee: number;
  netAmount: number;
  address: string;
  status: string;
  createdAt: string;
  decidedAt: string | null;
  /** Why a REJECTED one was rejected (null otherwise). */
  reason?: string | null;
}

/** The effect fields of a fault rule (POST /__qa/faults; `path` is a provider path or '*'). */
export interface QaFaultInput {
  path: string;
  member?: string;
  status?: number;
  error?: string;
  body?: unknown;
  delayMs?: number;
  delay?: { min: number; max: number };
  hang?: boolean;
  malformed?: boolean;
  empty?: boolean;
  drop?: boolean;
  probability?: number;
  times?: number;
}
export interface QaFaultRule extends QaFaultInput {
  id: string;
  procedure: string;
  probability: number;
  remaining?: number;
  applied: number;
  createdAt: string;
}

export interface QaScenario {
  name: string;
  description: string;
}
export interface QaSnapshot {
  name: string;
  size: number;
  createdAt: string;
}

export interface QaWorld {
  id: string;
  /** What QA called it, when named. */
  name?: string;
  from: string;
  clientMode?: 'mock' | 'provider';
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  ttlMinutes: number;
  /** Who made it, how often a browser entered it, calls and jobs working in it now (absent from older servers). */
  createdBy?: string;
  entered?: number;
  lastEnteredAt?: string | null;
  busy?: number;
}
/** The body of POST /__qa/worlds. */
export interface QaWorldRequest {
  from?: string;
  state?: unknown;
  ttlMinutes: number;
  name?: string;
  clientMode?: 'mock' | 'provider';
}
/** A 2FA member's code now, by the world's clock (GET /__qa/totp). */
export interface QaTotp {
  username: string;
  code: string;
  expiresInSeconds: number;
}
/** What POST /__qa/worlds answers with the world (201, or a build's result). */
export interface QaNewWorld extends QaWorld {
  enter: string;
}
/** A world made from a world file: when the file was exported, and what it carried that could not travel. */
export interface QaImportedWorld extends QaNewWorld {
  exportedAt: string;
  notCarried: string[];
}
export type QaWorldJob = QaJob<QaNewWorld>;
/** One line of a world's life (GET /__qa/worlds `history`, oldest first). */
export interface QaWorldEvent {
  at: string;
  world: string;
  event: 'created' | 'entered' | 'expired' | 'deleted';
  client?: string;
  from?: string;
}
export interface QaWorlds {
  max: number;
  /** WORLDS_PER_CLIENT (absent from older servers). */
  perClient?: number;
  worlds: QaWorld[];
  history?: QaWorldEvent[];
}

export interface QaLedgerProblem {
  accountId: number;
  username: string | null;
  wallet: string | null;
  balance: number;
  fromTransfers: number;
}
export interface QaLedgerCheck {
  balanced: boolean;
  total: number;
  negativeWallets: QaLedgerProblem[];
  mismatchedWallets: QaLedgerProblem[];
}

export interface QaJournalEntry {
  id: number;
  time: string;
  requestId: string;
  method: string;
  url: string;
  path: string;
  procedure: string;
  transport: 'rest' | 'trpc';
  status: number | null;
  durationMs: number | null;
  member: string | null;
  requestHeaders: unknown;
  requestBody: unknown;
  responseBody: unknown;
  fault: { id: string; effect: string; delayMs: number } | null;
  pending: boolean;
  outcome?: string;
}

/** One drift finding (GET /__qa/drift): where a provider answer differs from the contract. */
export interface QaDriftEntry {
  /** The endpoint's provider path. */
  path: string;
  /** 'Success[].Side' ([] any row, {} any map entry); '(body)' for an answer that is not an object. */
  field: string;
  kind: 'missing' | 'extra' | 'type' | 'value' | 'envelope';
  expected: string;
  /** The first example seen, redacted by the server; absent for a missing field. */
  seen?: unknown;
  count: number;
  firstSeen: string;
  lastSeen: string;
}

export class QaError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'QaError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

async function send(method: Method, path: string, body: unknown, token: string | null): Promise<Response> {
  // A world file goes as it is; Fastify refuses a JSON POST with an empty body: every other POST sends an object.
  const file = body instanceof Blob;
  const sendsBody = method === 'POST' || method === 'PUT';
  try {
    return await worldFetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(sendsBody ? { 'content-type': file ? 'application/octet-stream' : 'application/json' } : {}),
        ...(token !== null ? { [QA_TOKEN_HEADER]: token } : {}),
      },
      body: sendsBody ? (file ? body : JSON.stringify(body ?? {})) : undefined,
    });
  } catch {
    throw new QaError('The server could not be reached', 0);
  }
}

/** The server's answer to a call /__qa took (a refusal is thrown as a QaError with its message). */
async function exchange(method: Method, path: string, body?: unknown): Promise<Response> {
  let token = readQaToken();
  let response = await send(method, path, body, token);
  // 401: the server has a QA_TOKEN and this one is missing or wrong. /__qa refuses before doing
  // anything, so the call is safe to repeat with the token QA enters (or another call just got).
  while (response.status === 401) {
    const latest = readQaToken();
    if (latest !== null && latest !== token) token = latest;
    else {
      const entered = await askForQaToken(token !== null);
      if (entered === null) break;
      token = entered;
    }
    response = await send(method, path, body, token);
  }
  if (!response.ok) {
    const json = parseJson(await response.text());
    const message =
      json && typeof json === 'object' && typeof (json as { Error?: unknown }).Error === 'string'
        ? (json as { Error: string }).Error
        : `HTTP ${response.status}`;
    throw new QaError(message, response.status);
  }
  return response;
}

/** JSON, or null for none or for what is not JSON (a proxy's error page: the status says enough). */
function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

/** A call's answer with its status (a 202 carries a job instead of the call's own answer). */
async function answer<T>(method: Method, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await exchange(method, path, body);
  return { status: response.status, body: parseJson(await response.text()) as T };
}

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  return (await answer<T>(method, path, body)).body;
}

/** The call's own answer, or the job it started (202; a job's body as well, should a proxy change the status). */
async function answerOrJob<T, TResult>(
  method: 'POST',
  path: string,
  body: unknown,
): Promise<T | QaJob<TResult>> {
  const reply = await answer<T | QaJob<TResult>>(method, path, body);
  return reply.status === 202 || isQaJob(reply.body) ? (reply.body as QaJob<TResult>) : reply.body;
}

const enc = encodeURIComponent;
const query = (params: Record<string, string | number | undefined>) => {
  const entries = Object.entries(params).filter(
    (e): e is [string, string | number] => e[1] !== undefined && e[1] !== '',
  );
  return entries.length ? `?${entries.map(([k, v]) => `${k}=${enc(String(v))}`).join('&')}` : '';
};

export const qaApi = {
  clock: () => request<QaClock>('GET', '/__qa/clock'),
  /** The move (200) when it owes no daily run; else the job that runs them (202). */
  moveClock: (body: { set?: string; advance?: string }) =>
    answerOrJob<QaClockMove, QaClockMove>('POST', '/__qa/clock', body),

  /** A job; with `waitSeconds`, a long poll: answered when it ends or when the wait runs out. */
  job: <TResult = unknown>(id: string, waitSeconds?: number) =>
    request<QaJob<TResult>>('GET', `/__qa/jobs/${enc(id)}${query({ wait: waitSeconds })}`),
  /** Cancels a running job: answered once it has stopped (409 when it had already ended). */
  cancelJob: <TResult = unknown>(id: string) => request<QaJob<TResult>>('DELETE', `/__qa/jobs/${enc(id)}`),

  mailbox: (to?: string) => request<QaMail[]>('GET', `/__qa/mailbox${query({ to: to?.trim() })}`),

  pendingDeposits: () => request<QaDeposit[]>('GET', '/__qa/deposits?status=PENDING'),
  payDeposit: (transId: string) => request<QaDepositPaid>('POST', `/__qa/deposits/${enc(transId)}/pay`),
  expireDeposit: (transId: string) => request<QaDeposit>('POST', `/__qa/deposits/${enc(transId)}/expire`),

  pendingWithdrawals: () => request<QaWithdrawal[]>('GET', '/__qa/withdrawals?status=PENDING'),
  /** A reject's `reason` (trimmed; none: the server's default) is what the member reads. */
  decideWithdrawal: (transId: string, decision: 'approve' | 'reject', reason?: string) =>
    request<QaWithdrawal>(
      'POST',
      `/__qa/withdrawals/${enc(transId)}/${decision}`,
      decision === 'reject' && reason?.trim() ? { reason: reason.trim() } : undefined,
    ),

  faults: () => request<QaFaultRule[]>('GET', '/__qa/faults'),
  addFault: (rule: QaFaultInput) => request<QaFaultRule>('POST', '/__qa/faults', rule),
  deleteFault: (id: string) => request<{ deleted: number }>('DELETE', `/__qa/faults/${enc(id)}`),
  clearFaults: () => request<{ deleted: number }>('DELETE', '/__qa/faults'),

  scenarios: () => request<QaScenario[]>('GET', '/__qa/scenarios'),
  reset: (scenario: string) =>
    request<{ scenario: string; members: number }>('POST', '/__qa/reset', { scenario }),
  snapshots: () => request<QaSnapshot[]>('GET', '/__qa/snapshots'),
  saveSnapshot: (name: string) => request<QaSnapshot>('POST', '/__qa/snapshots', { name }),
  restoreSnapshot: (name: string) =>
    request<{ restored: QaSnapshot }>('POST', `/__qa/snapshots/${enc(name)}/restore`),
  deleteSnapshot: (name: string) => request<{ deleted: string }>('DELETE', `/__qa/snapshots/${enc(name)}`),
  ledgerCheck: () => request<QaLedgerCheck>('GET', '/__qa/ledger/check'),

  journal: (filter: { member?: string; limit?: number } = {}) =>
    request<QaJournalEntry[]>(
      'GET',
      `/__qa/journal${query({ member: filter.member?.trim().toLowerCase(), limit: filter.limit })}`,
    ),
  clearJournal: () => request<{ deleted: number }>('DELETE', '/__qa/journal'),

  worlds: () => request<QaWorlds>('GET', '/__qa/worlds'),
  currentWorld: () => request<{ world: QaWorld | null; named: string | null }>('GET', '/__qa/worlds/current'),
  /** From a scenario or snapshot: the world (201). From a declared `state`: the job that builds it (202). */
  createWorld: (body: QaWorldRequest) => answerOrJob<QaNewWorld, QaNewWorld>('POST', '/__qa/worlds', body),
  deleteWorld: (id: string) => request<{ deleted: string }>('DELETE', `/__qa/worlds/${enc(id)}`),
  /** The world as one file (`default`: the default world), to import on another server. */
  exportWorld: async (id: string) => (await exchange('GET', `/__qa/worlds/${enc(id)}/export`)).blob(),
  /** A new world from a world file (an export, from this server or another). */
  importWorld: (file: Blob, ttlMinutes: number) =>
    request<QaImportedWorld>('POST', `/__qa/worlds/import${query({ ttlMinutes })}`, file),
  /** Entering or leaving is a navigation: the door names the world to the tab, and the app starts again inside. */
  enterWorldUrl: (id: string) => `/__qa/worlds/${enc(id)}/enter`,
  /** The code a member's authenticator shows now by the world's clock (404: no 2FA member of that name). */
  /** Every 2FA member's code now by the world's clock (the first 20 by username). */
  totps: () => request<QaTotp[]>('GET', '/__qa/totp'),
  leaveWorldUrl: LEAVE_WORLD_URL,

  drift: () => request<QaDriftEntry[]>('GET', '/__qa/drift'),
  clearDrift: () => request<{ deleted: number }>('DELETE', '/__qa/drift'),
};

/** TanStack Query keys of the panel: all under one prefix, so the panel can refresh only itself. */
export const qaKeys = {
  all: ['__qa'] as const,
  clock: ['__qa', 'clock'] as const,
  mailbox: (to: string) => ['__qa', 'mailbox', to] as const,
  deposits: ['__qa', 'deposits'] as const,
  withdrawals: ['__qa', 'withdrawals'] as const,
  faults: ['__qa', 'faults'] as const,
  scenarios: ['__qa', 'scenarios'] as const,
  snapshots: ['__qa', 'snapshots'] as const,
  journal: (member: string) => ['__qa', 'journal', member] as const,
  drift: ['__qa', 'drift'] as const,
  worlds: ['__qa', 'worlds'] as const,
  currentWorld: ['__qa', 'worlds', 'current'] as const,
};
