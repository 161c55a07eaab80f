import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppProviders } from '@/app/providers.tsx';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { DataTable } from './data-table.tsx';
import type { DataColumn, PresetFilter } from './types.ts';
import { tableReducer, initialTableState } from './use-table-state.ts';

type Row = { DateTime: string; TransID: string; Amount: number; Type: string; By: string; Transfer: string; Wallet: string; Status: string };

const LIST = 'earning.view_all_earning_history';
const TOTAL = 'earning.total_pagination_earning_history';

const columns: readonly DataColumn<Row>[] = [
  { key: 'DateTime', header: 'Date', format: 'date' },
  { key: 'TransID', header: 'Transaction ID' },
  { key: 'Amount', header: 'Amount', format: 'money' },
  { key: 'By', header: 'By' },
];
const statusFilter: readonly PresetFilter[] = [{ column: 'Status', label: 'Status', options: ['ACTIVE', 'EXPIRED'] }];

const row = (over: Partial<Row>): Row => ({
  DateTime: '2024-03-05T10:20:00', TransID: 'T1', Amount: 10, Type: 'ROI', By: 'system', Transfer: 'in', Wallet: 'ROI', Status: 'Success', ...over,
});
/** Three rows per page, out of order, their TransID naming the page. */
const pageRows = (pageNo: number) => [
  row({ TransID: `P${pageNo}-b`, Amount: 20, By: '' }),
  row({ TransID: `P${pageNo}-a`, Amount: 5.678 }),
  row({ TransID: `P${pageNo}-c`, Amount: 300 }),
];

type Calls = { path: string; input: unknown }[];

function renderTable(handlers: MockHandlers = {}, props: { presetFilters?: readonly PresetFilter[] } = {}) {
  const calls: Calls = [];
  const all: MockHandlers = {
    [LIST]: (input) => ({ Success: pageRows(Number(input.pageNo)) }),
    [TOTAL]: () => ({ Success: 5 }),
    ...handlers,
  };
  render(
    <AppProviders config={testConfig} trpcClient={createMockClient(all, calls)}>
      <DataTable list={LIST} total={TOTAL} columns={columns as never} caption="History" {...props} />
    </AppProviders>,
  );
  return calls;
}

const listCalls = (calls: Calls) => calls.filter((c) => c.path === LIST).map((c) => c.input as Record<string, unknown>);
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
    expect(calls.find((c) => c.path === TOTAL)?.input).toEqual({ pageSize: 10, path: '/earning/total_pagination_earning_history' });
    const dates = screen.getAllByRole('cell').filter((cell) => cell.textContent === 'Mar 05, 2024 10:20');
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

  it('fails silently: no message and no rows when the list call fails', async () => {
    renderTable({ [LIST]: () => { throw new Error('boom'); }, [TOTAL]: () => { throw new Error('boom'); } });
    expect(await screen.findByText('No data available')).toBeInTheDocument();
    expect(screen.queryByText(/boom/)).toBeNull();
    expect(indicator()).toHaveTextContent('1 / 1');
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
    await waitFor(() => expect(lastList(calls)).toMatchObject({ start_date: '2024-01-01', end_date: '2024-02-01' }));

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastList(calls).pageNo).toBe(2));
    await user.click(screen.getByRole('button', { name: 'Filter by Status' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'ACTIVE' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ pageNo: 1, filters: { Status: ['ACTIVE'] } }));
    await user.click(screen.getByRole('menuitemcheckbox', { name: 'EXPIRED' }));
    await waitFor(() => expect(lastList(calls)).toMatchObject({ filters: { Status: ['ACTIVE', 'EXPIRED'] } }));
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
    expect(tableReducer({ ...initialTableState, page: 5 }, { type: 'page', value: 6, totalPages: 5 }).page).toBe(5);
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
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({ matches: query.includes('max-width'), media: query, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {} }) as unknown as MediaQueryList,
    );
    const user = userEvent.setup();
    const calls = renderTable();
    const cards = await screen.findAllByTestId('data-card');
    expect(cards).toHaveLength(3);
    expect(within(cards[0]!).getByText('Transaction ID:')).toBeInTheDocument();
    expect(screen.queryByTestId('data-table')).toBeNull();
    expect(screen.queryByPlaceholderText('Search transactions...')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    const panel = screen.getByRole('region', { name: 'Filters' });
    await user.type(within(panel).getByPlaceholderText('Search transactions...'), 'zz');
    await waitFor(() => expect(lastList(calls)).toMatchObject({ search: ['zz'] }));
    await user.click(within(panel).getByRole('button', { name: 'Clear Filters' }));
    expect(within(panel).getByPlaceholderText('Search transactions...')).toHaveValue('');
  });
});
