/**
 * A wallet's monthly statement. With the server's `statements` capability, the ledger's own
 * figures. Without it (the provider), the statement is built on the device from what the spec's
 * endpoints give: the earning history from the month's first day until today (each row's Transfer
 * says whether money came into the wallet or left it) and the wallet's Available balance now,
 * working back: closing = Available - what moved after the month, opening = closing - the month's
 * net. When the history is longer than the device reads, no statement is claimed.
 */
import { useQuery } from '@tanstack/react-query';
import { amountToMicros, contract, microsToAmount, type Statement, type WalletName } from '@md/shared';
import { hasCapability, useConfig } from '@/lib/config.tsx';
import { listOf, numberOf, recordOf, textOf } from '@/lib/guards.ts';
import { useTRPC, useTRPCClient } from '@/lib/trpc.ts';
import { availableOf, useWallets } from '@/lib/wallets.ts';

/** Pages of 100 history rows the device reads at most for one statement. */
export const DEVICE_STATEMENT_PAGES = 20;
const PAGE_SIZE = 100;

export type StatementResult =
  | { kind: 'ready'; statement: Statement; builtOnDevice: boolean }
  | { kind: 'loading' }
  | { kind: 'error'; retry: () => void; retrying: boolean }
  | { kind: 'too-long' };

/** The months a member can ask for: this one and the 23 before it, newest first (UTC). */
export function recentMonths(now = new Date(), count = 24): string[] {
  const months: string[] = [];
  for (let i = 0; i < count; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

export const monthBounds = (month: string) => {
  const [year, index] = month.split('-').map(Number) as [number, number];
  return { from: Date.UTC(year, index - 1, 1), to: Date.UTC(year, index, 1) };
};

interface Movement {
  at: number;
  type: string;
  /** Micro-units: positive into the wallet, negative out of it. */
  micros: number;
}

/** What a history row moved in `wallet`: its Transfer reads "from → to", the member's own wallets by name. */
export function movementOf(row: Record<string, unknown>, wallet: string): Movement | undefined {
  const [from, to] = textOf(row.Transfer).split(' → ');
  const amount = numberOf(row.Amount);
  const at = Date.parse(textOf(row.DateTime));
  if (amount === undefined || !Number.isFinite(at)) return undefined;
  const micros = amountToMicros(amount);
  if (to === wallet) return { at, type: textOf(row.Type), micros };
  if (from === wallet) return { at, type: textOf(row.Type), micros: -micros };
  return undefined;
}

/** The statement of `wallet` for `month` from the movements since the month began and the balance now. */
export function statementFromMovements(
  wallet: WalletName,
  month: string,
  movements: readonly Movement[],
  availableNow: number,
): Statement {
  const { from, to } = monthBounds(month);
  const credits = new Map<string, { count: number; micros: number }>();
  const debits = new Map<string, { count: number; micros: number }>();
  let after = 0;
  for (const m of movements) {
    if (m.at < from) continue;
    if (m.at >= to) {
      after += m.micros;
      continue;
    }
    const side = m.micros > 0 ? credits : debits;
    const line = side.get(m.type) ?? { count: 0, micros: 0 };
    side.set(m.type, { count: line.count + 1, micros: line.micros + Math.abs(m.micros) });
  }
  const lines = (side: typeof credits) =>
    [...side]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([reason, line]) => ({ Reason: reason, Count: line.count, Amount: microsToAmount(line.micros) }));
  const totalCredits = [...credits.values()].reduce((sum, l) => sum + l.micros, 0);
  const totalDebits = [...debits.values()].reduce((sum, l) => sum + l.micros, 0);
  const closing = amountToMicros(availableNow) - after;
  const opening = closing - totalCredits + totalDebits;
  return {
    Wallet: wallet,
    Month: month,
    From: new Date(from).toISOString(),
    To: new Date(to).toISOString(),
    Opening: microsToAmount(opening),
    Credits: lines(credits),
    Total_Credits: microsToAmount(totalCredits),
    Debits: lines(debits),
    Total_Debits: microsToAmount(totalDebits),
    Closing: microsToAmount(closing),
  };
}

export function useStatement(wallet: WalletName, month: string): StatementResult {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const served = hasCapability(useConfig(), 'statements');
  const fromServer = useQuery({
    ...trpc['wallet.view_statement'].queryOptions({ wallet, month }),
    enabled: served,
    retry: false,
  });
  const wallets = useWallets();
  const onDevice = useQuery({
    queryKey: ['statement-on-device', wallet, month],
    enabled: !served,
    retry: false,
    queryFn: async ({ signal }) => {
      const criteria = {
        start_date: `${month}-01`,
        pageSize: PAGE_SIZE,
        path: contract['earning.view_all_earning_history'].path,
      };
      const movements: Movement[] = [];
      for (let pageNo = 1; pageNo <= DEVICE_STATEMENT_PAGES; pageNo++) {
        const page = listOf(
          recordOf(
            await client['earning.view_all_earning_history'].query({ ...criteria, pageNo }, { signal }),
          )?.Success,
        );
        for (const row of page) {
          const movement = movementOf(row, wallet);
          if (movement) movements.push(movement);
        }
        if (page.length < PAGE_SIZE) return { movements, complete: true };
      }
      return { movements, complete: false };
    },
  });
  if (served) {
    if (fromServer.isPending) return { kind: 'loading' };
    const statement = recordOf(fromServer.data)?.Success as Statement | undefined;
    if (fromServer.isError || !statement)
      return { kind: 'error', retry: () => void fromServer.refetch(), retrying: fromServer.isFetching };
    return { kind: 'ready', statement, builtOnDevice: false };
  }
  if (onDevice.isPending || wallets.state === 'loading') return { kind: 'loading' };
  // The closing balance is the wallet's balance now: unreadable, there is no statement to build.
  const balance = wallets.state === 'unavailable' ? undefined : availableOf(wallets.wallets, wallet);
  if (onDevice.isError || balance === undefined)
    return {
      kind: 'error',
      retry: () => {
        void onDevice.refetch();
        void wallets.refetch();
      },
      retrying: onDevice.isFetching || wallets.isFetching,
    };
  if (!onDevice.data.complete) return { kind: 'too-long' };
  return {
    kind: 'ready',
    statement: statementFromMovements(wallet, month, onDevice.data.movements, balance),
    builtOnDevice: true,
  };
}
