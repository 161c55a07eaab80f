/**
 * A statement as files: CSV (amounts as plain decimals, every digit the ledger keeps) and PDF.
 * jsPDF is imported only when a PDF is asked for, so it is in no route's chunk.
 */
import type { Statement } from '@md/shared';
import { CSV_BOM, csvRecord, plainDecimal } from '@/components/data-table/csv.ts';
import { downloadBlob } from '@/lib/download.ts';

export const statementFileName = (s: Statement, ext: 'csv' | 'pdf') =>
  `statement-${s.Wallet.toLowerCase()}-${s.Month}.${ext}`;

/** An amount to the last micro-unit, never fewer than two decimals: a statement adds up to the cent in print. */
export const statementAmount = (amount: number) =>
  `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;

/** A debit shown as a negative amount (none shows as 0, not -0). */
export const debit = (amount: number) => (amount === 0 ? 0 : -amount);

/** The statement's lines in order: opening, each credit and debit by reason, totals, closing. */
export function statementLines(
  s: Statement,
): [section: string, label: string, count: string, amount: number][] {
  return [
    ['Opening balance', `Balance at ${s.From}`, '', s.Opening],
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
    ['Closing balance', `Balance at ${s.To}`, '', s.Closing],
  ];
}

export function statementCsv(s: Statement, note?: string): string {
  let text = CSV_BOM + csvRecord([`${s.Wallet} wallet statement`, s.Month, '', 'USDT']);
  if (note) text += csvRecord([note]);
  text += csvRecord(['Section', 'Reason', 'Count', 'Amount']);
  for (const [section, label, count, amount] of statementLines(s))
    text += csvRecord([section, label, count, plainDecimal(amount)]);
  return text;
}

export function downloadStatementCsv(s: Statement, note?: string): void {
  downloadBlob(
    new Blob([statementCsv(s, note)], { type: 'text/csv;charset=utf-8' }),
    statementFileName(s, 'csv'),
  );
}

/** A one-page A4 PDF of the statement (built in the browser, nothing sent anywhere). */
export async function statementPdf(s: Statement, member: string, note?: string): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const left = 48;
  const right = 547;
  let y = 64;
  doc.setFontSize(16);
  doc.text(`${s.Wallet} wallet statement, ${s.Month}`, left, y);
  y += 20;
  doc.setFontSize(10);
  doc.text(
    `Member: ${member}    Period: ${s.From.slice(0, 10)} to ${s.To.slice(0, 10)} (UTC, end excluded)    Currency: USDT`,
    left,
    y,
  );
  if (note) {
    y += 14;
    doc.text(doc.splitTextToSize(note, right - left) as string[], left, y);
    y += 14;
  }
  y += 24;
  doc.setFont('helvetica', 'bold');
  doc.text('Section', left, y);
  doc.text('Reason', left + 120, y);
  doc.text('Count', left + 330, y);
  doc.text('Amount', right, y, { align: 'right' });
  doc.setFont('helvetica', 'normal');
  for (const [section, label, count, amount] of statementLines(s)) {
    y += 18;
    if (y > 790) {
      doc.addPage();
      y = 64;
    }
    const strong =
      section.startsWith('Opening') || section.startsWith('Closing') || section.startsWith('Total');
    doc.setFont('helvetica', strong ? 'bold' : 'normal');
    doc.text(section, left, y);
    doc.text(label.slice(0, 40), left + 120, y);
    doc.text(count, left + 330, y);
    doc.text(statementAmount(amount).replace('$-', '-$'), right, y, { align: 'right' });
  }
  y += 28;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(`Opening + credits - debits = closing. Generated ${new Date().toISOString()}.`, left, y);
  return doc.output('blob');
}

export async function downloadStatementPdf(s: Statement, member: string, note?: string): Promise<void> {
  downloadBlob(await statementPdf(s, member, note), statementFileName(s, 'pdf'));
}
