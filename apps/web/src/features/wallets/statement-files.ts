/**
 * A statement as files: CSV (amounts as plain decimals, every digit the ledger keeps) and PDF
 * (a letterhead with the app's name, member, wallet and period; the totals by reason; every line
 * item with its date in the member's time zone, the zone named, its reason, reference, amount
 * and running balance; the statement's reference on every page). One currency throughout: USDT,
 * written after the figure ("1,065.75 USDT"), never a dollar sign.
 * jsPDF is imported only when a PDF is asked for, so it is in no route's chunk.
 */
import type { Statement, StatementLine } from '@md/shared';
import { CSV_BOM, csvRecord, plainDecimal } from '@/components/data-table/csv.ts';
import { downloadBlob } from '@/lib/download.ts';

/** The app's name as the letterhead prints it (the page title's). */
export const APP_NAME = 'Member Dashboard';
export const CURRENCY = 'USDT';

export const statementFileName = (s: Statement, ext: 'csv' | 'pdf') =>
  `statement-${s.Wallet.toLowerCase()}-${s.Month}.${ext}`;

/** A figure to the last micro-unit, never fewer than two decimals: "1,065.75", "-2.250001". */
export const statementFigure = (amount: number) =>
  (amount === 0 ? 0 : amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** An amount with its one currency: "1,065.75 USDT", "-2.25 USDT". */
export const statementAmount = (amount: number) => `${statementFigure(amount)} ${CURRENCY}`;

/** A debit shown as a negative amount (none shows as 0, not -0). */
export const debit = (amount: number) => (amount === 0 ? 0 : -amount);

/** The member's time zone: this device's (IANA name), UTC when it names none. */
export const memberTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** "Oct 02, 2026 01:05 GMT+1": the app's 'MMM dd, yyyy HH:mm' in `timeZone`, with the zone named. */
export function zonedDateTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (!Number.isFinite(at.getTime())) return '-';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  ) as Record<string, string>;
  return `${parts.month} ${parts.day}, ${parts.year} ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** "October 2026": the month a statement covers (months are UTC calendar months). */
export const statementMonthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Whether the statement's month is still running at its As_Of (the current month). */
export const isCurrentMonth = (s: Statement) =>
  s.As_Of !== undefined && Date.parse(s.As_Of) < Date.parse(s.To);

/** The instant the closing balance is at: As_Of (the moment made, for the current month), else To. */
export const closingAt = (s: Statement) => s.As_Of ?? s.To;

export interface StatementFacts {
  member: string;
  timeZone: string;
  note?: string;
}

/** The statement's lines in order: opening, each credit and debit by reason, totals, closing. */
export function statementLines(
  s: Statement,
  timeZone = 'UTC',
): [section: string, label: string, count: string, amount: number][] {
  return [
    ['Opening balance', `Balance at ${zonedDateTime(s.From, timeZone)}`, '', s.Opening],
    ...s.Credits.map((c): [string, string, string, number] => [
      'Credit',
      c.Reason,
      String(c.Count),
      c.Amount,
    ]),
    ['Total credits', '', '', s.Total_Credits],
    ...s.Debits.map((d): [string, string, string, number] => [
      'Debit',
      d.Reason,
      String(d.Count),
      debit(d.Amount),
    ]),
    ['Total debits', '', '', debit(s.Total_Debits)],
    [
      'Closing balance',
      `${isCurrentMonth(s) ? 'Balance as of' : 'Balance at'} ${zonedDateTime(closingAt(s), timeZone)}`,
      '',
      s.Closing,
    ],
  ];
}

export function statementCsv(s: Statement, note?: string, timeZone = 'UTC'): string {
  let text =
    CSV_BOM +
    csvRecord([`${s.Wallet} wallet statement`, s.Month, s.Reference ?? '', `Amounts in ${CURRENCY}`]);
  if (note) text += csvRecord([note]);
  text += csvRecord(['Section', 'Reason', 'Count', 'Amount']);
  for (const [section, label, count, amount] of statementLines(s, timeZone))
    text += csvRecord([section, label, count, plainDecimal(amount)]);
  if (s.Lines?.length) {
    text += csvRecord([]);
    text += csvRecord(['Date', 'Reason', 'Reference', 'Amount', 'Balance']);
    for (const line of s.Lines)
      text += csvRecord([
        zonedDateTime(line.DateTime, timeZone),
        line.Reason,
        line.Reference,
        plainDecimal(line.Amount),
        plainDecimal(line.Balance),
      ]);
  }
  return text;
}

export function downloadStatementCsv(s: Statement, note?: string): void {
  downloadBlob(
    new Blob([statementCsv(s, note, memberTimeZone())], { type: 'text/csv;charset=utf-8' }),
    statementFileName(s, 'csv'),
  );
}

/** Line items a statement has that its Lines do not list (a month longer than the server lists). */
const unlisted = (s: Statement) =>
  Math.max(0, (s.Line_Count ?? s.Lines?.length ?? 0) - (s.Lines?.length ?? 0));

/** An A4 PDF of the statement, as many pages as its lines take (built in the browser, nothing sent anywhere). */
export async function statementPdf(s: Statement, facts: StatementFacts): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const { member, timeZone, note } = facts;
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  doc.setProperties({
    title: `${s.Wallet} wallet statement, ${statementMonthLabel(s.Month)}`,
    subject: s.Reference ?? '',
    creator: APP_NAME,
  });
  const left = 40;
  const right = 555;
  const bottom = 780;
  const width = right - left;
  let y = 56;

  // Letterhead: the app, then who, which wallet and when.
  doc.setFont('helvetica', 'bold');
  doc.setFontSize(18);
  doc.text(APP_NAME, left, y);
  doc.setFontSize(12);
  doc.text('Wallet statement', right, y, { align: 'right' });
  y += 10;
  doc.setLineWidth(1);
  doc.line(left, y, right, y);
  y += 20;
  const current = isCurrentMonth(s);
  const letterhead: [string, string][] = [
    ['Member', member],
    ['Wallet', `${s.Wallet} wallet`],
    ['Period', `${statementMonthLabel(s.Month)} (a calendar month in UTC)`],
    ['From', zonedDateTime(s.From, timeZone)],
    current
      ? ['As of', `${zonedDateTime(closingAt(s), timeZone)} (the month is not over: the figures stop here)`]
      : ['Closed at', `${zonedDateTime(closingAt(s), timeZone)} (the start of the next month, excluded)`],
    ['Times in', `${timeZone}, each time with its zone named`],
    ['Currency', `${CURRENCY} (BEP20)`],
    ['Reference', s.Reference ?? 'none given'],
  ];
  doc.setFontSize(10);
  for (const [label, value] of letterhead) {
    doc.setFont('helvetica', 'bold');
    doc.text(label, left, y);
    doc.setFont('helvetica', 'normal');
    const wrapped = doc.splitTextToSize(value, width - 80) as string[];
    doc.text(wrapped, left + 80, y);
    y += 14 * wrapped.length;
  }
  if (note) {
    y += 4;
    doc.setFontSize(9);
    const wrapped = doc.splitTextToSize(note, width) as string[];
    doc.text(wrapped, left, y);
    y += 12 * wrapped.length;
  }

  // Summary: opening, totals by reason, closing.
  y += 12;
  doc.setFontSize(12);
  doc.setFont('helvetica', 'bold');
  doc.text('Summary', left, y);
  y += 16;
  doc.setFontSize(10);
  doc.text('Section', left, y);
  doc.text('Reason', left + 110, y);
  doc.text('Count', left + 330, y, { align: 'right' });
  doc.text('Amount', right, y, { align: 'right' });
  for (const [section, label, count, amount] of statementLines(s, timeZone)) {
    y += 15;
    const strong =
      section.startsWith('Opening') || section.startsWith('Closing') || section.startsWith('Total');
    doc.setFont('helvetica', strong ? 'bold' : 'normal');
    doc.text(section, left, y);
    doc.text(label, left + 110, y);
    doc.text(count, left + 330, y, { align: 'right' });
    doc.text(statementAmount(amount), right, y, { align: 'right' });
  }
  y += 14;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(
    'Opening + total credits - total debits = closing, to the last micro-unit (0.000001 USDT).',
    left,
    y,
  );

  // Line items, with the header again on each new page.
  const columns = {
    date: left,
    reason: left + 118,
    reference: left + 215,
    amount: left + 405,
    balance: right,
  };
  const lineHeader = () => {
    doc.setFont('helvetica', 'bold');
    doc.setFontSize(8.5);
    doc.text('Date', columns.date, y);
    doc.text('Reason', columns.reason, y);
    doc.text('Reference', columns.reference, y);
    doc.text(`Amount (${CURRENCY})`, columns.amount, y, { align: 'right' });
    doc.text(`Balance (${CURRENCY})`, columns.balance, y, { align: 'right' });
    doc.setFont('helvetica', 'normal');
  };
  y += 28;
  doc.setFontSize(12);
  doc.setFont('helvetica', 'bold');
  doc.text(`Line items (${s.Line_Count ?? s.Lines?.length ?? 0})`, left, y);
  y += 16;
  const lines: StatementLine[] = s.Lines ?? [];
  if (s.Lines === undefined) {
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(
      'The provider gave no line items for this statement: the summary above is all it gave.',
      left,
      y,
    );
  } else if (lines.length === 0) {
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text('No movements in this period.', left, y);
  } else {
    lineHeader();
    doc.setFontSize(8.5);
    doc.text(`Opening balance`, columns.reason, (y += 13));
    doc.text(statementFigure(s.Opening), columns.balance, y, { align: 'right' });
    for (const line of lines) {
      y += 13;
      if (y > bottom) {
        doc.addPage();
        y = 56;
        lineHeader();
        y += 13;
        doc.setFontSize(8.5);
      }
      doc.text(zonedDateTime(line.DateTime, timeZone), columns.date, y);
      doc.text(doc.splitTextToSize(line.Reason, 92)[0] as string, columns.reason, y);
      doc.text(line.Reference, columns.reference, y);
      doc.text(statementFigure(line.Amount), columns.amount, y, { align: 'right' });
      doc.text(statementFigure(line.Balance), columns.balance, y, { align: 'right' });
    }
    y += 13;
    doc.setFont('helvetica', 'bold');
    doc.text(current ? 'Balance as of now' : 'Closing balance', columns.reason, y);
    doc.text(statementFigure(s.Closing), columns.balance, y, { align: 'right' });
    doc.setFont('helvetica', 'normal');
    const more = unlisted(s);
    if (more > 0) {
      y += 14;
      doc.text(`${more} further line items are not listed; the summary counts them all.`, left, y);
    }
  }

  // Every page names the statement and where it stands in the file.
  const pages = doc.getNumberOfPages();
  const made = s.Made_At ? `Made ${zonedDateTime(s.Made_At, timeZone)}` : '';
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.text(
      `${APP_NAME} · ${s.Wallet} wallet statement · ${s.Reference ?? statementMonthLabel(s.Month)}`,
      left,
      812,
    );
    doc.text([made, `Page ${page} of ${pages}`].filter(Boolean).join(' · '), right, 812, { align: 'right' });
  }
  return doc.output('blob');
}

export async function downloadStatementPdf(s: Statement, member: string, note?: string): Promise<void> {
  downloadBlob(
    await statementPdf(s, { member, timeZone: memberTimeZone(), note }),
    statementFileName(s, 'pdf'),
  );
}
