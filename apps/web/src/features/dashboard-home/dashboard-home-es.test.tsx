/** The home in Spanish: the words from the catalogs, the figures written the Spanish way. */
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { testI18n } from '@/testing/i18n.ts';
import { loadPageBeforeTests, renderSignedIn } from '@/testing/member.ts';

/** Intl writes a no-break space before "US$": compared as a plain space. */
const plain = (text: string | null | undefined) => (text ?? '').replace(/\s/g, ' ');
const card = (label: string) => screen.getByText(label).closest<HTMLElement>('.fs-stat-card')!;

describe('Dashboard home in Spanish', () => {
  loadPageBeforeTests(() => import('./dashboard-home.tsx'));

  it('names its sections and cards in Spanish and writes money and counts the Spanish way', async () => {
    renderSignedIn(
      '/dashboard',
      {
        'user_analytics.view_user_analytics': () => ({
          Success: {
            Current_Level: 3,
            Current_Rank: 'Silver',
            Binary_Left: 1500,
            Binary_Right: 750,
            Active_Subscriptions: 2,
            Max_Earnings: 12345.67,
            Total_Earnings: 420.5,
            Remaining_Earnings: 11925.17,
            Direct_Referrals: 4,
            Team_Size: 12100,
          },
        }),
      },
      {},
      { i18n: testI18n('es') },
    );
    const earnings = await screen.findByRole('region', { name: 'Resumen de ganancias' });
    expect(await within(earnings).findByText('Ganancias máximas')).toBeInTheDocument();
    expect(plain(card('Ganancias máximas').textContent)).toContain('12.345,67 US$');
    expect(plain(card('Ganancias restantes').textContent)).toContain('11.925,17 US$');
    expect(card('Ganancias máximas')).toHaveTextContent('El tope de 3x de tus paquetes activos');
    expect(screen.getByRole('region', { name: 'Resumen general' })).toHaveTextContent('Nivel actual');

    const summary = await screen.findByRole('region', { name: 'Resumen' }, { timeout: 15_000 });
    expect(within(summary).getByText('Usuarios totales').parentElement).toHaveTextContent(
      'Usuarios totales12.100',
    );
    // The next binary run: the member's time and the UK time, both said in Spanish.
    const run = await screen.findByRole('region', { name: 'Próximo cálculo binario' });
    expect(within(run).getByTestId('run-time')).toHaveTextContent(/\(\d{2}:\d{2} hora del Reino Unido\)/);
    expect(
      within(run).getByRole('timer', { name: 'Tiempo hasta el próximo cálculo binario' }),
    ).toHaveTextContent(/^en \d+ (h \d{2} min|min \d{2} s)$/);
  }, 30_000);
});
