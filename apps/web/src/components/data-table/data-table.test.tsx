import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { mockMediaQueries } from '@/testing/media.ts';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { createAppTrpcClient } from '@/lib/trpc.ts';
import { MSG } from '@md/shared';
import { DataTable } from './data-table.tsx';
import type { DataColumn, PresetFilter } from './types.ts';
import { tableReducer, initialTableState } from './use-table-state.ts';

type Row = {
  DateTime: string;
  TransID: string;
  Amount: number;
  Type: string;
  By: string;
  Transfer: string;
  Wallet: string;
  Status: string;
};

const LIST = 'earning.view_all_earning_history';
const TOTAL = 'earning.total_pagination_earning_history';

const columns: readonly DataColumn<Row>[] = [
  { key: 'DateTime', header: 'Date', format: 'date' },
  { key: 'TransID', header: 'Transaction ID' },
  { key: 'Amount', header: 'Amount', format: 'money' },
  { key: 'By', header: 'By' },
];
const statusFilter: readonly PresetFilter[] = [
  { column: 'Status', label: 'Status', options: ['ACTIVE', 'EXPIRED'] },
];

const row = (over: Partial<Row>): Row => ({
  DateTime: '2024-03-05T10:20:00',
  TransID: 'T1',
  Amount: 10,
  Type: 'ROI',
  By: 'system',
  Transfer: 'in',
  Wallet: 'ROI',
  Status: 'Success',
  ...over,
});
/** Three rows per page, out of order, their TransID naming the page. */
const pageRows = (pageNo: number) => [
  row({ TransID: `P${pageNo}-b`, Amount: 20, By: '' }),
  row({ TransID: `P${pageNo}-a`, Amount: 5.678 }),
  row({ TransID: `P${pageNo}-c`, Amount: 300 }),
];

type Calls = { path: string; input: unknown }[];

function renderTable(
  handlers: MockHandlers = {},
  {
    columns: shown = columns,
    ...props
  }: { presetFilters?: readonly PresetFilter[]; columns?: readonly DataColumn<Row>[] } = {},
) {
  const calls: Calls = [];
  const all: MockHandlers = {
    [LIST]: (input) => ({ Success: pageRows(Number(input.pageNo)) }),
    [TOTAL]: () => ({ Success: 5 }),
    ...handlers,
  };
  render(
    <TestProviders config={testConfig} trpcClient={createMockClient(all, calls)}>
      <DataTable list={LIST} total={TOTAL} columns={shown as never} caption="History" {...props} />
    </TestProviders>,
  );
  return calls;
}

const listCalls = (calls: Calls) =>
  calls.filter((c) => c.path === LIST).map((c) => c.input as Record<string, unknown>);
const lastList = (calls: Calls) => listCalls(calls).at(-1)!;
const indicator = () => screen.getByTestId('page-indicator');
const bodyIds = () =>
  within(screen.getByTestId('data-table'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[1]?.textContent);

afterEach(() => vi.restoreAllMocks());

describe('DataTable', () => {
  it('asks page 1 of 10 with the path, and shows rows: dates formatted, money, "-" for empty', async () => {
    const calls = renderTable();
    expect(await screen.findByText('P1-b')).toBeInTheDocument();
    expect(lastList(calls)).toEqual({ pageNo: 1, pageSize: 10, path: '/earning/view_all_earning_history' });
    expect(calls.find((c) => c.path === TOTAL)?.input).toEqual({
      pageSize: 10,
      path: '/earning/total_pagination_earning_history',
    });
    // In the member's zone, the zone named (a local time here: whatever zone the tests run in).
    const dates = screen
      .getAllByRole('cell')
      .filter((cell) => /^Mar 05, 2024 10:20 \S+$/.test(cell.textContent ?? ''));
    expect(dates).toHaveLength(3);
    // A narrow table may break a date before its time only.
    expect(within(dates[0]!).getByText('Mar 05, 2024')).toHaveStyle({ whiteSpace: 'nowrap' });
    expect(screen.getByText('$5.67')).toBeInTheDocument();
    const first = within(screen.getByTestId('data-table')).getAllByRole('row')[1]!;
    expect(within(first).getAllByRole('cell')[3]).toHaveTextContent('-');
    expect(indicator()).toHaveTextContent('1 / 5');
    expect(screen.getByRole('table')).toHaveAttribute('data-testid', 'data-table');
    expect(screen.getAllByRole('columnheader')[0]).toHaveAttribute('scope', 'col');
  });

  it('shows Loading... while the first page loads, then No data available for an empty page', async () => {
    let answer: (value: unknown) => void = () => {};
    renderTable({ [LIST]: () => new Promise((resolve) => (answer = resolve)) });
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    answer({ Success: [] });
    expect(await screen.findByText('No data available')).toBeInTheDocument();
  });

  it('a failed list call with a working total reads Unavailable with a Retry and nothing else (no No data, no pager at 1 / 18); nothing is toasted', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let fail = true;
    const calls = renderTable({
      [LIST]: (input) => {
        if (fail) throw new Error('boom');
        return { Success: pageRows(Number(input.pageNo)) };
      },
      [TOTAL]: () => ({ Success: 18 }),
    });
    const retry = await screen.findByRole('button', { name: 'Retry: History' });
    expect(screen.getByTestId('unavailable')).toHaveTextContent('Unavailable');
    expect(screen.queryByText(MSG.noData)).toBeNull();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
    // Spec §8: table calls fail silently: no toast, no server text on screen.
    expect(screen.queryByText(/boom/)).toBeNull();
    expect(document.querySelector('[data-scope="toast"][data-part="root"]')).toBeNull();
    fail = false;
    await user.click(retry);
    expect(await screen.findByText('P1-b')).toBeInTheDocument();
    expect(listCalls(calls)).toHaveLength(2);
    expect(screen.queryByTestId('unavailable')).toBeNull();
  });

  it('a hung table call ends at the deadline as Unavailable, silently: no timeout toast (spec §8)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    // The real client and its deadline; the server never answers.
    const hang: typeof fetch = (_input, init) =>
      new Promise((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    const client = createAppTrpcClient(
      { ...testConfig, requestTimeoutMs: 200 },
      { onUnauthorized: () => {}, getToken: () => 'jwt', fetch: hang },
    );
    render(
      <TestProviders config={testConfig} trpcClient={client}>
        <DataTable list={LIST} total={TOTAL} columns={columns as never} caption="History" />
      </TestProviders>,
    );
    expect(await screen.findByRole('button', { name: 'Retry: History' })).toBeInTheDocument();
    expect(screen.queryByText(MSG.noData)).toBeNull();
    expect(screen.queryByText(MSG.requestTimedOut)).toBeNull();
    expect(document.querySelector('[data-scope="toast"][data-part="root"]')).toBeNull();
  });

  it('sends the search (debounced), dates and preset filters, each going back to page 1', async () => {
    const user = userEvent.setup();
    const calls = renderTable({}, { presetFilters: statusFilter });
    await screen.findByText('P1-b');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('P2-b');

    await user.type(screen.getByPlaceholderText('Search transactions...'), 'abc');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ pageNo: 1, search: ['abc'] }));
    // Debounced: no call for the partial texts 'a' and 'ab'.
    expect(listCalls(calls).some((input) => JSON.stringify(input.search) === '["a"]')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(calls).pageNo).toBe(2));
    await user.type(screen.getByLabelText('Start date'), '2024-01-01');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ pageNo: 1, start_date: '2024-01-01' }));
    await user.type(screen.getByLabelText('End date'), '2024-02-01');
    await waitFor(() =>
      expect(lastList(calls)).toMatchObject({ start_date: '2024-01-01', end_date: '2024-02-01' }),
    );

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(calls).pageNo).toBe(2));
    await user.click(screen.getByRole('button', { name: 'Filter by Status' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'ACTIVE' }));
    await waitFor(() =>
      expect(lastList(calls)).toMatchObject({ pageNo: 1, filters: { Status: ['ACTIVE'] } }),
    );
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'EXPIRED' }));
    await waitFor(() =>
      expect(lastList(calls)).toMatchObject({ filters: { Status: ['ACTIVE', 'EXPIRED'] } }),
    );
  });

  it('jumps to a valid page on Enter or blur and reverts anything else', async () => {
    const user = userEvent.setup();
    const calls = renderTable();
    await screen.findByText('P1-b');
    const jump = screen.getByLabelText('Go to page');
    await user.clear(jump);
    await user.type(jump, '3{Enter}');
    expect(await screen.findByText('P3-b')).toBeInTheDocument();
    expect(indicator()).toHaveTextContent('3 / 5');
    expect(lastList(calls).pageNo).toBe(3);

    await user.clear(jump);
    await user.type(jump, '4');
    await user.tab();
    expect(await screen.findByText('P4-b')).toBeInTheDocument();

    for (const bad of ['9', '0', '2.5']) {
      await user.clear(jump);
      await user.type(jump, `${bad}{Enter}`);
      expect(jump).toHaveValue(4);
      expect(indicator()).toHaveTextContent('4 / 5');
    }
  });

  it('clamps paging to 1..total: previous is disabled on page 1 and next on the last page', async () => {
    const user = userEvent.setup();
    renderTable();
    await screen.findByText('P1-b');
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
    const jump = screen.getByLabelText('Go to page');
    await user.clear(jump);
    await user.type(jump, '5{Enter}');
    await screen.findByText('P5-b');
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(
      tableReducer({ ...initialTableState, page: 5 }, { type: 'page', value: 6, totalPages: 5 }).page,
    ).toBe(5);
    expect(tableReducer(initialTableState, { type: 'page', value: 0, totalPages: 5 }).page).toBe(1);
  });

  it('rows per page offers 10, 25 and 50 and going to 25 returns to page 1', async () => {
    const user = userEvent.setup();
    const calls = renderTable();
    await screen.findByText('P1-b');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('P2-b');
    const select = screen.getByLabelText('Rows per page:');
    expect([...(select as HTMLSelectElement).options].map((o) => o.value)).toEqual(['10', '25', '50']);
    await user.selectOptions(select, '25');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ pageNo: 1, pageSize: 25 }));
    expect(indicator()).toHaveTextContent('1 / 5');
  });

  it('sorts the current page ascending, then descending, then back to the server order', async () => {
    const user = userEvent.setup();
    const calls = renderTable();
    await screen.findByText('P1-b');
    const amount = screen.getByRole('button', { name: 'Amount' });
    const header = amount.closest('th')!;
    expect(header).toHaveAttribute('aria-sort', 'none');
    await user.click(amount);
    expect(bodyIds()).toEqual(['P1-a', 'P1-b', 'P1-c']);
    expect(header).toHaveAttribute('aria-sort', 'ascending');
    await user.click(amount);
    expect(bodyIds()).toEqual(['P1-c', 'P1-b', 'P1-a']);
    expect(header).toHaveAttribute('aria-sort', 'descending');
    await user.click(amount);
    expect(bodyIds()).toEqual(['P1-b', 'P1-a', 'P1-c']);
    // Client-side only: sorting made no call.
    expect(listCalls(calls)).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Transaction ID' }));
    expect(bodyIds()).toEqual(['P1-a', 'P1-b', 'P1-c']);
  });

  it('hides a column from the Columns chooser', async () => {
    const user = userEvent.setup();
    renderTable();
    await screen.findByText('P1-b');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'By' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'By' })).toBeNull());
    expect(screen.getByRole('columnheader', { name: 'Amount' })).toBeInTheDocument();
  });

  it('Clear Filters resets search, dates, columns, filters, page and sorting', async () => {
    const user = userEvent.setup();
    const calls = renderTable({}, { presetFilters: statusFilter });
    await screen.findByText('P1-b');
    await user.type(screen.getByPlaceholderText('Search transactions...'), 'x');
    await user.type(screen.getByLabelText('Start date'), '2024-01-01');
    await user.click(screen.getByRole('button', { name: 'Filter by Status' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'ACTIVE' }));
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'By' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ search: ['x'] }));
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await user.click(screen.getByRole('button', { name: 'Amount' }));
    await waitFor(() => expect(indicator()).toHaveTextContent('2 / 5'));

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(screen.getByPlaceholderText('Search transactions...')).toHaveValue('');
    expect(screen.getByLabelText('Start date')).toHaveValue('');
    expect(indicator()).toHaveTextContent('1 / 5');
    expect(screen.getByRole('columnheader', { name: 'By' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Amount' }).closest('th')).toHaveAttribute('aria-sort', 'none');
    // Back to the unfiltered first page (answered from the cache: no call with the old search).
    expect(await screen.findByText('P1-b')).toBeInTheDocument();
    expect(lastList(calls)).toMatchObject({ pageNo: 2, search: ['x'] });
  });

  it('below 768 px shows cards and puts the controls in a Filters panel behind a Filter button', async () => {
    mockPhone();
    const user = userEvent.setup();
    const calls = renderTable();
    const cards = await screen.findAllByTestId('data-card');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText('Transaction ID')).toBeInTheDocument();
    expect(screen.queryByTestId('data-table')).toBeNull();
    expect(screen.queryByPlaceholderText('Search transactions...')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    await user.type(within(panel).getByPlaceholderText('Search transactions...'), 'zz');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ search: ['zz'] }));
    await user.click(within(panel).getByRole('button', { name: 'Clear Filters' }));
    expect(within(panel).getByPlaceholderText('Search transactions...')).toHaveValue('');
  });

  it('below 768 px the cards can be sorted: a Sort by control and a direction, the current page only', async () => {
    mockPhone();
    const user = userEvent.setup();
    const calls = renderTable();
    await screen.findAllByTestId('data-card');
    const cardIds = () =>
      screen.getAllByTestId('data-card').map((card) => within(card).getByText(/^P1-/).textContent);
    expect(cardIds()).toEqual(['P1-b', 'P1-a', 'P1-c']);
    const direction = screen.getByRole('button', { name: 'Sort descending' });
    expect(direction).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Amount');
    expect(cardIds()).toEqual(['P1-a', 'P1-b', 'P1-c']);
    await user.click(direction);
    expect(cardIds()).toEqual(['P1-c', 'P1-b', 'P1-a']);
    expect(screen.getByRole('button', { name: 'Sort ascending' })).toBeEnabled();
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Default order');
    expect(cardIds()).toEqual(['P1-b', 'P1-a', 'P1-c']);
    expect(listCalls(calls)).toHaveLength(1);
  });

  it('below 768 px a card shows its summary columns; the others are a tap away', async () => {
    mockPhone();
    const user = userEvent.setup();
    const summary: readonly DataColumn<Row>[] = [
      { key: 'DateTime', header: 'Date', format: 'date' },
      { key: 'TransID', header: 'Transaction ID', summary: true },
      { key: 'Amount', header: 'Amount', format: 'money', summary: true },
      { key: 'By', header: 'By' },
    ];
    renderTable({}, { columns: summary });
    const [card] = await screen.findAllByTestId('data-card');
    expect(within(card!).getByText('Transaction ID')).toBeInTheDocument();
    expect(within(card!).getByText('$20.00')).toBeInTheDocument();
    expect(within(card!).queryByText('Date')).toBeNull();
    const more = within(card!).getByRole('button', { name: 'Show details (2)' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    expect(within(card!).getByText('Date')).toBeInTheDocument();
    expect(within(card!).getByText('Mar 05, 2024')).toBeInTheDocument();
    expect(within(card!).getByText('By')).toBeInTheDocument();
    expect(within(card!).getByRole('button', { name: 'Hide details' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });
});

/** Below 768 px: every max-width query matches. */
const mockPhone = () => mockMediaQueries((query) => query.includes('max-width'));
