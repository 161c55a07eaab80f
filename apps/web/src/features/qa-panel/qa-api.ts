/**
 * The QA control API (/__qa on the same origin, DESIGN §5) as a small typed client. These are
 * plain JSON calls, not tRPC: /__qa is not part of the provider contract. Errors arrive as
 * `{ Error }` and become a QaError carrying that message. A server with a QA_TOKEN gets it in
 * X-QA-Token (qa-token.ts).
 */
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
  from: string;
  clientMode?: 'mock' | 'provider';
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  ttlMinutes: number;
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

async function send(
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body: unknown,
  token: string | null,
): Promise<Response> {
  // Fastify refuses a JSON POST with an empty body: every POST sends an object.
  const sendsBody = method === 'POST';
  try {
    return await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(sendsBody ? { 'content-type': 'application/json' } : {}),
        ...(token !== null ? { [QA_TOKEN_HEADER]: token } : {}),
      },
      body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
    });
  } catch {
    throw new QaError('The server could not be reached', 0);
  }
}

async function request<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
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
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page): the status says enough.
  }
  if (!response.ok) {
    const message =
      json && typeof json === 'object' && typeof (json as { Error?: unknown }).Error === 'string'
        ? (json as { Error: string }).Error
        : `HTTP ${response.status}`;
    throw new QaError(message, response.status);
  }
  return json as T;
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
  moveClock: (body: { set?: string; advance?: string }) => request<QaClockMove>('POST', '/__qa/clock', body),

  mailbox: (to?: string) => request<QaMail[]>('GET', `/__qa/mailbox${query({ to: to?.trim() })}`),

  pendingDeposits: () => request<QaDeposit[]>('GET', '/__qa/deposits?status=PENDING'),
  payDeposit: (transId: string) => request<QaDepositPaid>('POST', `/__qa/deposits/${enc(transId)}/pay`),
  expireDeposit: (transId: string) => request<QaDeposit>('POST', `/__qa/deposits/${enc(transId)}/expire`),

  pendingWithdrawals: () => request<QaWithdrawal[]>('GET', '/__qa/withdrawals?status=PENDING'),
  decideWithdrawal: (transId: string, decision: 'approve' | 'reject') =>
    request<QaWithdrawal>('POST', `/__qa/withdrawals/${enc(transId)}/${decision}`),

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

  worlds: () => request<{ max: number; worlds: QaWorld[] }>('GET', '/__qa/worlds'),
  currentWorld: () => request<{ world: QaWorld | null; named: string | null }>('GET', '/__qa/worlds/current'),
  createWorld: (body: { from: string; ttlMinutes: number }) =>
    request<QaWorld & { enter: string }>('POST', '/__qa/worlds', body),
  deleteWorld: (id: string) => request<{ deleted: string }>('DELETE', `/__qa/worlds/${enc(id)}`),
  /** Entering or leaving is a navigation: the cookie is set by the answer, and the app starts again inside. */
  enterWorldUrl: (id: string) => `/__qa/worlds/${enc(id)}/enter`,
  leaveWorldUrl: '/__qa/worlds/leave',

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
