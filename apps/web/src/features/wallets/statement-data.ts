/**
 * A wallet's monthly statement. With the server's `statements` capability, the ledger's own
 * figures. Without it (the provider), the statement is built on the device from what the spec's
 * endpoints give: the earning history from the month's first day until today (each row's Transfer
 * says whether money came into the wallet or left it) and the wallet's Available balance now,
 * working back: closing = Available - what moved after the month, opening = closing - the month's
 * net. When the history is longer than the device reads, no statement is claimed.
 *
 * The months offered are the server's: the ledger's statement says when it was made (Made_At, the
 * server clock, which QA may have moved months ahead of this device), and the months run back
 * from that one. Without the capability the device's clock is all there is.
 */
import { useQuery } from '@tanstack/react-query';
import {
  amountToMicros,
  contract,
  microsToAmount,
  type Statement,
  type StatementLine,
  type WalletName,
} from '@md/shared';
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

/** The months a member can ask for: the current one by `now` and the 23 before it, newest first (UTC). */
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
  /** The row's TransID. */
  ref: string;
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
  const ref = textOf(row.TransID);
  if (to === wallet) return { at, type: textOf(row.Type), ref, micros };
  if (from === wallet) return { at, type: textOf(row.Type), ref, micros: -micros };
  return undefined;
}

/** A short stable hash (two FNV-1a rounds, 40 bits as hex): the same rows give the same reference. */
function rowsHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return (a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0')).slice(0, 10).toUpperCase();
}

/**
 * The statement of `wallet` for `month` from the movements since the month began (newest first, as
 * the history gives them) and the balance now, as of `now` (this device's clock) for the current month.
 */
export function statementFromMovements(
  wallet: WalletName,
  month: string,
  movements: readonly Movement[],
  availableNow: number,
  now = Date.now(),
): Statement {
  const { from, to } = monthBounds(month);
  const credits = new Map<string, { count: number; micros: number }>();
  const debits = new Map<string, { count: number; micros: number }>();
  const inMonth: { movement: Movement; index: number }[] = [];
  let after = 0;
  movements.forEach((m, index) => {
    if (m.at < from) return;
    if (m.at >= to) {
      after += m.micros;
      return;
    }
    inMonth.push({ movement: m, index });
    const side = m.micros > 0 ? credits : debits;
    const line = side.get(m.type) ?? { count: 0, micros: 0 };
    side.set(m.type, { count: line.count + 1, micros: line.micros + Math.abs(m.micros) });
  });
  const lines = (side: typeof credits) =>
    [...side]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([reason, line]) => ({ Reason: reason, Count: line.count, Amount: microsToAmount(line.micros) }));
  const totalCredits = [...credits.values()].reduce((sum, l) => sum + l.micros, 0);
  const totalDebits = [...debits.values()].reduce((sum, l) => sum + l.micros, 0);
  const closing = amountToMicros(availableNow) - after;
  const opening = closing - totalCredits + totalDebits;
  // Oldest first; rows of the same instant keep the history's order reversed (it lists newest first).
  inMonth.sort((x, y) => x.movement.at - y.movement.at || y.index - x.index);
  let balance = opening;
  const items: StatementLine[] = inMonth.map(({ movement: m }) => {
    balance += m.micros;
    return {
      DateTime: new Date(m.at).toISOString(),
      Reason: m.type,
      Reference: m.ref,
      Amount: microsToAmount(m.micros),
      Balance: microsToAmount(balance),
    };
  });
  const rows = inMonth.map(({ movement: m }) => `${m.ref}:${m.at}:${m.micros}`).join('|');
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
    As_Of: new Date(Math.min(to, now)).toISOString(),
    Made_At: new Date(now).toISOString(),
    Reference: `ST-${wallet.toUpperCase()}-${month.replace('-', '')}-${rowsHash(`${wallet}|${month}|${opening}|${rows}`)}`,
    Lines: items,
    Line_Count: items.length,
  };
}

/** Whether statements come from the ledger (the server's `statements` capability). */
export const useStatementsServed = () => hasCapability(useConfig(), 'statements');

/**
 * The statement of `wallet` for `month`; without a month, the current one: the server's by its
 * clock (the answer says which), or this device's when the statement is built here.
 */
export function useStatement(wallet: WalletName, month: string | undefined): StatementResult {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const served = useStatementsServed();
  const fromServer = useQuery({
    ...trpc['wallet.view_statement'].queryOptions(month === undefined ? { wallet } : { wallet, month }),
    enabled: served,
    retry: false,
  });
  const wallets = useWallets();
  const deviceMonth = month ?? recentMonths()[0]!;
  const onDevice = useQuery({
    queryKey: ['statement-on-device', wallet, deviceMonth],
    enabled: !served,
    retry: false,
    queryFn: async ({ signal }) => {
      const criteria = {
        start_date: `${deviceMonth}-01`,
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
    statement: statementFromMovements(
      wallet,
      deviceMonth,
      onDevice.data.movements,
      balance,
      // As of when the history was read (the balance is the one read beside it).
      Math.max(onDevice.dataUpdatedAt, wallets.dataUpdatedAt),
    ),
    builtOnDevice: true,
  };
}
