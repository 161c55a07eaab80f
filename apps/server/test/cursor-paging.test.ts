/**
 * Stable paging for exports (capability cursor_paging): a client reading every page of a history
 * by `Next_Cursor` sees each row once while new rows arrive between its pages, where page numbers
 * repeat rows; the page-count call carries the row count.
 */
import { contract, CURSOR_PAGING_CAPABILITY, TABLE_CURSOR_MESSAGE, TABLE_PAGE_SIZE_MAX } from '@md/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectLedgerSound, type TestApp } from './helpers.ts';

let t: TestApp;
let demo: string;
const LIST = contract['earning.view_all_earning_history'].path;
const TOTAL = contract['earning.total_pagination_earning_history'].path;
const PAGE = 20;

interface Page {
  Success: Record<string, unknown>[];
  Next_Cursor?: string | null;
}

beforeAll(async () => {
  t = await createTestApp({ seed: 'demo' });
  demo = await t.login('demo');
});
afterAll(() => t.close());

/** A burst of concurrent swaps: each adds rows at the top of demo's history. */
async function swapsArrive(count: number) {
  const replies = await Promise.all(
    Array.from({ length: count }, () =>
      t.post(
        '/wallet/transfer_wallet',
        { from_wallet: 'ROI', to_wallet: 'Deposit', amount: 0.01 },
        { token: demo },
      ),
    ),
  );
  for (const reply of replies) expect(reply.status).toBe(200);
}

const key = (row: Record<string, unknown>) => JSON.stringify(row);

/** Every row of demo's history now, by page number (nothing is written while it reads). */
async function everyRow(): Promise<string[]> {
  const rows: string[] = [];
  for (let pageNo = 1; pageNo < 1000; pageNo++) {
    const { body } = await t.post<Page>(LIST, { pageNo, pageSize: TABLE_PAGE_SIZE_MAX }, { token: demo });
    rows.push(...body.Success.map(key));
    if (body.Success.length < TABLE_PAGE_SIZE_MAX) break;
  }
  return rows;
}

describe('cursor paging', () => {
  it('is advertised, and the page count carries the row count', async () => {
    const config = (await t.get<{ capabilities: string[] }>('/config.json')).body;
    expect(config.capabilities).toContain(CURSOR_PAGING_CAPABILITY);
    const all = await everyRow();
    const total = await t.post<{ Success: number; Rows: number }>(TOTAL, { pageSize: PAGE }, { token: demo });
    expect(total.body).toEqual({ Success: Math.ceil(all.length / PAGE), Rows: all.length });
  });

  it('reads each row once while transfers arrive between pages; page numbers repeat rows', async () => {
    // The control: page numbers, with the same writes between pages.
    const before = await everyRow();
    const byNumber: string[] = [];
    for (let pageNo = 1; pageNo <= Math.ceil(before.length / PAGE); pageNo++) {
      const { body } = await t.post<Page>(LIST, { pageNo, pageSize: PAGE }, { token: demo });
      byNumber.push(...body.Success.map(key));
      await swapsArrive(3);
    }
    expect(new Set(byNumber).size, 'offset paging repeats rows').toBeLessThan(byNumber.length);

    const start = await everyRow();
    const byCursor: string[] = [];
    let cursor: string | null | undefined;
    let pages = 0;
    do {
      const { status, body } = await t.post<Page>(
        LIST,
        cursor === undefined ? { pageSize: PAGE } : { cursor, pageSize: PAGE },
        { token: demo },
      );
      expect(status).toBe(200);
      byCursor.push(...body.Success.map(key));
      cursor = body.Next_Cursor;
      await swapsArrive(3);
      pages++;
    } while (cursor && pages < 100);
    // Exactly the rows there were when the first page was read, each once, in order.
    expect(byCursor).toEqual(start);
    expect(cursor).toBeNull();
    await expectLedgerSound(t);
  });

  it('keeps the query: a cursor goes on with the same search, dates and filters', async () => {
    const first = await t.post<Page>(LIST, { pageSize: 5, search: ['ROI'] }, { token: demo });
    const second = await t.post<Page>(
      LIST,
      { pageSize: 5, search: ['ROI'], cursor: first.body.Next_Cursor },
      { token: demo },
    );
    expect(second.status).toBe(200);
    const all = await t.post<Page>(LIST, { pageNo: 1, pageSize: 10, search: ['ROI'] }, { token: demo });
    expect([...first.body.Success, ...second.body.Success]).toEqual(all.body.Success);
  });

  it('refuses a cursor it did not give, and a cursor beside a page number', async () => {
    for (const cursor of ['nope', Buffer.from('1.2.3').toString('base64url'), '', 'x'.repeat(101)])
      expect(await t.post(LIST, { cursor, pageSize: PAGE }, { token: demo }), cursor).toMatchObject({
        status: 400,
        body: { Error: TABLE_CURSOR_MESSAGE },
      });
    const { body } = await t.post<Page>(LIST, { pageSize: PAGE }, { token: demo });
    expect(await t.post(LIST, { cursor: body.Next_Cursor, pageNo: 2 }, { token: demo })).toMatchObject({
      status: 400,
      body: { Error: 'Send either pageNo or cursor' },
    });
  });
});
