/**
 * A statement as files: CSV (amounts as plain decimals, every digit the ledger keeps) and PDF
 * (a letterhead with the app's name, member, wallet and period; the totals by reason; every line
 * item with its date in the member's time zone, the zone named, its reason, reference, amount
 * and running balance; the statement's reference on every page). One currency throughout: USDT,
 * written after the figure ("1,065.75 USDT"), never a dollar sign.
 * jsPDF is imported only when a PDF is asked for, so it is in no route's chunk.
 *
 * The words follow the member's language (`StatementWords`: the catalog's `t` and the formatters of
 * the member's language and zone). jsPDF's built-in Helvetica draws only WinAnsi (Latin-1) text: a
 * PDF in Spanish or Portuguese prints its accents, but one in Arabic could not draw a letter (and no
 * font with Arabic glyphs is available to embed), so an Arabic member's PDF keeps its words and dates in
 * English; the CSV and the screen are in Arabic.
 */
import { createIntl } from 'react-intl';
import { createFormatters, type Formatters, type Statement, type StatementLine } from '@md/shared';
import { CSV_BOM, csvRecord, plainDecimal } from '@/components/data-table/csv.ts';
import { loadMessages } from '@/lib/i18n/catalogs.ts';
import type { AnyLocale } from '@/lib/i18n/locales.ts';
import { downloadBlob } from '@/lib/download.ts';
import { reasonText, walletName, type Translate } from '@/lib/wallet-text.ts';

/** The app's name as the letterhead prints it (the page title's; a name, not translated). */
export const APP_NAME = 'Member Dashboard';
export const CURRENCY = 'USDT';

/** A statement's words: the member's catalog and their language's formatters in their time zone. */
export interface StatementWords {
  t: Translate;
  f: Formatters;
}

export const statementFileName = (s: Statement, ext: 'csv' | 'pdf') =>
  `statement-${s.Wallet.toLowerCase()}-${s.Month}.${ext}`;

/**
 * A figure to the last micro-unit, never fewer than two decimals, in the language's digits and
 * separators: "1,065.75", "-2.250001" (English), "1.065,75" (Portuguese).
 */
export const statementFigure = (amount: number, locale = 'en-US') =>
  (amount === 0 ? 0 : amount).toLocaleString(locale, { minimumFractionDigits: 2, maximumFractionDigits: 6 });

/** An amount with its one currency: "1,065.75 USDT", "-2.25 USDT". */
export const statementAmount = (amount: number, locale = 'en-US') =>
  `${statementFigure(amount, locale)} ${CURRENCY}`;

/** A debit shown as a negative amount (none shows as 0, not -0). */
export const debit = (amount: number) => (amount === 0 ? 0 : -amount);

/** Whether the statement's month is still running at its As_Of (the current month). */
export const isCurrentMonth = (s: Statement) =>
  s.As_Of !== undefined && Date.parse(s.As_Of) < Date.parse(s.To);

/** The instant the closing balance is at: As_Of (the moment made, for the current month), else To. */
export const closingAt = (s: Statement) => s.As_Of ?? s.To;

export interface StatementFacts {
  member: string;
  words: StatementWords;
  /** Built on the device from the history (the provider offers no statements): the PDF says so. */
  builtOnDevice?: boolean;
}

export interface StatementSummaryLine {
  section: string;
  label: string;
  count: string;
  amount: number;
  /** Opening, totals and closing: printed bold. */
  strong: boolean;
}

/** The statement's lines in order: opening, each credit and debit by reason, totals, closing. */
export function statementLines(s: Statement, { t, f }: StatementWords): StatementSummaryLine[] {
  const line = (section: string, label: string, count: string, amount: number, strong: boolean) => ({
    section,
    label,
    count,
    amount,
    strong,
  });
  return [
    line(
      t('wallets.statement.openingBalance'),
      t('wallets.file.balanceAt', { time: f.dateTime(s.From) }),
      '',
      s.Opening,
      true,
    ),
    ...s.Credits.map((c) =>
      line(t('wallets.file.credit'), reasonText(t, c.Reason), String(c.Count), c.Amount, false),
    ),
    line(t('wallets.statement.totalCredits'), '', '', s.Total_Credits, true),
    ...s.Debits.map((d) =>
      line(t('wallets.file.debit'), reasonText(t, d.Reason), String(d.Count), debit(d.Amount), false),
    ),
    line(t('wallets.statement.totalDebits'), '', '', debit(s.Total_Debits), true),
    line(
      t('wallets.statement.closingBalance'),
      t(isCurrentMonth(s) ? 'wallets.file.balanceAsOf' : 'wallets.file.balanceAt', {
        time: f.dateTime(closingAt(s)),
      }),
      '',
      s.Closing,
      true,
    ),
  ];
}

/** The statement as CSV, its words in the member's language; `builtOnDevice` adds the note that says so. */
export function statementCsv(s: Statement, words: StatementWords, builtOnDevice = false): string {
  const { t, f } = words;
  let text =
    CSV_BOM +
    csvRecord([
      t('wallets.file.walletStatement', { wallet: walletName(t, s.Wallet) }),
      s.Month,
      s.Reference ?? '',
      t('wallets.file.amountsIn', { currency: CURRENCY }),
    ]);
  if (builtOnDevice) text += csvRecord([t('wallets.statement.builtOnDevice')]);
  text += csvRecord([
    t('wallets.file.section'),
    t('wallets.statement.reason'),
    t('wallets.file.count'),
    t('wallets.file.amount'),
  ]);
  for (const { section, label, count, amount } of statementLines(s, words))
    text += csvRecord([section, label, count, plainDecimal(amount)]);
  if (s.Lines?.length) {
    text += csvRecord([]);
    text += csvRecord([
      t('wallets.statement.date'),
      t('wallets.statement.reason'),
      t('wallets.statement.reference'),
      t('wallets.file.amount'),
      t('wallets.file.balance'),
    ]);
    for (const line of s.Lines)
      text += csvRecord([
        f.dateTime(line.DateTime),
        reasonText(t, line.Reason),
        line.Reference,
        plainDecimal(line.Amount),
        plainDecimal(line.Balance),
      ]);
  }
  return text;
}

export function downloadStatementCsv(s: Statement, words: StatementWords, builtOnDevice = false): void {
  downloadBlob(
    new Blob([statementCsv(s, words, builtOnDevice)], { type: 'text/csv;charset=utf-8' }),
    statementFileName(s, 'csv'),
  );
}

/** Line items a statement has that its Lines do not list (a month longer than the server lists). */
const unlisted = (s: Statement) =>
  Math.max(0, (s.Line_Count ?? s.Lines?.length ?? 0) - (s.Lines?.length ?? 0));

/**
 * Text as Helvetica (WinAnsi) prints it and PDF.js reads it back: the spaces `Intl` puts in dates
 * and figures (no-break, narrow no-break, thin) as plain spaces, the direction marks left out.
 */
const printable = (text: string) => text.replace(/[\u00a0\u202f\u2009]/g, ' ').replace(/[\u200e\u200f]/g, '');

/** An A4 PDF of the statement, as many pages as its lines take (built in the browser, nothing sent anywhere). */
export async function statementPdf(s: Statement, facts: StatementFacts): Promise<Blob> {
  const { jsPDF } = await import('jspdf');
  const { member, words, builtOnDevice } = facts;
  const { t, f } = words;
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const wallet = walletName(t, s.Wallet);
  const monthLabel = f.month(s.Month);
  const figure = (amount: number) => printable(statementFigure(amount, f.locale));
  const when = (iso: string) => printable(f.dateTime(iso));
  /** Draws `text` at most `maxWidth` wide: a longer one (a long translation, a long date) is set smaller to fit. */
  const fitted = (text: string, x: number, y: number, maxWidth: number, options?: { align: 'right' }) => {
    const size = doc.getFontSize();
    const width = doc.getTextWidth(text);
    if (width > maxWidth) doc.setFontSize(Math.max(6, (size * maxWidth) / width));
    // Still too long at the smallest size: cut at the column's width.
    const shown =
      doc.getTextWidth(text) > maxWidth ? (doc.splitTextToSize(text, maxWidth)[0] as string) : text;
    doc.text(shown, x, y, options);
    doc.setFontSize(size);
  };
  doc.setProperties({
    title: t('wallets.statement.tableLabel', { wallet, month: monthLabel }),
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
  doc.text(t('wallets.file.heading'), right, y, { align: 'right' });
  y += 10;
  doc.setLineWidth(1);
  doc.line(left, y, right, y);
  y += 20;
  const current = isCurrentMonth(s);
  const letterhead: [string, string][] = [
    [t('wallets.file.member'), member],
    [t('wallets.file.wallet'), t('wallets.file.walletValue', { wallet })],
    [t('wallets.file.period'), t('wallets.file.periodValue', { month: monthLabel })],
    [t('wallets.file.from'), when(s.From)],
    current
      ? [t('wallets.statement.asOf'), t('wallets.file.asOfValue', { time: when(closingAt(s)) })]
      : [t('wallets.statement.closedAt'), t('wallets.file.closedAtValue', { time: when(closingAt(s)) })],
    [t('wallets.statement.timesIn'), t('wallets.file.timesInValue', { zone: f.timeZone })],
    [t('wallets.file.currency'), `${CURRENCY} (BEP20)`],
    [t('wallets.statement.reference'), s.Reference ?? t('wallets.file.noneGiven')],
  ];
  doc.setFontSize(10);
  for (const [label, value] of letterhead) {
    doc.setFont('helvetica', 'bold');
    fitted(label, left, y, 76);
    doc.setFont('helvetica', 'normal');
    const wrapped = doc.splitTextToSize(printable(value), width - 80) as string[];
    doc.text(wrapped, left + 80, y);
    y += 14 * wrapped.length;
  }
  if (builtOnDevice) {
    y += 4;
    doc.setFontSize(9);
    const wrapped = doc.splitTextToSize(t('wallets.statement.builtOnDevice'), width) as string[];
    doc.text(wrapped, left, y);
    y += 12 * wrapped.length;
  }

  // Summary: opening, totals by reason, closing.
  y += 12;
  doc.setFontSize(12);
  doc.setFont('helvetica', 'bold');
  doc.text(t('wallets.file.summary'), left, y);
  y += 16;
  doc.setFontSize(10);
  fitted(t('wallets.file.section'), left, y, 106);
  doc.text(t('wallets.statement.reason'), left + 110, y);
  doc.text(t('wallets.file.count'), left + 330, y, { align: 'right' });
  doc.text(t('wallets.file.amount'), right, y, { align: 'right' });
  for (const { section, label, count, amount, strong } of statementLines(s, words)) {
    y += 15;
    doc.setFont('helvetica', strong ? 'bold' : 'normal');
    fitted(section, left, y, 106);
    fitted(printable(label), left + 110, y, 190);
    doc.text(count, left + 330, y, { align: 'right' });
    doc.text(printable(statementAmount(amount, f.locale)), right, y, { align: 'right' });
  }
  y += 14;
  doc.setFont('helvetica', 'normal');
  doc.setFontSize(8);
  doc.text(doc.splitTextToSize(t('wallets.file.reconcile'), width) as string[], left, y);

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
    fitted(t('wallets.statement.date'), columns.date, y, 114);
    fitted(t('wallets.statement.reason'), columns.reason, y, 93);
    fitted(t('wallets.statement.reference'), columns.reference, y, 110);
    fitted(t('wallets.file.amountIn', { currency: CURRENCY }), columns.amount, y, 80, { align: 'right' });
    fitted(t('wallets.file.balanceIn', { currency: CURRENCY }), columns.balance, y, 96, { align: 'right' });
    doc.setFont('helvetica', 'normal');
  };
  y += 28;
  doc.setFontSize(12);
  doc.setFont('helvetica', 'bold');
  doc.text(t('wallets.statement.lineItems', { count: s.Line_Count ?? s.Lines?.length ?? 0 }), left, y);
  y += 16;
  const lines: StatementLine[] = s.Lines ?? [];
  if (s.Lines === undefined) {
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(doc.splitTextToSize(t('wallets.file.noLines'), width) as string[], left, y);
  } else if (lines.length === 0) {
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(9);
    doc.text(t('wallets.file.noMovements'), left, y);
  } else {
    lineHeader();
    doc.setFontSize(8.5);
    fitted(t('wallets.statement.openingBalance'), columns.reason, (y += 13), 180);
    doc.text(figure(s.Opening), columns.balance, y, { align: 'right' });
    for (const line of lines) {
      y += 13;
      if (y > bottom) {
        doc.addPage();
        y = 56;
        lineHeader();
        y += 13;
        doc.setFontSize(8.5);
      }
      fitted(when(line.DateTime), columns.date, y, 114);
      fitted(reasonText(t, line.Reason), columns.reason, y, 92);
      doc.text(line.Reference, columns.reference, y);
      doc.text(figure(line.Amount), columns.amount, y, { align: 'right' });
      doc.text(figure(line.Balance), columns.balance, y, { align: 'right' });
    }
    y += 13;
    doc.setFont('helvetica', 'bold');
    fitted(
      t(current ? 'wallets.file.balanceNow' : 'wallets.statement.closingBalance'),
      columns.reason,
      y,
      180,
    );
    doc.text(figure(s.Closing), columns.balance, y, { align: 'right' });
    doc.setFont('helvetica', 'normal');
    const more = unlisted(s);
    if (more > 0) {
      y += 14;
      doc.text(t('wallets.file.unlisted', { count: more }), left, y);
    }
  }

  // Every page names the statement and where it stands in the file.
  const pages = doc.getNumberOfPages();
  const made = s.Made_At ? t('wallets.file.made', { time: when(s.Made_At) }) : '';
  for (let page = 1; page <= pages; page++) {
    doc.setPage(page);
    doc.setFont('helvetica', 'normal');
    doc.setFontSize(8);
    doc.text(
      t('wallets.file.footer', { app: APP_NAME, wallet, reference: s.Reference ?? monthLabel }),
      left,
      812,
    );
    doc.text([made, t('wallets.file.page', { page, pages })].filter(Boolean).join(' · '), right, 812, {
      align: 'right',
    });
  }
  return doc.output('blob');
}

/** Languages Helvetica prints (WinAnsi); any other makes its PDF in English (see the file's note). */
const PDF_LANGUAGES: readonly AnyLocale[] = ['en', 'es', 'pt-BR'];

/** The statement's words in English, in the member's zone: for a PDF in a language Helvetica cannot print. */
async function englishWords(timeZone: string): Promise<StatementWords> {
  const intl = createIntl({ locale: 'en', messages: (await loadMessages('en')) as Record<string, string> });
  return { t: (id, values) => intl.formatMessage({ id }, values), f: createFormatters('en', timeZone) };
}

/** The words a PDF in `locale` is written in: the member's, or English where Helvetica has no letters for them. */
export const pdfWords = async (locale: AnyLocale, words: StatementWords): Promise<StatementWords> =>
  PDF_LANGUAGES.includes(locale) ? words : englishWords(words.f.timeZone);

export async function downloadStatementPdf(
  s: Statement,
  {
    member,
    locale,
    words,
    builtOnDevice,
  }: { member: string; locale: AnyLocale; words: StatementWords; builtOnDevice: boolean },
): Promise<void> {
  downloadBlob(
    await statementPdf(s, { member, words: await pdfWords(locale, words), builtOnDevice }),
    statementFileName(s, 'pdf'),
  );
}
