/** The Level Chart in Portuguese (Brazil): its words, counts with their plural forms, and figures in pt-BR. */
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { AuthProvider } from '@/lib/auth.tsx';
import { testI18n } from '@/testing/i18n.ts';
import { createMockClient, type MockHandlers } from '@/testing/mock-link.ts';
import { TestProviders } from '@/testing/providers.tsx';
import { testConfig } from '@/testing/render.tsx';
import LevelChartPage from './level-chart.tsx';

function renderInPortuguese(handlers: MockHandlers) {
  localStorage.setItem('jwt', 'jwt-1');
  localStorage.setItem(
    'user',
    JSON.stringify({ username: 'demo', avatar: 'Default', name: 'Demo Member', email: 'demo@example.com' }),
  );
  const routes = [
    {
      element: (
        <AuthProvider>
          <Outlet />
        </AuthProvider>
      ),
      children: [{ path: '/dashboard/levelchart', element: <LevelChartPage /> }],
    },
  ];
  render(
    <TestProviders config={testConfig} i18n={testI18n('pt-BR')} trpcClient={createMockClient(handlers)}>
      <RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/dashboard/levelchart'] })} />
    </TestProviders>,
  );
}

describe('Level chart in Portuguese', () => {
  it('names levels, counts members with plural forms and writes figures as pt-BR does', async () => {
    renderInPortuguese({
      'level.view_downline': ({ username }) =>
        username === 'demo'
          ? {
              Success: {
                Username: 'demo',
                CountUser: 3,
                Downline: [
                  { Username: 'ana', Count: 1 },
                  { Username: 'bia', Count: 2 },
                  { Username: 'caio', Count: 1234 },
                ],
              },
            }
          : { Success: { Username: String(username), CountUser: 0, Downline: [] } },
    });
    const tree = await screen.findByRole('tree', { name: 'Árvore de níveis' });
    expect(
      screen.getByText(
        'Cada membro mostra quantos membros patrocina. Clique em um para carregar o nível dele.',
      ),
    ).toBeInTheDocument();
    const row = (name: string) => within(tree).getByRole('treeitem', { name: new RegExp(`^${name}\\b`) });
    expect(within(row('ana')).getByText('Nível 1')).toBeInTheDocument();
    // One member, two members: the plural form follows the count; 1234 is grouped as pt-BR groups it.
    expect(within(row('ana')).getByLabelText('1 membro')).toHaveTextContent('1');
    expect(within(row('bia')).getByLabelText('2 membros')).toHaveTextContent('2');
    expect(within(row('caio')).getByLabelText('1.234 membros')).toHaveTextContent('1.234');

    // The search's summary: "corresponde" for one match, "correspondem" for more.
    const search = screen.getByRole('searchbox', { name: 'Encontrar um direto pelo nome de usuário' });
    expect(search).toHaveAttribute('placeholder', 'Parte do usuário de um direto');
    fireEvent.change(search, { target: { value: 'bi' } });
    expect(await screen.findByTestId('level-search-summary')).toHaveTextContent(
      '1 de 3 diretos corresponde a “bi”.',
    );
    fireEvent.change(search, { target: { value: 'a' } });
    expect(await screen.findByText('3 de 3 diretos correspondem a “a”.')).toBeInTheDocument();
    fireEvent.change(search, { target: { value: 'zz' } });
    expect(await screen.findByText('Nenhum direto tem “zz” no nome.')).toBeInTheDocument();
  });
});
