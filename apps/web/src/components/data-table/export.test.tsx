import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { contract, tableInput } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient, MockFailure, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { CSV_BOM, csvField, csvRecord, exportValue, guardFormula } from './csv.ts';
import { DataTable } from './data-table.tsx';
import {
  EXPORT_PAGE_SIZE,
  ExportCancelled,
  csvFileName,
  exportRows,
  type CsvSink,
  type ExportProgress,
} from './export-rows.ts';
import type { DataColumn, PresetFilter } from './types.ts';

type Row = { DateTime: string; TransID: string; Amount: number | string; Note: string; Status: string };
const LIST = 'earning.view_all_earning_history';
const TOTAL = 'earning.total_pagination_earning_history';

const columns: readonly DataColumn<Row>[] = [
  { key: 'DateTime', header: 'Date', format: 'date' },
  { key: 'TransID', header: 'Transaction ID' },
  { key: 'Amount', header: 'Amount', format: 'money' },
  { key: 'Note', header: 'Note' },
  { key: 'Status', header: 'Status', render: (row) => <b>{row.Status}</b> },
];
const statusFilter: readonly PresetFilter[] = [
  { column: 'Status', label: 'Status', options: ['Success', 'Failed'] },
];

describe('CSV writer', () => {
  it('quotes per RFC 4180: commas, quotes, CR and LF; doubles quotes; ends records with CRLF', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('a\rb')).toBe('"a\rb"');
    expect(csvRecord(['a', 'b,c', ''])).toBe('a,"b,c",\r\n');
  });

  it('prefixes cells a spreadsheet would run as formulas (= + - @ tab CR), not plain numbers it wrote', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(guardFormula(`${start}SUM(A1)`)).toBe(`'${start}SUM(A1)`);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('\rX')).toBe('"\'\rX"');
    expect(guardFormula('-12.5')).toBe('-12.5');
    expect(guardFormula('-1+2')).toBe("'-1+2");
    expect(guardFormula('a=b')).toBe('a=b');
  });

  it('writes amounts as plain decimals, dates as ISO UTC, empty as empty, other values as they came', () => {
    expect(exportValue('money', 1500)).toBe('1500');
    expect(exportValue('money', 5.678)).toBe('5.678');
    expect(exportValue('money', '12.50')).toBe('12.5');
    expect(exportValue('money', 1234567.891234)).toBe('1234567.891234');
    expect(exportValue('money', 1e-7)).toBe('0.0000001');
    expect(exportValue('number', 20100)).toBe('20100');
    expect(exportValue('percent', 1.4)).toBe('1.4');
    expect(exportValue('money', 'n/a')).toBe('n/a');
    expect(exportValue('date', '2024-03-05T10:20:00.000Z')).toBe('2024-03-05T10:20:00Z');
    expect(exportValue('date', 'not a date')).toBe('not a date');
    expect(exportValue('text', null)).toBe('');
    expect(exportValue('money', '')).toBe('');
    expect(exportValue(undefined, 42)).toBe('42');
  });

  it('names the file after the table and the day', () => {
    expect(csvFileName('Earning history', new Date('2026-11-24T05:00:00Z'))).toBe(
      'earning-history-2026-11-24.csv',
    );
  });

  it('pages at the largest size the contract allows', () => {
    const base = { pageNo: 1, jwt: 'x' };
    expect(tableInput.safeParse({ ...base, pageSize: EXPORT_PAGE_SIZE }).success).toBe(true);
    expect(tableInput.safeParse({ ...base, pageSize: EXPORT_PAGE_SIZE + 1 }).success).toBe(false);
  });
});

/** A sink that records what was written and how it ended. */
function memorySink() {
  const chunks: string[] = [];
  const ended: string[] = [];
  const sink: CsvSink = {
    name: 'x.csv',
    write: async (chunk) => void chunks.push(chunk),
    close: async () => void ended.push('close'),
    abort: async () => void ended.push('abort'),
  };
  return { sink, chunks, ended, text: () => chunks.join('') };
}

const makeRows = (page: number, count: number) =>
  Array.from({ length: count }, (_, i): Row => ({
    DateTime: '2024-03-05T10:20:00Z',
    TransID: `P${page}-${i}`,
    Amount: i,
    Note: '',
    Status: 'Success',
  }));

describe('exportRows', () => {
  it('reads every page the total answers, writes BOM, header and each row, and reports progress', async () => {
    const { sink, text, ended } = memorySink();
    const progress: ExportProgress[] = [];
    const fetchPage = vi.fn(async (pageNo: number, size: number) => makeRows(pageNo, pageNo < 3 ? size : 1));
    const rows = await exportRows({
      source: { fetchTotalPages: async () => 3, fetchPage },
      columns: columns.slice(0, 3),
      sink,
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p),
      pageSize: 2,
    });
    expect(rows).toBe(5);
    expect(fetchPage.mock.calls.map((c) => c[0])).toEqual([1, 2, 3]);
    const lines = text().split('\r\n');
    expect(text().startsWith(CSV_BOM + 'Date,Transaction ID,Amount\r\n')).toBe(true);
    expect(lines.slice(1, 3)).toEqual(['2024-03-05T10:20:00Z,P1-0,0', '2024-03-05T10:20:00Z,P1-1,1']);
    expect(lines).toHaveLength(1 + 5 + 1);
    expect(progress.at(-1)).toEqual({ pagesDone: 3, totalPages: 3, rows: 5 });
    expect(progress.map((p) => p.pagesDone)).toEqual([0, 1, 2, 3]);
    expect(ended).toEqual(['close']);
  });

  it('reads on past the answered total while pages come back full (rows added meanwhile), within a bound', async () => {
    const { sink } = memorySink();
    const fetchPage = vi.fn(async (pageNo: number, size: number) => makeRows(pageNo, pageNo <= 4 ? size : 0));
    const rows = await exportRows({
      source: { fetchTotalPages: async () => 2, fetchPage },
      columns,
      sink,
      signal: new AbortController().signal,
      onProgress: () => {},
      pageSize: 2,
    });
    expect(rows).toBe(8);
    expect(fetchPage).toHaveBeenCalledTimes(5);
    const endless = vi.fn(async (pageNo: number, size: number) => makeRows(pageNo, size));
    await exportRows({
      source: { fetchTotalPages: async () => 2, fetchPage: endless },
      columns,
      sink,
      signal: new AbortController().signal,
      onProgress: () => {},
      pageSize: 2,
      maxExtraPages: 3,
    });
    expect(endless).toHaveBeenCalledTimes(5);
  });

  it('a failing page aborts the sink (nothing closed as complete) and throws its error', async () => {
    const { sink, ended } = memorySink();
    const fetchPage = async (pageNo: number, size: number) => {
      if (pageNo === 2) throw new Error('Server down');
      return makeRows(pageNo, size);
    };
    await expect(
      exportRows({
        source: { fetchTotalPages: async () => 3, fetchPage },
        columns,
        sink,
        signal: new AbortController().signal,
        onProgress: () => {},
        pageSize: 2,
      }),
    ).rejects.toThrow('Server down');
    expect(ended).toEqual(['abort']);
  });

  it('cancel stops between pages, aborts the sink and throws ExportCancelled', async () => {
    const { sink, ended } = memorySink();
    const controller = new AbortController();
    const fetchPage = vi.fn(async (pageNo: number, size: number) => {
      if (pageNo === 2) controller.abort();
      return makeRows(pageNo, size);
    });
    await expect(
      exportRows({
        source: { fetchTotalPages: async () => 5, fetchPage },
        columns,
        sink,
        signal: controller.signal,
        onProgress: () => {},
        pageSize: 2,
      }),
    ).rejects.toBeInstanceOf(ExportCancelled);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(ended).toEqual(['abort']);
  });
});

type Calls = { path: string; input: unknown }[];
const TOTAL_ROWS = 250;
/** 250 rows at 100 a page; notes that need quoting and guarding. */
const handlers = (over: MockHandlers = {}): MockHandlers => ({
  [LIST]: (input) => {
    const size = Number(input.pageSize);
    const start = (Number(input.pageNo) - 1) * size;
    const count = Math.max(0, Math.min(size, TOTAL_ROWS - start));
    return {
      Success: Array.from({ length: count }, (_, i): Row => ({
        DateTime: '2024-03-05T10:20:00Z',
        TransID: `T${start + i + 1}`,
        Amount: '12.50',
        Note: start + i === 0 ? '=1+1, "quoted"' : 'ok',
        Status: 'Success',
      })),
    };
  },
  [TOTAL]: (input) => ({ Success: Math.ceil(TOTAL_ROWS / Number(input.pageSize)) }),
  ...over,
});

function renderTable(all: MockHandlers) {
  const calls: Calls = [];
  render(
    <TestProviders config={testConfig} trpcClient={createMockClient(all, calls)}>
      <DataTable
        list={LIST}
        total={TOTAL}
        columns={columns as never}
        presetFilters={statusFilter}
        caption="History"
      />
    </TestProviders>,
  );
  return calls;
}

/** The Blob download path (no File System Access API in jsdom): the CSV of the last download. */
function captureDownloads() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  Object.defineProperty(URL, 'createObjectURL', {
    value: (blob: Blob) => (blobs.push(blob), 'blob:test'),
    configurable: true,
  });
  Object.defineProperty(URL, 'revokeObjectURL', { value: () => {}, configurable: true });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return { blobs, names };
}

const readBlob = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    // ignoreBOM keeps the byte order mark in the text, so the test sees it.
    reader.onload = () =>
      resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

async function openExport(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByText('T1');
  await user.click(screen.getByRole('button', { name: 'Export' }));
  return screen.findByRole('dialog', { name: 'Export History' });
}

describe('DataTable export', () => {
  beforeEach(() => {
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });
  afterEach(() => {
    vi.restoreAllMocks();
    delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
  });

  it('exports every page of the filtered rows with the chosen columns, through the table’s own calls', async () => {
    const user = userEvent.setup();
    const downloads = captureDownloads();
    const calls = renderTable(handlers());
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'abc');
    await user.click(screen.getByRole('button', { name: 'Filter by Status' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Success' }));
    await user.keyboard('{Escape}');
    // The visible columns are ticked: hide Note in the table first, so it starts unticked.
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Note' }));
    await user.keyboard('{Escape}');
    const dialog = await openExport(user);
    const box = (name: string) => within(dialog).getByRole('checkbox', { name });
    expect(box('Date')).toBeChecked();
    expect(box('Note')).not.toBeChecked();
    await user.click(box('Note'));
    await user.click(box('Transaction ID'));
    await user.click(within(dialog).getByRole('button', { name: 'Export CSV' }));
    expect(
      await within(dialog).findByText(
        'Exported 250 rows to history-' + new Date().toISOString().slice(0, 10) + '.csv.',
      ),
    ).toBeInTheDocument();

    const exportCalls = calls
      .filter((c) => (c.input as { pageSize?: number }).pageSize === EXPORT_PAGE_SIZE)
      .map((c) => ({ path: c.path, input: c.input }));
    const criteria = { search: ['abc'], filters: { Status: ['Success'] } };
    expect(exportCalls).toEqual([
      { path: TOTAL, input: { ...criteria, pageSize: 100, path: contract[TOTAL].path } },
      ...[1, 2, 3].map((pageNo) => ({
        path: LIST,
        input: { ...criteria, pageNo, pageSize: 100, path: contract[LIST].path },
      })),
    ]);
    expect(downloads.names).toEqual([`history-${new Date().toISOString().slice(0, 10)}.csv`]);
    expect(downloads.blobs[0]!.type).toBe('text/csv;charset=utf-8');
    const csv = await readBlob(downloads.blobs[0]!);
    expect(csv.startsWith(CSV_BOM)).toBe(true);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).toBe('Date,Amount,Note,Status');
    expect(lines[1]).toBe('2024-03-05T10:20:00Z,12.5,"\'=1+1, ""quoted""",Success');
    expect(lines.filter(Boolean)).toHaveLength(1 + TOTAL_ROWS);
  });

  it('follows the server’s Next_Cursor: rows that arrive meanwhile shift nothing, each row once', async () => {
    const user = userEvent.setup();
    const downloads = captureDownloads();
    // Newest first; a new row arrives at the top before every page after the first.
    let rows = Array.from({ length: TOTAL_ROWS }, (_, i) => TOTAL_ROWS - i);
    const page = (from: number, size: number) => {
      const out = rows.slice(from, from + size);
      const more = from + size < rows.length;
      return {
        Success: out.map((n): Row => ({
          DateTime: '2024-03-05T10:20:00Z',
          TransID: `T${n}`,
          Amount: '1',
          Note: '',
          Status: 'Success',
        })),
        Next_Cursor: more ? `after-${out.at(-1)}` : null,
      };
    };
    const calls = renderTable({
      ...handlers(),
      [LIST]: (input) => {
        if (typeof input.cursor !== 'string')
          return page((Number(input.pageNo) - 1) * Number(input.pageSize), Number(input.pageSize));
        rows = [rows[0]! + 1, ...rows];
        return page(rows.indexOf(Number(input.cursor.slice('after-'.length))) + 1, Number(input.pageSize));
      },
    });
    await screen.findByText('T250');
    await user.click(screen.getByRole('button', { name: 'Export' }));
    const dialog = await screen.findByRole('dialog', { name: 'Export History' });
    await user.click(within(dialog).getByRole('button', { name: 'Export CSV' }));
    expect(await within(dialog).findByText(/^Exported 250 rows/)).toBeInTheDocument();
    const listCalls = calls
      .filter((c) => c.path === LIST && (c.input as { pageSize?: number }).pageSize === EXPORT_PAGE_SIZE)
      .map((c) => c.input as { pageNo?: number; cursor?: string });
    expect(listCalls.map(({ pageNo, cursor }) => ({ pageNo, cursor }))).toEqual([
      { pageNo: 1, cursor: undefined },
      { pageNo: undefined, cursor: 'after-151' },
      { pageNo: undefined, cursor: 'after-51' },
    ]);
    const csv = await readBlob(downloads.blobs[0]!);
    const ids = csv
      .slice(1)
      .split('\r\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.split(',')[1]);
    expect(ids).toHaveLength(TOTAL_ROWS);
    expect(new Set(ids).size).toBe(TOTAL_ROWS);
  });

  it('shows progress while paging, and Cancel keeps nothing', async () => {
    const user = userEvent.setup();
    const downloads = captureDownloads();
    let release!: () => void;
    const base = handlers();
    renderTable({
      ...base,
      [LIST]: (input) =>
        Number(input.pageNo) === 2 && input.pageSize === EXPORT_PAGE_SIZE
          ? new Promise((resolve) => (release = () => resolve(base[LIST]!(input))))
          : base[LIST]!(input),
    });
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export CSV' }));
    expect(await within(dialog).findByText('Page 1 of 3 · 100 rows')).toBeInTheDocument();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel export' }));
    release();
    expect(await within(dialog).findByText('Export cancelled. Nothing was saved.')).toBeInTheDocument();
    expect(downloads.names).toEqual([]);
  });

  it('a failure mid-way shows the error and leaves no download', async () => {
    const user = userEvent.setup();
    const downloads = captureDownloads();
    const base = handlers();
    renderTable({
      ...base,
      [LIST]: (input) => {
        if (Number(input.pageNo) === 2 && input.pageSize === EXPORT_PAGE_SIZE)
          throw new MockFailure('Database busy', 503);
        return base[LIST]!(input);
      },
    });
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export CSV' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Export failed: Database busy. Nothing was saved.',
    );
    expect(downloads.names).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Export again' })).toBeEnabled();
  });

  it('streams to the file picked with the File System Access API, and aborts it on failure', async () => {
    const user = userEvent.setup();
    const written: string[] = [];
    const ended: string[] = [];
    const picker = vi.fn(async (options: { suggestedName: string }) => ({
      name: options.suggestedName,
      createWritable: async () => ({
        write: async (chunk: string) => void written.push(chunk),
        close: async () => void ended.push('close'),
        abort: async () => void ended.push('abort'),
      }),
      remove: async () => void ended.push('remove'),
    }));
    Object.defineProperty(window, 'showSaveFilePicker', {
      value: picker,
      configurable: true,
      writable: true,
    });
    let failPage = 0;
    const base = handlers();
    renderTable({
      ...base,
      [LIST]: (input) => {
        if (Number(input.pageNo) === failPage && input.pageSize === EXPORT_PAGE_SIZE)
          throw new MockFailure('Gone', 500);
        return base[LIST]!(input);
      },
    });
    const dialog = await openExport(user);
    await user.click(within(dialog).getByRole('button', { name: 'Export CSV' }));
    await within(dialog).findByText(/^Exported 250 rows/);
    expect(picker).toHaveBeenCalledTimes(1);
    // One write for the header, one per page: nothing waits in memory for the end.
    expect(written).toHaveLength(4);
    expect(written.join('').split('\r\n').filter(Boolean)).toHaveLength(251);
    expect(ended).toEqual(['close']);

    failPage = 3;
    ended.length = 0;
    await user.click(within(dialog).getByRole('button', { name: 'Export again' }));
    await within(dialog).findByRole('alert');
    expect(ended).toEqual(['abort', 'remove']);
  });

  it('is reachable from the keyboard, needs a column, and closing returns focus to Export', async () => {
    const user = userEvent.setup();
    renderTable(handlers());
    await screen.findByText('T1');
    const exportButton = screen.getByRole('button', { name: 'Export' });
    exportButton.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Export History' });
    for (const name of ['Date', 'Transaction ID', 'Amount', 'Note', 'Status'])
      await user.click(within(dialog).getByRole('checkbox', { name }));
    expect(within(dialog).getByText('Choose at least one column.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(exportButton).toHaveFocus());
  });
});
