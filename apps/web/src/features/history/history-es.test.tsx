/**
 * History in Spanish: the headers, a Type and an amount in the member's language, a search typed
 * in Spanish sent as the server's English Type, and the export (headers in Spanish, a plural).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { createFormatters, deviceTimeZone } from '@md/shared';
import { TestProviders } from '@/testing/providers.tsx';
import { createMockClient } from '@/testing/mock-link.ts';
import { testConfig } from '@/testing/render.tsx';
import { testI18n } from '@/testing/i18n.ts';
import HistoryPage from './history.tsx';

const LIST = 'earning.view_all_earning_history';
const rows = [
  {
    DateTime: '2026-11-27T11:00:00.000Z',
    TransID: 'E1',
    Amount: 12345.6,
    Type: 'Binary Income',
    By: 'system',
    Transfer: 'Credit',
    Wallet: 'Binary',
    Status: 'Success',
  },
  {
    DateTime: '2026-11-26T09:30:00.000Z',
    TransID: 'E2',
    Amount: 7,
    Type: 'Something the provider sends',
    By: 'demo',
    Transfer: 'Debit',
    Wallet: 'Withdrawal',
    Status: 'Pending',
  },
];

function renderHistory() {
  const calls: { path: string; input: unknown }[] = [];
  render(
    <TestProviders
      config={testConfig}
      i18n={testI18n('es')}
      trpcClient={createMockClient(
        {
          [LIST]: () => ({ Success: rows }),
          'earning.total_pagination_earning_history': () => ({ Success: 1 }),
        },
        calls,
      )}
    >
      <MemoryRouter>
        <HistoryPage />
      </MemoryRouter>
    </TestProviders>,
  );
  return calls;
}

afterEach(() => vi.restoreAllMocks());

const readBlob = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    // ignoreBOM keeps the byte order mark in the text, so the test sees it.
    reader.onload = () =>
      resolve(new TextDecoder('utf-8', { ignoreBOM: true }).decode(reader.result as ArrayBuffer));
    reader.readAsArrayBuffer(blob);
  });

describe('History in Spanish', () => {
  it('headers, Types, dates and amounts in Spanish', async () => {
    renderHistory();
    const table = await screen.findByTestId('data-table');
    await within(table).findByText('E1');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([
      'Fecha',
      'ID de transacción',
      'Importe',
      'Tipo',
      'Por',
      'Transferencia',
      'Billetera',
      'Estado',
      'Detalles',
    ]);
    const es = createFormatters('es', deviceTimeZone());
    // Spanish money: grouping with '.', decimals with ',' and the currency after.
    expect(es.money(12345.6)).toMatch(/^12\.345,60\sUS\$$/);
    const [first] = within(table).getAllByRole('row').slice(1);
    const cells = within(first!).getAllByRole('cell');
    expect(cells[2]!.textContent).toBe(es.money(12345.6));
    expect(cells[0]!.textContent).toBe(es.dateTime(rows[0]!.DateTime));
    expect(within(table).getByText('Ingreso binario')).toBeInTheDocument();
    // A Type the app does not know is shown as sent.
    expect(within(table).getByText('Something the provider sends')).toBeInTheDocument();
    expect(within(table).getByText('Exitoso')).toHaveAttribute('data-tone', 'ok');
    expect(within(table).getByRole('button', { name: 'Por qué este pago: E1' })).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Buscar transacciones...')).toBeInTheDocument();
  });

  it('a Type searched in Spanish is sent as the server’s English Type; other words as typed', async () => {
    const user = userEvent.setup();
    const calls = renderHistory();
    await screen.findByText('E1');
    // The server matches the Type by its English words: "binario" (of "Ingreso binario") is sent as "Binary Income".
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'binario');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === LIST).at(-1)?.input).toMatchObject({
        search: ['Binary Income'],
      }),
    );
    await user.clear(screen.getByRole('searchbox', { name: 'Buscar' }));
    // A word that is no Type's goes as typed.
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'demo');
    await waitFor(() =>
      expect(calls.filter((c) => c.path === LIST).at(-1)?.input).toMatchObject({ search: ['demo'] }),
    );
  });

  it('exports with Spanish headers, a plural of its own and a Spanish file name', async () => {
    const user = userEvent.setup();
    renderHistory();
    await screen.findByText('E1');
    const blobs: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      value: (blob: Blob) => (blobs.push(blob), 'blob:test'),
      configurable: true,
    });
    Object.defineProperty(URL, 'revokeObjectURL', { value: () => {}, configurable: true });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Exportar Historial de ganancias' });
    await user.click(within(dialog).getByRole('button', { name: 'Exportar CSV' }));
    const day = new Date().toISOString().slice(0, 10);
    expect(
      await within(dialog).findByText(`Se exportaron 2 filas a historial-de-ganancias-${day}.csv.`),
    ).toBeInTheDocument();
    const csv = await readBlob(blobs.at(-1)!);
    expect(csv.split('\r\n')[0]).toBe(
      '\uFEFFFecha,ID de transacción,Importe,Tipo,Por,Transferencia,Billetera,Estado',
    );
    // Machine-readable as before: an ISO date and a plain amount; the Type and wallet as the member reads them.
    expect(csv.split('\r\n')[1]).toBe(
      '2026-11-27T11:00:00Z,E1,12345.6,Ingreso binario,system,Credit,Binario,Success',
    );
  });
});
