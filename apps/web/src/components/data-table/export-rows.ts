/**
 * A table export: every page of the rows matching the table's criteria, read through the
 * table's own list and total calls at the largest page size the contract allows, written as CSV to a
 * sink as each page comes, with progress, cancel, and nothing partial left claimed as complete.
 */
import { TABLE_PAGE_SIZE_MAX } from '@md/shared';
import { CSV_BOM, csvRecord, exportValue } from './csv.ts';
import { rawValue } from './cell-format.ts';
import type { DataColumn } from './types.ts';
import { downloadBlob } from '@/lib/download.ts';

/** Pages as big as the contract's paged table calls accept. */
export const EXPORT_PAGE_SIZE = TABLE_PAGE_SIZE_MAX;

export interface ExportProgress {
  pagesDone: number;
  /** The page count the total call answered; pages read past it (rows added meanwhile) raise it. */
  totalPages: number;
  rows: number;
}

/** Where the CSV goes: a file the member picked (streamed) or a download at the end. */
export interface CsvSink {
  write(chunk: string): Promise<void>;
  /** Everything was written: the file is complete. */
  close(): Promise<void>;
  /** Failed or cancelled: nothing partial is kept (or, where a browser cannot drop it, left empty). */
  abort(): Promise<void>;
  /** The file's name, for the message saying where the rows went. */
  name: string;
}

export interface ExportSource<Row> {
  fetchTotalPages(pageSize: number, signal: AbortSignal): Promise<number>;
  fetchPage(pageNo: number, pageSize: number, signal: AbortSignal): Promise<readonly Row[]>;
}

export class ExportCancelled extends Error {
  constructor() {
    super('Export cancelled');
    this.name = 'ExportCancelled';
  }
}

/** Lets the page paint and answer input between two pages, so a 100k-row export does not freeze it. */
const yieldToBrowser = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Pages 1..N (N from the total call; an empty page ends it early). Past N it reads on while pages come
 * back full, so rows added during the export are not cut off, at most `maxExtraPages` more.
 * Returns the number of rows written; throws (after aborting the sink) on failure or cancel.
 */
export async function exportRows<Row>(options: {
  source: ExportSource<Row>;
  columns: readonly DataColumn<Row>[];
  sink: CsvSink;
  signal: AbortSignal;
  onProgress: (progress: ExportProgress) => void;
  pageSize?: number;
  /** Safety bound on pages read past the answered total. */
  maxExtraPages?: number;
}): Promise<number> {
  const {
    source,
    columns,
    sink,
    signal,
    onProgress,
    pageSize = EXPORT_PAGE_SIZE,
    maxExtraPages = 10,
  } = options;
  const check = () => {
    if (signal.aborted) throw new ExportCancelled();
  };
  try {
    check();
    const answered = await source.fetchTotalPages(pageSize, signal);
    check();
    const answeredPages = Number.isFinite(answered) ? Math.max(1, Math.trunc(answered)) : 1;
    let totalPages = answeredPages;
    let rows = 0;
    onProgress({ pagesDone: 0, totalPages, rows });
    await sink.write(CSV_BOM + csvRecord(columns.map((column) => column.header)));
    for (let pageNo = 1; pageNo <= answeredPages + maxExtraPages; pageNo++) {
      const page = await source.fetchPage(pageNo, pageSize, signal);
      check();
      if (page.length > 0) {
        await sink.write(
          page
            .map((row) =>
              csvRecord(columns.map((column) => exportValue(column.format, rawValue(column, row)))),
            )
            .join(''),
        );
        rows += page.length;
      }
      totalPages = Math.max(totalPages, pageNo);
      onProgress({ pagesDone: pageNo, totalPages, rows });
      if (page.length === 0 || (pageNo >= answeredPages && page.length < pageSize)) break;
      await yieldToBrowser();
      check();
    }
    await sink.close();
    return rows;
  } catch (error) {
    await sink.abort().catch(() => undefined);
    throw signal.aborted ? new ExportCancelled() : error;
  }
}

/** The caption in the member's language, letters of any script kept ('earning-history', 'سجل-الأرباح'). */
export const csvFileName = (caption: string, now = new Date()) =>
  `${
    caption
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'table'
  }-${now.toISOString().slice(0, 10)}.csv`;

/** The File System Access API's save picker, where the browser has it (Chromium). */
type SavePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{
  createWritable(): Promise<{
    write(data: string): Promise<void>;
    close(): Promise<void>;
    abort(): Promise<void>;
  }>;
  remove?: () => Promise<void>;
  name: string;
}>;

/**
 * Streams to a file the member picks where the browser can (nothing is held in memory); elsewhere
 * the chunks are collected and downloaded once complete. Must be called from the click itself (the
 * picker needs the user's gesture). Resolves null when the member closes the picker.
 */
export async function openCsvSink(
  name: string,
  win: Window = window,
  /** The file type as the save picker names it, in the member's language. */
  description = 'CSV file',
): Promise<CsvSink | null> {
  const picker = (win as Window & { showSaveFilePicker?: SavePicker }).showSaveFilePicker;
  if (typeof picker === 'function') {
    let handle: Awaited<ReturnType<SavePicker>>;
    try {
      handle = await picker.call(win, {
        suggestedName: name,
        types: [{ description, accept: { 'text/csv': ['.csv'] } }],
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      throw error;
    }
    const writable = await handle.createWritable();
    return {
      name: handle.name,
      write: (chunk) => writable.write(chunk),
      close: () => writable.close(),
      // The writes go to a swap file that abort drops; the picked file (new, empty) is removed where the browser allows.
      abort: async () => {
        await writable.abort();
        await handle.remove?.().catch(() => undefined);
      },
    };
  }
  const chunks: string[] = [];
  return {
    name,
    write: async (chunk) => {
      chunks.push(chunk);
    },
    close: async () => {
      downloadBlob(new Blob(chunks, { type: 'text/csv;charset=utf-8' }), name, win);
      chunks.length = 0;
    },
    abort: async () => {
      chunks.length = 0;
    },
  };
}
