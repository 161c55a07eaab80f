/**
 * The Wallets and P2P pages in another language: Spanish words and figures (a comma for decimals,
 * US$ after the figure), and Arabic right to left with Latin digits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { testI18n } from '@/testing/i18n.ts';
import { type MockHandlers } from '@/testing/mock-link.ts';
import { loadPageBeforeTests, memberProfile, renderSignedIn, wallet } from '@/testing/member.ts';

const handlers: MockHandlers = {
  'user.view_profile': () => ({ Success: [memberProfile()] }),
  'wallet.view_all_wallets_details': () => ({
    Success: { Deposit: wallet(1500, 2000), Withdrawal: wallet(150.5, 200), ROI: wallet(7.25) },
  }),
  'wallet.view_from_wallets': () => ({ Success: { Deposit: true, ROI: true } }),
  'wallet.view_to_wallets': () => ({ Success: { Deposit: true, Withdrawal: true } }),
};

describe('wallets in other languages', () => {
  loadPageBeforeTests(() => Promise.all([import('./wallets-page.tsx'), import('../p2p/p2p-page.tsx')]));
  afterEach(() => {
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('Spanish: the cards, tabs and statement in Spanish, money with a decimal comma', async () => {
    renderSignedIn('/dashboard/wallets', handlers, {}, { i18n: testI18n('es') });
    const card = await screen.findByTestId('wallet-card-Withdrawal', {}, { timeout: 10_000 });
    expect(await within(card).findByText('150,50 US$')).toBeInTheDocument();
    expect(within(card).getByText('Billetera de retiro')).toBeInTheDocument();
    expect(within(card).getByText('Disponible')).toBeInTheDocument();
    expect(screen.getByTestId('wallet-available-Deposit')).toHaveTextContent('1500,00 US$');
    expect(screen.getByRole('tab', { name: 'Intercambio entre billeteras' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Solicitud de retiro' })).toBeInTheDocument();
    expect(
      screen.getByText('Ganancias totales (ingresos por referidos desde el inicio)'),
    ).toBeInTheDocument();
    expect(screen.getByText('Estados de cuenta')).toBeInTheDocument();
    expect(screen.getByLabelText('Billetera de origen')).toBeInTheDocument();
    expect(screen.queryByText('Available')).toBeNull();
  });

  it('Arabic: the P2P page right to left, its words in Arabic and its figures in Latin digits', async () => {
    renderSignedIn('/dashboard/p2pTransfer', handlers, {}, { i18n: testI18n('ar') });
    expect(
      await screen.findByRole('heading', { name: 'تحويل P2P' }, { timeout: 10_000 }),
    ).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(screen.getByLabelText('اسم مستخدم المستلم')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'تحقق' })).toBeInTheDocument();
    expect(await screen.findByTestId('p2p-available')).toHaveTextContent(/1,500\.00\s*US\$/);
    expect(screen.getByText('من محفظة الإيداع · المتاح')).toBeInTheDocument();
  });
});
