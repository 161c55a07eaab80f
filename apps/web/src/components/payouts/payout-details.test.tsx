/**
 * "Why?" of a payout with the server's `payout_details`: what a member reads is days and times as
 * the rest of the app writes them and plain words, never the ISO day or the ledger's terms.
 */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createFormatters, deviceTimeZone, type PayoutDetails } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { testI18n } from '@/testing/i18n.ts';
import type { LoadedLocale } from '@/lib/i18n/i18n.tsx';
import { PayoutDetailsButton } from './payout-details.tsx';

const leg = (carry: number, fresh: number, carried: number) => ({
  Carry_Before: carry,
  New_Volume: fresh,
  Total: carry + fresh,
  Carried: carried,
  Flushed: 0,
});
const base: Omit<PayoutDetails, 'TransID' | 'Type' | 'Binary' | 'ROI'> = {
  DateTime: '2026-11-27T11:00:00.000Z',
  Wallet: 'Binary',
  Expected: 50,
  Received: 50,
  Cap_Taken: 0,
  Cap_Headroom_Before: 900,
  Cap_Headroom_After: 850,
  Level: null,
  Rank: null,
};
const BINARY: PayoutDetails = {
  ...base,
  TransID: 'BV1',
  Type: 'Binary',
  Binary: {
    Business_Date: '2026-11-27',
    Left: leg(100, 400, 0),
    Right: leg(0, 800, 300),
    Matched: 500,
    Percentage: 10,
  },
  ROI: null,
};
const ROI: PayoutDetails = {
  ...base,
  TransID: 'ROI1',
  Type: 'ROI',
  Wallet: 'ROI',
  Binary: null,
  ROI: {
    Business_Date: '2026-11-26',
    Packages: [{ Name: 'Silver', TransID: 'PK1', Amount: 1000, ROI_Percentage: 1.5, Daily: 15 }],
  },
};

async function open(details: PayoutDetails, i18n?: LoadedLocale, button = 'Why this payout') {
  render(
    <TestProviders
      i18n={i18n}
      config={{ ...testConfig, capabilities: ['payout_details'] }}
      trpcClient={createMockClient({ 'earning.view_payout_details': () => ({ Success: details }) }, [])}
    >
      <PayoutDetailsButton transId={details.TransID} />
    </TestProviders>,
  );
  await userEvent.click(screen.getByRole('button', { name: `${button}: ${details.TransID}` }));
  return screen.findByTestId('payout-details');
}

describe('Why this payout', () => {
  it('a binary payout: its day as the app writes days, the legs in plain words', async () => {
    const text = (await open(BINARY)).textContent ?? '';
    expect(text).toContain('Binary income for Nov 27, 2026');
    expect(text).toMatch(/Paid onNov 27, 2026 \d\d:\d\d/);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(
      screen.getByRole('table', { name: 'Your left and right team volume that day' }),
    ).toBeInTheDocument();
    for (const jargon of ['Flushed', 'Matched', 'Cap room', 'Kept back', 'business day', 'the run'])
      expect(text).not.toContain(jargon);
    expect(text).toContain('Removed (not carried over)');
    expect(text).toContain('Left to earn before this (3x limit)$900.00');
    expect(text).toContain('$50.00 into your Binary wallet');
  });

  it('a ROI payout: the day formatted, no "business day"', async () => {
    const text = (await open(ROI)).textContent ?? '';
    expect(text).toContain('Daily return for Nov 26, 2026');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toContain('business day');
  });

  it('in Arabic: right to left, the words in Arabic, days, times and amounts in Arabic with Latin digits', async () => {
    const body = await open(BINARY, testI18n('ar'), 'لماذا هذه الدفعة');
    const text = body.textContent ?? '';
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(screen.getByRole('dialog', { name: 'الدفعة BV1' })).toBeInTheDocument();
    const ar = createFormatters('ar-u-nu-latn', deviceTimeZone());
    expect(text).toContain(`الدخل الثنائي عن ${ar.day('2026-11-27')}`);
    expect(ar.day('2026-11-27')).toContain('نوفمبر');
    expect(text).toContain(`تاريخ الدفع${ar.dateTime(BINARY.DateTime)}`);
    expect(text).toContain(`المتبقي للكسب قبل هذه الدفعة (حد 3x)${ar.money(900)}`);
    expect(ar.money(900)).toMatch(/900\.00/);
    expect(text).toContain(`${ar.money(50)} في المحفظة الثنائية`);
    expect(screen.getByRole('table', { name: 'حجم فريقيك الأيسر والأيمن في ذلك اليوم' })).toBeInTheDocument();
    expect(text).toContain('المحذوف (غير مُرحَّل)');
    expect(text).not.toMatch(/Binary income|Paid on|Left to earn/);
    expect(screen.getAllByRole('button', { name: 'إغلاق' })).toHaveLength(2);
  });
});
