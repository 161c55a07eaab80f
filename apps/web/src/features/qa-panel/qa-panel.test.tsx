import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import type { RuntimeConfig } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { describeRule, ruleFromForm } from './faults-tab.tsx';
import type { QaFaultRule } from './qa-api.ts';
import { QA_TOKEN_TEXT } from './qa-token-prompt.tsx';
import { worldDoor } from './worlds-tab.tsx';

interface Call {
  method: string;
  path: string;
  body: unknown;
  /** The X-QA-Token the call sent. */
  token: string | null;
}
type Route = (body: unknown, url: URL) => unknown;

/** A route's answer with a status other than 200 (a 202 with a job). */
class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}
const reply = (status: number, body: unknown) => new Reply(status, body);

/**
 * A fake /__qa: `routes` by 'METHOD /path' (query string excluded), answering 200 with what they
 * return (or resolve to), or a `reply(status, body)`; every call is recorded. With
 * `qaToken`, as a server with QA_TOKEN: 401 unless the call sends it in X-QA-Token.
 */
function fakeQa(routes: Record<string, Route>, options: { qaToken?: string } = {}) {
  const calls: Call[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    // JSON as its object; a file (a Blob) as it is.
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : (init.body ?? undefined);
    const token = new Headers(init.headers).get('x-qa-token');
    calls.push({ method, path: `${url.pathname}${url.search}`, body, token });
    if (options.qaToken !== undefined && token !== options.qaToken)
      return new Response(JSON.stringify({ Error: token === null ? 'QA token missing' : 'QA token wrong' }), {
        status: 401,
      });
    const route = routes[`${method} ${url.pathname}`];
    if (!route) return new Response(JSON.stringify({ Error: 'Not found' }), { status: 404 });
    try {
      const answer = await route(body, url);
      if (answer instanceof Blob) return new Response(answer, { status: 200 });
      return new Response(JSON.stringify(answer instanceof Reply ? answer.body : answer), {
        status: answer instanceof Reply ? answer.status : 200,
        headers: { 'content-type': 'application/json' },
      });
    } catch (error) {
      return new Response(JSON.stringify({ Error: (error as Error).message }), { status: 400 });
    }
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    posted: (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path),
  };
}

const NOW = '2027-01-08T12:00:00.000Z';
const clockRoute = () => ({
  now: NOW,
  nextRuns: [
    { job: 'binary', date: '2027-01-09', at: '2027-01-09T11:00:00.000Z' },
    { job: 'ranks', date: '2027-01-09', at: '2027-01-09T11:00:00.000Z' },
    { job: 'roi', date: '2027-01-11', at: '2027-01-11T00:05:00.000Z' },
  ],
});

let appQueryRuns = 0;
/** Stands for a member's page: one app query, to see the panel refresh the app's cache. */
function MemberPage() {
  const query = useQuery({ queryKey: ['member-page'], queryFn: () => ++appQueryRuns, staleTime: Infinity });
  return <p>Member page (loaded {query.data ?? 0}×)</p>;
}

function renderWithPanel(config: Partial<RuntimeConfig> = {}) {
  return render(
    <TestProviders
      config={{ ...testConfig, capabilities: ['qa'], ...config }}
      trpcClient={createMockClient({}, [])}
    >
      <MemberPage />
    </TestProviders>,
  );
}

async function openPanel(tab?: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'QA panel' }));
  const panel = await screen.findByRole('dialog', { name: 'QA panel' });
  if (tab) await user.click(within(panel).getByRole('tab', { name: tab }));
  return { user, panel };
}

beforeEach(() => {
  appQueryRuns = 0;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('QA panel: where it shows', () => {
  it('shows a QA button in mock mode with the qa capability, on any page', async () => {
    fakeQa({ 'GET /__qa/clock': clockRoute });
    renderWithPanel();
    expect(await screen.findByRole('button', { name: 'QA panel' })).toHaveTextContent('QA');
  });

  it('is not rendered in provider mode, even when the server offers QA', async () => {
    const { fetchMock } = fakeQa({});
    renderWithPanel({ mode: 'provider' });
    await screen.findByText(/Member page/);
    expect(screen.queryByRole('button', { name: 'QA panel' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is not rendered without the qa capability', async () => {
    const { fetchMock } = fakeQa({});
    renderWithPanel({ capabilities: ['support'] });
    await screen.findByText(/Member page/);
    expect(screen.queryByRole('button', { name: 'QA panel' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('opens with Alt+Shift+Q as well (a member dialog blocks the button, not the keyboard)', async () => {
    fakeQa({ 'GET /__qa/clock': clockRoute });
    renderWithPanel();
    await screen.findByRole('button', { name: 'QA panel' });
    await userEvent.keyboard('{Alt>}{Shift>}Q{/Shift}{/Alt}');
    expect(await screen.findByRole('dialog', { name: 'QA panel' })).toBeInTheDocument();
  });
});

describe('QA panel: Clock', () => {
  it('shows the server time in London and UTC and the next runs', async () => {
    fakeQa({ 'GET /__qa/clock': clockRoute });
    renderWithPanel();
    await openPanel();
    await waitFor(() => expect(screen.getByTestId('qa-clock-utc')).toHaveTextContent('08 Jan 2027'));
    expect(screen.getByTestId('qa-clock-utc')).toHaveTextContent(/12:00:0\d UTC/);
    expect(screen.getByTestId('qa-clock-london')).toHaveTextContent(/12:00:0\d GMT/);
    expect(screen.getByText('Binary matching (11:00 UK)')).toBeInTheDocument();
    expect(screen.getByText('Mon 11 Jan, 00:05 GMT')).toBeInTheDocument();
  });

  it('advances a day, shows what ran and refreshes the member pages', async () => {
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'POST /__qa/clock': () => ({
        now: '2027-01-09T12:00:00.000Z',
        ran: [
          { job: 'binary', date: '2027-01-09', summary: '3 members paid' },
          { job: 'ranks', date: '2027-01-09', summary: '' },
        ],
      }),
    });
    renderWithPanel();
    await screen.findByText('Member page (loaded 1×)');
    const { user } = await openPanel();
    await user.click(screen.getByRole('button', { name: '+1 day' }));
    const result = await screen.findByTestId('qa-clock-result');
    expect(qa.posted('/__qa/clock').map((c) => c.body)).toEqual([{ advance: 'P1D' }]);
    expect(result).toHaveTextContent('+1 day: now Sat, 09 Jan 2027, 12:00:00 GMT');
    const ran = within(result).getByRole('list', { name: 'Runs that ran' });
    expect(
      within(ran)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['binary 2027-01-09 — 3 members paid', 'ranks 2027-01-09']);
    // The app's own queries were invalidated and fetched again.
    await screen.findByText('Member page (loaded 2×)');
  });

  it('moves to the next 11:00 UK run by setting the clock to the instant the server gives', async () => {
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'POST /__qa/clock': () => ({ now: '2027-01-09T11:00:00.000Z', ran: [] }),
    });
    renderWithPanel();
    const { user } = await openPanel();
    await user.click(screen.getByRole('button', { name: 'Next 11:00 UK run' }));
    expect(await screen.findByTestId('qa-clock-result')).toHaveTextContent('Nothing fell due.');
    expect(qa.posted('/__qa/clock').map((c) => c.body)).toEqual([{ set: '2027-01-09T11:00:00.000Z' }]);
  });

  it('toasts the server’s message when a move fails', async () => {
    fakeQa({
      'GET /__qa/clock': clockRoute,
      'POST /__qa/clock': () => {
        throw new Error('The clock must stay between 1970 and 9999');
      },
    });
    renderWithPanel();
    const { user } = await openPanel();
    await user.click(screen.getByRole('button', { name: '+1 hour' }));
    expect(await screen.findByText('The clock must stay between 1970 and 9999')).toBeInTheDocument();
  });
});

describe('QA panel: Mailbox', () => {
  const mails = [
    {
      to: 'demo@example.com',
      subject: 'Your verification code',
      text: 'Your code is 482913. It expires in 10 minutes.',
      otp: '482913',
      sentAt: '2027-01-08T11:59:00.000Z',
    },
    {
      to: 'demo@example.com',
      subject: 'Welcome',
      text: 'Welcome aboard',
      otp: null,
      sentAt: '2027-01-08T11:00:00.000Z',
    },
  ];

  it('shows the latest OTP up front, copies it, and filters by address or username', async () => {
    const qa = fakeQa({ 'GET /__qa/clock': clockRoute, 'GET /__qa/mailbox': () => mails });
    renderWithPanel();
    const { user } = await openPanel('Mailbox');
    const items = await screen.findAllByTestId('qa-mail');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByTestId('qa-mail-otp')).toHaveTextContent('482913');
    expect(items[0]).toHaveTextContent('Latest');
    expect(within(items[1]!).queryByTestId('qa-mail-otp')).toBeNull();

    await user.click(within(items[0]!).getByRole('button', { name: 'Copy OTP 482913' }));
    // user-event's clipboard stands in for the browser's.
    expect(await navigator.clipboard.readText()).toBe('482913');
    expect(await screen.findByText('Copied OTP 482913')).toBeInTheDocument();

    await user.type(screen.getByLabelText('Address or username'), 'Demo');
    await waitFor(() => expect(qa.calls.some((c) => c.path === '/__qa/mailbox?to=Demo')).toBe(true));
  });

  it('says when a mail was not delivered over SMTP, and why', async () => {
    const failed = {
      ...mails[0]!,
      delivery: 'failed',
      attempts: 3,
      lastError: 'ESOCKET connect ECONNREFUSED 127.0.0.1:2525',
    };
    const sent = { ...mails[1]!, delivery: 'sent', attempts: 1, lastError: null };
    fakeQa({ 'GET /__qa/clock': clockRoute, 'GET /__qa/mailbox': () => [failed, sent] });
    renderWithPanel();
    await openPanel('Mailbox');
    const items = await screen.findAllByTestId('qa-mail');
    expect(within(items[0]!).getByTestId('qa-mail-delivery')).toHaveTextContent(
      'Not delivered after 3 attempts: ESOCKET connect ECONNREFUSED 127.0.0.1:2525',
    );
    expect(within(items[1]!).getByTestId('qa-mail-delivery')).toHaveTextContent('Delivered by SMTP');
  });
});

describe('QA panel: Deposits and Withdrawals', () => {
  it('pays an open deposit window at its URL', async () => {
    const deposit = {
      id: 7,
      TransID: 'DEP123',
      username: 'demo',
      amount: 120,
      paidAmount: 0,
      currency: 'USDT',
      address: '0xabc',
      status: 'PENDING',
      createdAt: NOW,
      expiresAt: '2027-01-08T12:30:00.000Z',
      paidAt: null,
    };
    let open = [deposit];
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/deposits': () => open,
      'POST /__qa/deposits/DEP123/pay': () => {
        open = [];
        return { ...deposit, status: 'PAID', credited: true, message: 'Deposit paid and credited' };
      },
    });
    renderWithPanel();
    const { user } = await openPanel('Deposits');
    const row = await screen.findByTestId('qa-deposit-DEP123');
    expect(row).toHaveTextContent('$120.00 USDT');
    expect(row).toHaveTextContent('demo');
    await user.click(within(row).getByRole('button', { name: 'Pay DEP123' }));
    expect(await screen.findByText('DEP123: Deposit paid and credited')).toBeInTheDocument();
    expect(qa.posted('/__qa/deposits/DEP123/pay')).toHaveLength(1);
    expect(await screen.findByText(/No open deposit windows/)).toBeInTheDocument();
  });

  it('approves and rejects pending withdrawals, a rejection with the reason typed', async () => {
    const w = (id: number, TransID: string) => ({
      id,
      TransID,
      username: 'demo',
      amount: 50,
      fee: 2.5,
      netAmount: 47.5,
      address: '0x5290',
      status: 'PENDING',
      createdAt: NOW,
      decidedAt: null,
    });
    let pending = [w(1, 'WD1'), w(2, 'WD2')];
    const decide = (transId: string, status: string) => () => {
      pending = pending.filter((p) => p.TransID !== transId);
      return { ...w(0, transId), status };
    };
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/withdrawals': () => pending,
      'POST /__qa/withdrawals/WD1/approve': decide('WD1', 'APPROVED'),
      'POST /__qa/withdrawals/WD2/reject': (body) => ({
        ...decide('WD2', 'REJECTED')(),
        reason: (body as { reason?: string } | undefined)?.reason ?? null,
      }),
    });
    renderWithPanel();
    const { user } = await openPanel('Withdrawals');
    await user.click(await screen.findByRole('button', { name: 'Approve WD1' }));
    expect(await screen.findByText('Withdrawal WD1 approved: $47.50 paid')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('qa-withdrawal-WD1')).toBeNull());
    await user.type(screen.getByRole('textbox', { name: 'Rejection reason for WD2' }), '  Address on hold ');
    await user.click(screen.getByRole('button', { name: 'Reject WD2' }));
    expect(
      await screen.findByText('Withdrawal WD2 rejected: $50.00 refunded (Address on hold)'),
    ).toBeInTheDocument();
    expect(qa.posted('/__qa/withdrawals/WD1/approve')).toHaveLength(1);
    expect(qa.posted('/__qa/withdrawals/WD2/reject').map((c) => c.body)).toEqual([
      { reason: 'Address on hold' },
    ]);
    expect(await screen.findByText('No pending withdrawals.')).toBeInTheDocument();
  });
});

describe('QA panel: Faults', () => {
  it('a quick toggle creates its rule, shows it, and deletes it when turned off', async () => {
    let rules: QaFaultRule[] = [];
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/faults': () => rules,
      'POST /__qa/faults': (body) => {
        const rule = {
          ...(body as QaFaultRule),
          id: 'f1',
          procedure: 'user.view_profile',
          probability: 1,
          applied: 0,
          createdAt: NOW,
        };
        rules = [rule];
        return rule;
      },
      'DELETE /__qa/faults/f1': () => {
        rules = [];
        return { deleted: 1 };
      },
    });
    renderWithPanel();
    const { user } = await openPanel('Faults');
    const toggle = await screen.findByLabelText('500 on /user/view_profile');
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(toggle).not.toBeChecked();
    await user.click(toggle);
    await waitFor(() => expect(screen.getByLabelText('500 on /user/view_profile')).toBeChecked());
    expect(qa.posted('/__qa/faults').map((c) => c.body)).toEqual([
      { path: '/user/view_profile', status: 500 },
    ]);
    const rule = await screen.findByTestId('qa-fault-f1');
    expect(rule).toHaveTextContent('/user/view_profile');
    expect(rule).toHaveTextContent('500 · hit 0×');

    await waitFor(() => expect(screen.getByLabelText('500 on /user/view_profile')).toBeEnabled());
    await user.click(screen.getByLabelText('500 on /user/view_profile'));
    await waitFor(() => expect(screen.queryByTestId('qa-fault-f1')).toBeNull());
    expect(qa.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/__qa/faults/f1']);
    expect(screen.getByLabelText('500 on /user/view_profile')).not.toBeChecked();
  });

  it('adds a rule from the form and shows the server’s reason when it refuses one', async () => {
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/faults': () => [],
      'POST /__qa/faults': (body) => {
        if ((body as { path: string }).path === '/nope') throw new Error("Unknown endpoint '/nope'");
        return {
          ...(body as object),
          id: 'f2',
          procedure: 'user.login',
          probability: 1,
          applied: 0,
          createdAt: NOW,
        };
      },
    });
    renderWithPanel();
    const { user } = await openPanel('Faults');
    const form = await screen.findByRole('form', { name: 'Add a fault rule' });
    await user.type(within(form).getByLabelText(/Path/), '/nope');
    await user.type(within(form).getByLabelText('Status'), '503');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await within(form).findByText("Unknown endpoint '/nope'")).toBeInTheDocument();

    await user.clear(within(form).getByLabelText(/Path/));
    await user.type(within(form).getByLabelText(/Path/), '/user/login');
    await user.type(within(form).getByLabelText('Delay (ms)'), '1500');
    await user.type(within(form).getByLabelText('Times'), '2');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Fault rule f2 added')).toBeInTheDocument();
    expect(qa.posted('/__qa/faults').at(-1)!.body).toEqual({
      path: '/user/login',
      status: 503,
      delayMs: 1500,
      times: 2,
    });
    // The form is empty again for the next rule.
    expect(within(form).getByLabelText(/Path/)).toHaveValue('');
  });

  it('describes rules and builds them from the form', () => {
    const base = { id: 'f1', path: '*', procedure: '*', probability: 1, applied: 4, createdAt: NOW };
    expect(describeRule({ ...base, hang: true })).toBe('hang (never answers) · hit 4×');
    expect(
      describeRule({ ...base, status: 503, error: 'Down', delayMs: 200, member: 'demo', remaining: 1 }),
    ).toBe('503 “Down” · +200 ms · for demo · 1 more time · hit 4×');
    expect(describeRule({ ...base, malformed: true, probability: 0.25 })).toBe(
      'malformed JSON · 25 % of calls · hit 4×',
    );
    expect(
      ruleFromForm({ path: ' * ', status: '', error: '', delayMs: '3000', times: '', special: '' }),
    ).toEqual({ path: '*', delayMs: 3000 });
    expect(
      ruleFromForm({ path: '/user/login', status: '', error: '', delayMs: '', times: '1', special: 'drop' }),
    ).toEqual({ path: '/user/login', drop: true, times: 1 });
  });
});

describe('QA panel: Data', () => {
  it('resets to a scenario only after confirming, then refreshes the app', async () => {
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/scenarios': () => [
        { name: 'demo', description: 'The demo members' },
        { name: 'empty', description: 'No members' },
      ],
      'GET /__qa/snapshots': () => [],
      'POST /__qa/reset': (body) => ({ scenario: (body as { scenario: string }).scenario, members: 122 }),
    });
    renderWithPanel();
    await screen.findByText('Member page (loaded 1×)');
    const { user } = await openPanel('Data');
    await user.click(await screen.findByRole('button', { name: 'Reset to demo' }));
    const confirm = await screen.findByRole('dialog', { name: "Reset to 'demo'?" });
    expect(qa.posted('/__qa/reset')).toHaveLength(0);

    // Cancel changes nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: "Reset to 'demo'?" })).toBeNull());
    expect(qa.posted('/__qa/reset')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Reset to demo' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: "Reset to 'demo'?" })).getByRole('button', {
        name: 'Reset',
      }),
    );
    expect(await screen.findByText("Reset to 'demo': 122 members")).toBeInTheDocument();
    expect(qa.posted('/__qa/reset').map((c) => c.body)).toEqual([{ scenario: 'demo' }]);
    await screen.findByText('Member page (loaded 2×)');
  });

  it('saves a snapshot (checking its name first) and checks the ledger', async () => {
    let snapshots: { name: string; size: number; createdAt: string }[] = [];
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/scenarios': () => [],
      'GET /__qa/snapshots': () => snapshots,
      'POST /__qa/snapshots': (body) => {
        const snapshot = { name: (body as { name: string }).name, size: 40_960, createdAt: NOW };
        snapshots = [snapshot];
        return snapshot;
      },
      'GET /__qa/ledger/check': () => ({
        balanced: true,
        total: 0,
        negativeWallets: [],
        mismatchedWallets: [],
      }),
    });
    renderWithPanel();
    const { user } = await openPanel('Data');
    const name = await screen.findByLabelText('Snapshot name');
    await user.type(name, 'bad name');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Letters, digits, '-' or '_' (up to 64)")).toBeVisible();
    expect(qa.posted('/__qa/snapshots')).toHaveLength(0);
    await user.clear(name);
    await user.type(name, 'before-test');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('qa-snapshot-before-test')).toHaveTextContent('40 KB');
    expect(screen.getByRole('button', { name: 'Restore before-test' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Check ledger' }));
    expect(await screen.findByTestId('qa-ledger-result')).toHaveTextContent('Ledger OK');
    expect(screen.getByTestId('qa-ledger-result')).toHaveTextContent(
      'Balanced · 0 negative wallets · 0 mismatched wallets',
    );
  });
});

describe('QA panel: Journal', () => {
  it('lists recent calls and opens one for its redacted bodies', async () => {
    fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/journal': () => [
        {
          id: 2,
          time: NOW,
          requestId: 'r2',
          method: 'POST',
          url: '/user/login',
          path: '/user/login',
          procedure: 'user.login',
          transport: 'rest',
          status: 200,
          durationMs: 12.5,
          member: 'demo',
          requestHeaders: {},
          requestBody: { username: 'demo', password: '[redacted]' },
          responseBody: { JWT: '[redacted]' },
          fault: null,
          pending: false,
        },
      ],
    });
    renderWithPanel();
    const { user } = await openPanel('Journal');
    const entry = await screen.findByTestId('qa-journal-entry');
    expect(entry).toHaveTextContent('POST/user/login200');
    expect(entry).toHaveTextContent('12.5 ms');
    const details = entry.querySelector('details')!;
    expect(details.open).toBe(false);
    await user.click(within(entry).getByText('/user/login', { selector: 'span' }));
    expect(details.open).toBe(true);
    expect(within(entry).getByText(/"password": "\[redacted\]"/)).toBeInTheDocument();
  });
});

describe('QA panel: Drift', () => {
  const FINDINGS = [
    {
      path: '/binary/view_binary_downline',
      field: 'Success.Downline[].Side',
      kind: 'value',
      expected: '"0" | "1"',
      seen: 'L',
      count: 3,
      firstSeen: '2027-01-08T09:00:00.000Z',
      lastSeen: NOW,
    },
    {
      path: '/wallet/view_all_wallets_details',
      field: 'Success{}.Available',
      kind: 'type',
      expected: 'number',
      seen: '12.5',
      count: 1,
      firstSeen: NOW,
      lastSeen: NOW,
    },
    {
      path: '/rank/current_rank',
      field: 'Success.Rank',
      kind: 'missing',
      expected: 'string',
      count: 1,
      firstSeen: NOW,
      lastSeen: NOW,
    },
  ];

  it('lists each finding with its endpoint, field, kind, expectation, example, count and times; Clear empties it', async () => {
    let findings: unknown[] = FINDINGS;
    const { calls } = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/drift': () => findings,
      'DELETE /__qa/drift': () => {
        const deleted = findings.length;
        findings = [];
        return { deleted };
      },
    });
    renderWithPanel();
    const { user, panel } = await openPanel('Drift');
    const items = await screen.findAllByTestId('qa-drift-entry');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveAccessibleName('/binary/view_binary_downline Success.Downline[].Side: value');
    expect(items[0]).toHaveTextContent('value/binary/view_binary_downline3 times');
    expect(items[0]).toHaveTextContent('Expected "0" | "1" · seen "L"');
    // London time of the server's instants.
    expect(items[0]).toHaveTextContent('First 08 Jan, 09:00:00 · last 08 Jan, 12:00:00');
    // A string where a number belongs shows its quotes; a missing field shows that nothing came.
    expect(items[1]).toHaveTextContent('Expected number · seen "12.5"');
    expect(items[2]).toHaveTextContent('once');
    expect(items[2]).toHaveTextContent('Expected string · not sent');

    await user.click(within(panel).getByRole('button', { name: 'Clear' }));
    expect(
      await within(panel).findByText('No drift: every provider answer so far matches the contract.'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE' && c.path === '/__qa/drift')).toHaveLength(1);
    expect(screen.queryAllByTestId('qa-drift-entry')).toHaveLength(0);
    // Nothing left to clear.
    expect(within(panel).getByRole('button', { name: 'Clear' })).toBeDisabled();
  });

  it('refreshes on demand and shows the server’s refusal', async () => {
    let answer: () => unknown = () => [];
    fakeQa({ 'GET /__qa/clock': clockRoute, 'GET /__qa/drift': () => answer() });
    renderWithPanel();
    const { user, panel } = await openPanel('Drift');
    expect(
      await within(panel).findByText('No drift: every provider answer so far matches the contract.'),
    ).toBeInTheDocument();
    answer = () => [FINDINGS[0]];
    await user.click(within(panel).getByRole('button', { name: 'Refresh drift' }));
    expect(await screen.findByTestId('qa-drift-entry')).toHaveTextContent('Success.Downline[].Side');
    answer = () => {
      throw new Error('QA control is off');
    };
    await user.click(within(panel).getByRole('button', { name: 'Refresh drift' }));
    expect(await within(panel).findByText('QA control is off')).toBeInTheDocument();
  });
});

describe('QA panel: worlds', () => {
  const WORLD = {
    id: 'w-AAAAAAAAAAAAAAAAAAAAAA',
    from: 'demo',
    createdAt: NOW,
    lastUsedAt: NOW,
    expiresAt: '2027-01-08T14:00:00.000Z',
    ttlMinutes: 120,
  };
  const OTHER = { ...WORLD, id: 'w-BBBBBBBBBBBBBBBBBBBBBB', from: 'snapshot:payday' };
  const routes = (current: typeof WORLD | null) => ({
    'GET /__qa/clock': clockRoute,
    'GET /__qa/worlds/current': () => ({ world: current, named: current?.id ?? null }),
    'GET /__qa/worlds': () => ({ max: 100, worlds: [WORLD, OTHER] }),
    'GET /__qa/scenarios': () => [
      { name: 'demo', description: '' },
      { name: 'empty', description: '' },
    ],
    'GET /__qa/snapshots': () => [{ name: 'payday', size: 1024, createdAt: NOW }],
    'POST /__qa/worlds': (body: unknown) => ({
      ...WORLD,
      id: 'w-CCCCCCCCCCCCCCCCCCCCCC',
      ...(body as object),
      enter: '/__qa/worlds/w-CCCCCCCCCCCCCCCCCCCCCC/enter',
    }),
    'DELETE /__qa/worlds/w-BBBBBBBBBBBBBBBBBBBBBB': () => ({ deleted: OTHER.id }),
  });

  it('shows the world the tab is in, in the header and the tab, and leaves it through the server', async () => {
    fakeQa(routes(WORLD));
    const go = vi.spyOn(worldDoor, 'go').mockImplementation(() => {});
    renderWithPanel({ qaWorld: WORLD.id });
    const { user, panel } = await openPanel('Worlds');
    expect(await within(panel).findByTestId('qa-world-line')).toHaveTextContent(`world ${WORLD.id}`);
    const current = await within(panel).findByTestId('qa-world-current');
    expect(current).toHaveTextContent(WORLD.id);
    expect(current).toHaveTextContent('from demo');
    await user.click(within(current).getByRole('button', { name: 'Leave' }));
    expect(go).toHaveBeenCalledWith('/__qa/worlds/leave');
    // The list marks this world and offers to enter the other.
    expect(await within(panel).findByTestId(`qa-world-${WORLD.id}`)).toHaveTextContent('here');
    await user.click(within(panel).getByRole('button', { name: `Enter ${OTHER.id}` }));
    expect(go).toHaveBeenLastCalledWith(`/__qa/worlds/${OTHER.id}/enter`);
    go.mockRestore();
  });

  it('makes a world from a snapshot with its idle minutes and enters it; deletes another', async () => {
    const { posted, calls } = fakeQa(routes(null));
    const go = vi.spyOn(worldDoor, 'go').mockImplementation(() => {});
    renderWithPanel();
    const { user, panel } = await openPanel('Worlds');
    expect(await within(panel).findByTestId('qa-world-current')).toHaveTextContent('The default world');
    expect(within(panel).getByTestId('qa-world-line')).toHaveTextContent('default world');
    await within(panel).findByRole('option', { name: 'snapshot payday' });
    await user.selectOptions(within(panel).getByLabelText('From'), 'snapshot:payday');
    const minutes = within(panel).getByLabelText('Idle minutes');
    await user.clear(minutes);
    await user.type(minutes, '0');
    await user.click(within(panel).getByRole('button', { name: 'Create and enter' }));
    expect(await within(panel).findByText('1 to 10,080')).toBeInTheDocument();
    expect(posted('/__qa/worlds')).toHaveLength(0);
    await user.clear(minutes);
    await user.type(minutes, '45');
    await user.click(within(panel).getByRole('button', { name: 'Create and enter' }));
    await waitFor(() => expect(go).toHaveBeenCalledWith('/__qa/worlds/w-CCCCCCCCCCCCCCCCCCCCCC/enter'));
    expect(posted('/__qa/worlds').map((c) => c.body)).toEqual([{ from: 'snapshot:payday', ttlMinutes: 45 }]);
    await user.click(within(panel).getByRole('button', { name: `Delete ${OTHER.id}` }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([
        `/__qa/worlds/${OTHER.id}`,
      ]),
    );
    go.mockRestore();
  });

  it('does what curl does: a name and a client mode, a state from a file, a link to hand over, the 2FA code', async () => {
    const NAMED = { ...OTHER, name: 'Payday bug' };
    const { posted } = fakeQa({
      ...routes({ ...WORLD, name: 'Mine' } as typeof WORLD),
      'GET /__qa/worlds': () => ({ max: 100, worlds: [WORLD, NAMED] }),
      'GET /__qa/totp': () => [
        { username: 'demo2fa', code: '482913', expiresInSeconds: 12 },
        { username: 'secured', code: '100200', expiresInSeconds: 12 },
      ],
    });
    const go = vi.spyOn(worldDoor, 'go').mockImplementation(() => {});
    renderWithPanel({ qaWorld: WORLD.id, qaWorldName: 'Mine' });
    const { user, panel } = await openPanel('Worlds');
    expect(within(panel).getByTestId('qa-world-line')).toHaveTextContent(`world Mine (${WORLD.id})`);

    const current = await within(panel).findByTestId('qa-world-current');
    expect(current).toHaveTextContent('Mine');
    const codes = await within(current).findByTestId('qa-world-totp');
    expect(codes).toHaveTextContent("demo2fa's 2FA code by this world's clock: 482913 (12 s left)");
    expect(codes).toHaveTextContent("secured's 2FA code by this world's clock: 100200 (12 s left)");
    expect(await within(panel).findByTestId(`qa-world-${OTHER.id}`)).toHaveTextContent('Payday bug');
    await user.click(within(panel).getByRole('button', { name: `Copy link to ${OTHER.id}` }));
    // user-event's clipboard stands in for the browser's.
    await waitFor(async () =>
      expect(await navigator.clipboard.readText()).toBe(
        `${window.location.origin}/__qa/worlds/${OTHER.id}/enter`,
      ),
    );

    const form = within(panel).getByRole('form', { name: 'Make a world' });
    await user.type(within(form).getByLabelText('Name (optional)'), 'Release check');
    await user.selectOptions(within(form).getByLabelText('Client mode'), 'provider');
    await user.click(within(form).getByRole('button', { name: 'Create and enter' }));
    await waitFor(() =>
      expect(posted('/__qa/worlds').map((c) => c.body)).toEqual([
        { from: 'demo', ttlMinutes: 120, name: 'Release check', clientMode: 'provider' },
      ]),
    );

    await user.selectOptions(within(form).getByLabelText('From'), ':state');
    const state = '{ "members": [{ "username": "ann" }] }';
    await user.upload(
      within(form).getByLabelText('Or load it from a file'),
      new File([state], 'ann.json', { type: 'application/json' }),
    );
    await waitFor(() => expect(within(form).getByLabelText('Declared state (JSON)')).toHaveValue(state));
    go.mockRestore();
  });

  it('saves a world as a file, and imports a file as a new world showing what could not travel', async () => {
    const FILE = new Blob(['SQLite format 3\u0000…'], { type: 'application/vnd.sqlite3' });
    const { calls } = fakeQa({
      ...routes(null),
      [`GET /__qa/worlds/${OTHER.id}/export`]: () => FILE,
      'POST /__qa/worlds/import': (body) =>
        body instanceof Blob && body.size > 10
          ? {
              ...WORLD,
              id: 'w-DDDDDDDDDDDDDDDDDDDDDD',
              from: 'import (demo)',
              enter: '/__qa/worlds/w-DDDDDDDDDDDDDDDDDDDDDD/enter',
              exportedAt: NOW,
              notCarried: ['routing of user.view_profile to recording:monday: recordings do not travel'],
            }
          : reply(400, { Error: 'This is not a world file: export one with GET /__qa/worlds/{id}/export' }),
    });
    const saved: { href: string; download: string }[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: () => 'blob:world', revokeObjectURL: () => {} }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push({ href: this.href, download: this.download });
    });
    const go = vi.spyOn(worldDoor, 'go').mockImplementation(() => {});
    renderWithPanel();
    const { user, panel } = await openPanel('Worlds');

    await user.click(await within(panel).findByRole('button', { name: `Export ${OTHER.id}` }));
    await waitFor(() =>
      expect(saved).toEqual([{ href: 'blob:world', download: `${OTHER.id}.world.sqlite` }]),
    );
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain(`GET /__qa/worlds/${OTHER.id}/export`);
    // The default world, from the tab's own line.
    expect(within(panel).getByRole('button', { name: 'Export default' })).toBeInTheDocument();

    const form = within(panel).getByRole('form', { name: 'Import a world' });
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(form).findByText('Choose a file exported from a world')).toBeInTheDocument();
    await user.upload(within(form).getByLabelText('World file'), new File(['tiny'], 'notes.sqlite'));
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect(await within(panel).findByText(/^This is not a world file/)).toBeInTheDocument();

    await user.upload(
      within(form).getByLabelText('World file'),
      new File(['SQLite format 3\u0000 rows'], `${OTHER.id}.world.sqlite`),
    );
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    const built = await within(panel).findByTestId('qa-world-built');
    expect(built).toHaveTextContent('w-DDDDDDDDDDDDDDDDDDDDDD');
    expect(built).toHaveTextContent('from import (demo)');
    expect(built).toHaveTextContent('Not carried: routing of user.view_profile to recording:monday');
    const imports = calls.filter((c) => c.path.startsWith('/__qa/worlds/import'));
    expect(imports.map((c) => c.path)).toEqual([
      '/__qa/worlds/import?ttlMinutes=120',
      '/__qa/worlds/import?ttlMinutes=120',
    ]);
    expect(imports.every((c) => c.body instanceof Blob)).toBe(true);
    await user.click(within(built).getByRole('button', { name: 'Enter the new world' }));
    expect(go).toHaveBeenCalledWith('/__qa/worlds/w-DDDDDDDDDDDDDDDDDDDDDD/enter');
    click.mockRestore();
    go.mockRestore();
  });
});

describe('QA panel: jobs (long operations)', () => {
  afterEach(() => sessionStorage.clear());

  /** A promise the test settles: a long poll the fake holds until the test lets it answer. */
  function gate() {
    let open!: (value: unknown) => void;
    const promise = new Promise<unknown>((resolve) => (open = resolve));
    return { promise, open };
  }
  /** Answers `answers` in turn, then the last one again. */
  const inTurn =
    (...answers: unknown[]) =>
    () =>
      answers.length > 1 ? answers.shift() : answers[0];

  const clockJob = (fields: object = {}) => ({
    id: 'j-clock',
    kind: 'clock',
    world: null,
    client: '127.0.0.1',
    state: 'running',
    progress: { runs: { done: 0, total: 7 } },
    createdAt: NOW,
    finishedAt: null,
    url: '/__qa/jobs/j-clock',
    ...fields,
  });
  const ended = { finishedAt: NOW };
  const jobCalls = (calls: Call[]) =>
    calls.filter((c) => c.path.startsWith('/__qa/jobs')).map((c) => `${c.method} ${c.path}`);

  it('a clock move that owes runs shows its progress, then what ran, and refreshes the app when done', async () => {
    const finish = gate();
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'POST /__qa/clock': () => reply(202, clockJob()),
      'GET /__qa/jobs/j-clock': inTurn(
        clockJob({ progress: { runs: { done: 3, total: 7 } } }),
        finish.promise,
      ),
    });
    renderWithPanel();
    await screen.findByText('Member page (loaded 1×)');
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: '+1 day' }));
    const job = await within(panel).findByTestId('qa-job');
    await waitFor(() =>
      expect(within(job).getByRole('progressbar', { name: 'Runs' })).toHaveAttribute(
        'aria-valuetext',
        '3 of 7 (42%)',
      ),
    );
    expect(job).toHaveTextContent('+1 dayRunning');
    expect(within(panel).queryByTestId('qa-clock-result')).toBeNull();
    // No second move beside a running one.
    expect(within(panel).getByRole('button', { name: '+1 hour' })).toBeDisabled();
    // Long polls (?wait=2), one after another: the panel is not busy-looping.
    await waitFor(() => expect(jobCalls(qa.calls)).toHaveLength(2));
    expect(new Set(jobCalls(qa.calls))).toEqual(new Set(['GET /__qa/jobs/j-clock?wait=2']));
    await screen.findByText('Member page (loaded 2×)');

    finish.open(
      clockJob({
        ...ended,
        state: 'done',
        progress: { runs: { done: 7, total: 7 } },
        result: {
          now: '2027-01-15T12:00:00.000Z',
          ran: [
            { job: 'binary', date: '2027-01-09', summary: '3 members paid' },
            { job: 'roi', date: '2027-01-11', summary: '' },
          ],
        },
      }),
    );
    const result = await within(panel).findByTestId('qa-clock-result');
    expect(result).toHaveTextContent('+1 day: now Fri, 15 Jan 2027, 12:00:00 GMT');
    expect(
      within(within(result).getByRole('list', { name: 'Runs that ran' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['binary 2027-01-09 — 3 members paid', 'roi 2027-01-11']);
    expect(within(panel).queryByTestId('qa-job')).toBeNull();
    // The member's pages are read again once the runs have paid, not only when the move started.
    await screen.findByText('Member page (loaded 3×)');
    expect(within(panel).getByRole('button', { name: '+1 hour' })).toBeEnabled();
    expect(jobCalls(qa.calls)).toHaveLength(2);
  });

  it('Cancel deletes the job and says Cancelled, with the runs done before it stopped', async () => {
    const poll = gate();
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'POST /__qa/clock': () => reply(202, clockJob({ progress: { runs: { done: 1, total: 5 } } })),
      'GET /__qa/jobs/j-clock': () => poll.promise,
      'DELETE /__qa/jobs/j-clock': () =>
        clockJob({
          ...ended,
          state: 'cancelled',
          progress: { runs: { done: 2, total: 5 } },
          result: { now: '2027-01-09T11:00:00.000Z', ran: [{ job: 'binary', date: '2027-01-09' }] },
        }),
    });
    renderWithPanel();
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: '+1 day' }));
    const job = await within(panel).findByTestId('qa-job');
    expect(within(job).getByRole('progressbar', { name: 'Runs' })).toHaveAttribute(
      'aria-valuetext',
      '1 of 5 (20%)',
    );
    await user.click(within(job).getByRole('button', { name: 'Cancel' }));
    expect(await within(job).findByText('Cancelled')).toBeInTheDocument();
    expect(jobCalls(qa.calls).filter((c) => c.startsWith('DELETE'))).toEqual(['DELETE /__qa/jobs/j-clock']);
    expect(within(job).queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(within(job).queryByRole('progressbar')).toBeNull();
    expect(within(job).getByTestId('qa-clock-result')).toHaveTextContent(
      '+1 day: now Sat, 09 Jan 2027, 11:00:00 GMT',
    );
    expect(within(job).getByRole('list', { name: 'Runs that ran' })).toHaveTextContent('binary 2027-01-09');
    expect(within(panel).getByRole('button', { name: '+1 hour' })).toBeEnabled();
    poll.open(clockJob({ ...ended, state: 'cancelled' }));
  });

  it('a job still running when QA looks at another tab is followed again on coming back', async () => {
    const finish = gate();
    const qa = fakeQa({
      'GET /__qa/clock': clockRoute,
      'GET /__qa/mailbox': () => [],
      'POST /__qa/clock': () => reply(202, clockJob()),
      'GET /__qa/jobs/j-clock': () => finish.promise,
    });
    renderWithPanel();
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Next ROI run' }));
    await within(panel).findByTestId('qa-job');
    await user.click(within(panel).getByRole('tab', { name: 'Mailbox' }));
    await waitFor(() => expect(within(panel).queryByTestId('qa-job')).toBeNull());
    await user.click(within(panel).getByRole('tab', { name: 'Clock' }));
    const job = await within(panel).findByTestId('qa-job');
    expect(job).toHaveTextContent('Next ROI run');
    expect(within(panel).getByRole('button', { name: '+1 day' })).toBeDisabled();
    await waitFor(() => expect(jobCalls(qa.calls)).toHaveLength(2));
    finish.open(clockJob({ ...ended, state: 'done', result: { now: '2027-01-11T00:05:00.000Z', ran: [] } }));
    expect(await within(panel).findByTestId('qa-clock-result')).toHaveTextContent(
      'Next ROI run: now Mon, 11 Jan 2027, 00:05:00 GMT',
    );
    expect(sessionStorage.length).toBe(0);
  });

  const BUILT = {
    id: 'w-DDDDDDDDDDDDDDDDDDDDDD',
    from: 'empty',
    createdAt: NOW,
    lastUsedAt: NOW,
    expiresAt: '2027-01-08T14:00:00.000Z',
    ttlMinutes: 120,
    createdBy: '127.0.0.1',
    entered: 0,
    lastEnteredAt: null,
    busy: 0,
    enter: '/__qa/worlds/w-DDDDDDDDDDDDDDDDDDDDDD/enter',
  };
  const worldJob = (fields: object = {}) => ({
    ...clockJob(),
    id: 'j-world',
    kind: 'world',
    progress: {},
    url: '/__qa/jobs/j-world',
    ...fields,
  });
  const worldRoutes = (live: { worlds: unknown[] }) => ({
    'GET /__qa/clock': clockRoute,
    'GET /__qa/worlds/current': () => ({ world: null, named: null }),
    'GET /__qa/worlds': () => ({ max: 100, perClient: 10, worlds: live.worlds, history: [] }),
    'GET /__qa/scenarios': () => [{ name: 'demo', description: '' }],
    'GET /__qa/snapshots': () => [],
  });
  const STATE = { date: '2026-03-04T12:00:00Z', members: [{ username: 'ann' }] };

  it('builds a world from a pasted declared state: its progress, then the new world to enter', async () => {
    const live = { worlds: [] as unknown[] };
    const finish = gate();
    const qa = fakeQa({
      ...worldRoutes(live),
      'POST /__qa/worlds': () => reply(202, worldJob()),
      'GET /__qa/jobs/j-world': inTurn(
        worldJob({ progress: { members: { done: 1200, total: 20000 }, runs: { done: 0, total: 3 } } }),
        finish.promise,
      ),
    });
    const go = vi.spyOn(worldDoor, 'go').mockImplementation(() => {});
    renderWithPanel();
    const { user, panel } = await openPanel('Worlds');
    expect(await within(panel).findByText('No worlds yet.')).toBeInTheDocument();
    expect(within(panel).queryByLabelText('Declared state (JSON)')).toBeNull();
    await user.selectOptions(within(panel).getByLabelText('From'), 'a declared state (JSON)…');
    const text = within(panel).getByLabelText('Declared state (JSON)');
    await user.type(text, 'not json');
    await user.click(within(panel).getByRole('button', { name: 'Build' }));
    expect(await within(panel).findByText(/^Not JSON/)).toBeInTheDocument();
    expect(qa.posted('/__qa/worlds')).toHaveLength(0);

    await user.clear(text);
    await user.click(text);
    await user.paste(JSON.stringify(STATE));
    await user.click(within(panel).getByRole('button', { name: 'Build' }));
    await waitFor(() =>
      expect(qa.posted('/__qa/worlds').map((c) => c.body)).toEqual([{ state: STATE, ttlMinutes: 120 }]),
    );
    const job = await within(panel).findByTestId('qa-job');
    await waitFor(() =>
      expect(within(job).getByRole('progressbar', { name: 'Members' })).toHaveAttribute(
        'aria-valuetext',
        '1,200 of 20,000 (6%)',
      ),
    );
    expect(within(job).getByRole('progressbar', { name: 'Runs' })).toHaveAttribute(
      'aria-valuetext',
      '0 of 3 (0%)',
    );
    expect(within(panel).getByRole('button', { name: 'Build' })).toBeDisabled();

    live.worlds = [BUILT];
    finish.open(worldJob({ ...ended, state: 'done', result: BUILT }));
    const built = await within(panel).findByTestId('qa-world-built');
    expect(built).toHaveTextContent(BUILT.id);
    expect(within(panel).queryByTestId('qa-job')).toBeNull();
    // The list is read again when the build ends.
    expect(await within(panel).findByTestId(`qa-world-${BUILT.id}`)).toBeInTheDocument();
    expect(go).not.toHaveBeenCalled();
    await user.click(within(built).getByRole('button', { name: 'Enter the new world' }));
    expect(go).toHaveBeenCalledWith(BUILT.enter);
    go.mockRestore();
  });

  it('a build that fails says why', async () => {
    const message = "state.members[0].packages[0].plan: Unknown plan 'Gold'";
    fakeQa({
      ...worldRoutes({ worlds: [] }),
      'POST /__qa/worlds': () => reply(202, worldJob()),
      'GET /__qa/jobs/j-world': () =>
        worldJob({ ...ended, state: 'failed', error: { status: 400, Error: message } }),
    });
    renderWithPanel();
    const { user, panel } = await openPanel('Worlds');
    await within(panel).findByText('No worlds yet.');
    await user.selectOptions(within(panel).getByLabelText('From'), 'a declared state (JSON)…');
    await user.click(within(panel).getByLabelText('Declared state (JSON)'));
    await user.paste(JSON.stringify(STATE));
    await user.click(within(panel).getByRole('button', { name: 'Build' }));
    expect(await within(panel).findByText(`Building a world: ${message}`)).toBeInTheDocument();
    expect(within(panel).queryByTestId('qa-world-built')).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Build' })).toBeEnabled();
  });

  it('lists who made each world, how often it was entered, whether it is busy, and the latest 10 events', async () => {
    const world = (id: string, fields: object) => ({ ...BUILT, id, from: 'demo', ...fields });
    const history = Array.from({ length: 12 }, (_, i) => ({
      at: `2027-01-08T10:${String(i).padStart(2, '0')}:00.000Z`,
      world: `w-${String(i).padStart(22, '0')}`,
      event: i % 2 ? 'entered' : 'created',
      client: 'ci',
      ...(i % 2 ? {} : { from: 'demo' }),
    }));
    fakeQa({
      ...worldRoutes({ worlds: [] }),
      'GET /__qa/worlds': () => ({
        max: 100,
        perClient: 10,
        worlds: [
          world('w-EEEEEEEEEEEEEEEEEEEEEE', { createdBy: 'ci', entered: 3, busy: 1 }),
          world('w-FFFFFFFFFFFFFFFFFFFFFF', { createdBy: '127.0.0.1', entered: 0, busy: 0 }),
        ],
        history,
      }),
    });
    renderWithPanel();
    const { panel } = await openPanel('Worlds');
    const busy = await within(panel).findByTestId('qa-world-w-EEEEEEEEEEEEEEEEEEEEEE');
    expect(busy).toHaveTextContent('busy');
    expect(busy).toHaveTextContent('by ci · entered 3×');
    const idle = within(panel).getByTestId('qa-world-w-FFFFFFFFFFFFFFFFFFFFFF');
    expect(idle).not.toHaveTextContent('busy');
    expect(idle).toHaveTextContent('by 127.0.0.1 · entered 0×');
    const events = within(within(panel).getByRole('list', { name: 'Recent world events' })).getAllByRole(
      'listitem',
    );
    expect(events).toHaveLength(10);
    expect(events[0]).toHaveTextContent(`08 Jan, 10:11:00 w-${'0'.repeat(20)}11 entered by ci`);
    expect(events[9]).toHaveTextContent(`08 Jan, 10:02:00 w-${'0'.repeat(21)}2 made from demo by ci`);
  });
});

describe('QA panel: a server with a QA token', () => {
  const TOKEN = 'qa-token-0123456789abcdef';
  afterEach(() => sessionStorage.clear());

  it('asks for the token once on 401, retries with it, and sends it on every later call of the tab', async () => {
    const qa = fakeQa(
      {
        'GET /__qa/clock': clockRoute,
        'GET /__qa/scenarios': () => [{ name: 'demo', description: 'The demo members' }],
        'GET /__qa/snapshots': () => [],
        'GET /__qa/mailbox': () => [],
      },
      { qaToken: TOKEN },
    );
    renderWithPanel();
    const { user, panel } = await openPanel();
    const prompt = await within(panel).findByTestId('qa-token-prompt');
    expect(qa.calls.map((c) => [c.path, c.token])).toEqual([['/__qa/clock', null]]);
    // Calls refused while the prompt is up wait on the same prompt.
    await user.click(within(panel).getByRole('tab', { name: 'Data' }));
    await waitFor(() => expect(qa.calls.filter((c) => c.token === null)).toHaveLength(3));
    expect(within(panel).getAllByTestId('qa-token-prompt')).toEqual([prompt]);

    await user.type(within(prompt).getByLabelText('QA token'), TOKEN);
    await user.click(within(prompt).getByRole('button', { name: 'Use token' }));
    expect(await within(panel).findByText('The demo members')).toBeInTheDocument();
    expect(within(panel).queryByTestId('qa-token-prompt')).toBeNull();
    // Each refused call went again, once, with the token; the tab keeps it.
    for (const path of ['/__qa/clock', '/__qa/scenarios', '/__qa/snapshots'])
      expect(qa.calls.filter((c) => c.path === path).map((c) => c.token)).toEqual([null, TOKEN]);
    expect(sessionStorage.getItem('qaToken')).toBe(TOKEN);

    await user.click(within(panel).getByRole('tab', { name: 'Mailbox' }));
    await waitFor(() => expect(qa.calls.filter((c) => c.path === '/__qa/mailbox')).toHaveLength(1));
    expect(qa.calls.find((c) => c.path === '/__qa/mailbox')?.token).toBe(TOKEN);
    expect(qa.calls.filter((c) => c.token === null)).toHaveLength(3);
    expect(within(panel).queryByTestId('qa-token-prompt')).toBeNull();
  });

  it('says when the token is refused and asks again', async () => {
    const qa = fakeQa({ 'GET /__qa/clock': clockRoute }, { qaToken: TOKEN });
    renderWithPanel();
    const { user, panel } = await openPanel();
    await user.type(await within(panel).findByLabelText('QA token'), 'not-the-token');
    await user.click(within(panel).getByRole('button', { name: 'Use token' }));
    expect(await within(panel).findByText(QA_TOKEN_TEXT.refused)).toBeInTheDocument();
    expect(sessionStorage.getItem('qaToken')).toBeNull();

    await user.type(within(panel).getByLabelText('QA token'), TOKEN);
    await user.click(within(panel).getByRole('button', { name: 'Use token' }));
    await waitFor(() => expect(screen.getByTestId('qa-clock-utc')).toHaveTextContent('08 Jan 2027'));
    expect(qa.calls.map((c) => c.token)).toEqual([null, 'not-the-token', TOKEN]);
  });

  it('sends a token the tab already has without asking', async () => {
    sessionStorage.setItem('qaToken', TOKEN);
    const qa = fakeQa({ 'GET /__qa/clock': clockRoute }, { qaToken: TOKEN });
    renderWithPanel();
    const { panel } = await openPanel();
    await waitFor(() => expect(screen.getByTestId('qa-clock-utc')).toHaveTextContent('08 Jan 2027'));
    expect(within(panel).queryByTestId('qa-token-prompt')).toBeNull();
    expect(qa.calls.map((c) => c.token)).toEqual([TOKEN]);
  });

  it('on Cancel shows the refusal without asking again, until QA chooses to enter the token', async () => {
    const qa = fakeQa({ 'GET /__qa/clock': clockRoute }, { qaToken: TOKEN });
    renderWithPanel();
    const { user, panel } = await openPanel();
    await within(panel).findByTestId('qa-token-prompt');
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(await within(panel).findByText('QA token missing')).toBeInTheDocument();
    expect(within(panel).getByText(QA_TOKEN_TEXT.declined)).toBeInTheDocument();
    expect(qa.calls).toHaveLength(1);

    await user.click(within(panel).getByRole('button', { name: 'Enter token' }));
    await user.type(await within(panel).findByLabelText('QA token'), TOKEN);
    await user.click(within(panel).getByRole('button', { name: 'Use token' }));
    await waitFor(() => expect(screen.getByTestId('qa-clock-utc')).toHaveTextContent('08 Jan 2027'));
    expect(qa.calls.map((c) => c.token)).toEqual([null, null, TOKEN]);
  });
});
