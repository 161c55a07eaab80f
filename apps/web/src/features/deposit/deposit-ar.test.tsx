/** The deposit page in Arabic: right to left, the words from the catalogs, the amount's figures kept Latin. */
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '@/app/providers.tsx';
import { routes } from '@/app/router.tsx';
import { testI18n } from '@/testing/i18n.ts';
import { loadPageBeforeTests, memberProfile } from '@/testing/member.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';

/** renderSignedIn (testing/member.ts) in Arabic. */
function renderSignedInArabic(path: string, handlers: MockHandlers) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const client = createMockClient(
    { 'user.view_profile': () => ({ Success: [memberProfile()] }), ...handlers },
    [],
  );
  return render(
    <AppProviders config={testConfig} i18n={testI18n('ar')} trpcClient={client}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
}

describe('Deposit page in Arabic', () => {
  loadPageBeforeTests(() => import('./deposit.tsx'));

  it('reads right to left with Arabic tabs, columns and payment window; the amount in Latin digits', async () => {
    const user = userEvent.setup();
    renderSignedInArabic('/dashboard/deposit', {
      'table.view_deposit_transaction': () => ({
        Success: [{ id: '7', amount: '25', date: '2024-03-05', status: 'Pending', transaction_id: 'DEP-0' }],
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
    });
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
