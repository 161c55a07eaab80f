/**
 * The paged tables of spec §7: one engine for all seven. A table is a SQL source scoped to the
 * caller, a date column, searchable columns and whitelisted preset filters; the engine adds
 * search (LIKE over the searchable columns), the inclusive start/end dates, the filters, and
 * newest-first paging. Every table is indexed on (member, time), so first pages stay cheap.
 */
import { TABLE_CURSOR_MESSAGE, type ParsedInputOf } from '@md/shared';
import { WrittenAnswer } from '../../core/answer-json.ts';
import { badRequest } from '../../core/errors.ts';
import { limitSql, prepared } from '../../core/prepared.ts';
import type { AuthedCtx } from '../../core/services.ts';

export type TableQuery = ParsedInputOf<'table.view_deposit_transaction'>;

export interface TableSourceBase {
  /** FROM … [JOIN …] with the scope condition, which takes the caller's member id as `@member`. */
  from: string;
  where: string;
  /** SQL expression of the row's time (epoch ms), for dates and ordering. */
  time: string;
  /** Tie-breaker for rows with the same time. */
  id: string;
  search: string[];
  /**
   * Optional: a FROM for counting a query without search, when `from` joins tables only the
   * search or the row read (SQLite keeps an unused LEFT JOIN in a count: a lookup per row).
   */
  countFrom?: string;
  /**
   * Optional: the table's name in `table_rows` (migration 0008), whose triggers keep each member's
   * row count; a page count without search, dates or filters reads it instead of counting rows.
   */
  counter?: string;
  /** API column name → SQL expression, for `filters`; read only through `filterExpression`. */
  filters: Record<string, string>;
}

/** A table whose rows are shaped at read time: its columns, and the row the page answers. */
export interface ShapedTableSource<Row> extends TableSourceBase {
  /** The columns selected (`columns`): `toRow` reads each by its place in the row. */
  columns: Columns<string>;
  toRow(raw: readonly unknown[]): Row;
}

/**
 * A table whose rows carry their own text (migration 0020): the column holding each
 * row's JSON as a page answers it, kept by triggers from the row's own columns. A page reads that
 * one column through the member's key range and joins the texts: no row is shaped, no answer
 * stringified (a page with its JSON costs about half as much in process).
 */
export interface WrittenTableSource extends TableSourceBase {
  text: string;
}

export type TableSource<Row> = ShapedTableSource<Row> | WrittenTableSource;

/** A table's selected columns: their SQL in order, and each one's place in a row read as an array. */
export interface Columns<Name extends string> {
  select: string;
  at: Readonly<Record<Name, number>>;
}

/**
 * Columns by name. Pages are read as arrays: better-sqlite3 builds an object per row through V8's
 * slow path, ~40 % of a page's time in SQLite (a page of deposits 15.9 → 10.4 µs, of earning history
 * 35 → 19 µs), and `toRow` reads `raw[at.name]` instead of `raw.name`.
 */
export function columns<const Name extends string>(sql: Readonly<Record<Name, string>>): Columns<Name> {
  const names = Object.keys(sql) as Name[];
  return {
    select: names.map((name) => sql[name]).join(', '),
    at: Object.fromEntries(names.map((name, index) => [name, index])) as Record<Name, number>,
  };
}

/** Columns named as the table under `alias` names them: `{ created_at: 'd.created_at', … }`. */
export function ownColumns<const Name extends string>(
  alias: string,
  names: readonly Name[],
): Record<Name, string> {
  return Object.fromEntries(names.map((name) => [name, `${alias}.${name}`])) as Record<Name, string>;
}

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** 'YYYY-MM-DD' → epoch ms of that UTC midnight; a clear 400 for anything else. */
function parseDay(value: string, field: string): number {
  const match = DATE.exec(value.trim());
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  const roundTrips = match && new Date(time).toISOString().slice(0, 10) === match[0];
  if (!match || Number.isNaN(time) || !roundTrips) throw badRequest(`${field} must be a date as YYYY-MM-DD`);
  return time;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The SQL of a filter the client names, among the table's own columns only: a plain index would
 * also find Object.prototype's members ('constructor', 'toString'), which are truthy and made the
 * SQL fail with a 500.
 */
const filterExpression = (source: TableSourceBase, column: string): string | undefined =>
  Object.hasOwn(source.filters, column) ? source.filters[column] : undefined;

/** The WHERE clause and its parameters; `plain` when the query has no search, dates or filters. */
function conditions(source: TableSourceBase, query: TableQuery, memberId: number) {
  const clauses = [source.where];
  const params: Record<string, unknown> = { member: memberId };
  const text = query.search?.[0]?.trim();
  if (text && source.search.length > 0) {
    params.search = `%${escapeLike(text)}%`;
    clauses.push(`(${source.search.map((column) => `${column} like @search escape '\\'`).join(' or ')})`);
  }
  if (query.start_date) {
    params.start = parseDay(query.start_date, 'start_date');
    clauses.push(`${source.time} >= @start`);
  }
  if (query.end_date) {
    params.end = parseDay(query.end_date, 'end_date') + DAY_MS;
    clauses.push(`${source.time} < @end`);
  }
  let n = 0;
  for (const [column, values] of Object.entries(query.filters ?? {})) {
    const expression = filterExpression(source, column);
    if (!expression) throw badRequest(`Unknown filter: ${column}`);
    if (values.length === 0) continue;
    const names = values.map((value) => {
      const name = `f${n++}`;
      params[name] = value;
      return `@${name}`;
    });
    clauses.push(`${expression} in (${names.join(', ')})`);
  }
  return { where: clauses.join(' and '), params, plain: clauses.length === 1 };
}

/**
 * A cursor names the last row of a page by its place in the order (time, then id): the next page
 * is the rows after it, wherever new rows were added meanwhile. Opaque to clients.
 */
const CURSOR = /^(\d{1,15})\.(\d{1,15})$/;
const encodeCursor = (time: number, id: number) => Buffer.from(`${time}.${id}`).toString('base64url');
function decodeCursor(cursor: string): { time: number; id: number } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!match) throw badRequest(TABLE_CURSOR_MESSAGE);
  return { time: Number(match[1]), id: Number(match[2]) };
}

/**
 * One page, newest first, as the paged endpoints answer it ({ Success, Next_Cursor }), and the
 * cursor of the page after it (null after the last).
 */
export function pageOf<Row>(
  ctx: AuthedCtx,
  source: TableSource<Row>,
  query: TableQuery,
):
  | { Success: Row[]; Next_Cursor: string | null }
  | WrittenAnswer<{ Success: Row[]; Next_Cursor: string | null }> {
  const { where, params } = conditions(source, query, ctx.member.id);
  let after = '';
  let offset = (query.pageNo - 1) * query.pageSize;
  if (query.cursor !== undefined) {
    if (query.pageNo !== 1) throw badRequest('Send either pageNo or cursor');
    const at = decodeCursor(query.cursor);
    params.cursorTime = at.time;
    params.cursorId = at.id;
    after = ` and (${source.time} < @cursorTime or (${source.time} = @cursorTime and ${source.id} < @cursorId))`;
    offset = 0;
  }
  const written = 'text' in source;
  // One row past the page says whether there is a next one.
  params.offset = offset;
  const raw = prepared<object, unknown[]>(
    ctx.sqlite,
    `select ${written ? source.text : source.columns.select}, ${source.time}, ${source.id} from ${source.from} where ${where}${after} order by ${source.time} desc, ${source.id} desc ${limitSql(query.pageSize + 1)} offset @offset`,
  )
    .raw(true)
    .all(params);
  const more = raw.length > query.pageSize;
  const rows = more ? raw.slice(0, query.pageSize) : raw;
  const last = rows.at(-1);
  // The row's time and id follow its columns.
  const cursorAt = last ? last.length - 2 : 0;
  const next = more && last ? encodeCursor(Number(last[cursorAt]), Number(last[cursorAt + 1])) : null;
  if (!written) return { Success: rows.map((row) => source.toRow(row)), Next_Cursor: next };
  let json = '{"Success":[';
  for (let i = 0; i < rows.length; i++) json += (i === 0 ? '' : ',') + String(rows[i]![0]);
  return new WrittenAnswer(`${json}],"Next_Cursor":${next === null ? 'null' : `"${next}"`}}`);
}

/**
 * Page count for the same query: at least 1. Without search, dates or filters it is the member's
 * maintained row count; with them a count over the member's key range (each table's scope is an
 * index on (member, time)).
 */
export function pageCountOf(
  ctx: AuthedCtx,
  source: TableSourceBase,
  query: TableQuery,
): { pages: number; rows: number } {
  const { where, params, plain } = conditions(source, query, ctx.member.id);
  const from = params.search === undefined && source.countFrom ? source.countFrom : source.from;
  const counted = (
    plain && source.counter
      ? prepared(
          ctx.sqlite,
          'select total from table_rows where member_id = @member and source = @source',
        ).get({ member: ctx.member.id, source: source.counter })
      : prepared(ctx.sqlite, `select count(*) as total from ${from} where ${where}`).get(params)
  ) as { total: number } | undefined;
  const rows = counted?.total ?? 0;
  return { pages: Math.max(1, Math.ceil(rows / query.pageSize)), rows };
}
