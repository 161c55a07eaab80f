/** The deposit page in Arabic: right to left, the words from the catalogs, the amount's figures kept Latin. */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { testI18n } from '@/testing/i18n.ts';
import { loadPageBeforeTests, renderSignedIn } from '@/testing/member.ts';

describe('Deposit page in Arabic', () => {
  loadPageBeforeTests(() => import('./deposit.tsx'));

  it('reads right to left with Arabic tabs, columns and payment window; the amount in Latin digits', async () => {
    const user = userEvent.setup();
    renderSignedIn(
      '/dashboard/deposit',
      {
        'table.view_deposit_transaction': () => ({
          Success: [
            { id: '7', amount: '25', date: '2024-03-05', status: 'Pending', transaction_id: 'DEP-0' },
          ],
        }),
        'table.total_pagination_deposit_transaction': () => ({ Success: 1 }),
        'deposit.make_payment': () => ({
          Success: {
            Amount: 1234.5,
            QR_Code: 'data:image/png;base64,iVBORw0KGgo=',
            Address: '0xAbC0000000000000000000000000000000000001',
            TransID: 'DEP-1',
          },
        }),
      },
      {},
      { i18n: testI18n('ar') },
    );
    const amount = await screen.findByLabelText('المبلغ (USDT)');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['إيداع', 'الباقة', 'المحفظة']);
    expect(screen.getByRole('heading', { name: 'سجل الإيداعات' })).toBeInTheDocument();
    expect(await screen.findByText('DEP-0')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'معرّف المعاملة' })).toBeInTheDocument();

    await user.type(amount, '1234.5');
    await user.click(screen.getByRole('button', { name: 'إيداع' }));
    expect(await screen.findByAltText('رمز QR للإيداع')).toBeInTheDocument();
    expect(screen.getByText('1,234.50 USDT')).toBeInTheDocument();
    expect(
      screen.getByText(
        /^أرسل 1,234\.50 USDT \(BEP20\) بالضبط خلال (30:00|29:5\d) — لا تُقبل الدفعات الجزئية$/,
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'نسخ العنوان' })).toHaveTextContent('نسخ');
  }, 30_000);
});
