/**
 * Withdrawal addresses in their EIP-55 form in databases written before addresses were
 * checksummed: the demo seed stored lowercase ones (195 of 197 withdrawals), so a member saw both forms. SQL has no keccak,
 * so this start-up fix computes checksums in JS. It runs once per database: a meta mark records
 * that it ran, and every later writer stores checksummed addresses (requestWithdrawal, saveWalletAddress).
 */
import { getAddress, isAddress } from 'viem';
import type { Services } from '../../core/services.ts';
import { prepared } from '../ledger/sql.ts';

/** meta key: the stored withdrawal addresses were checksummed (a scenario reset wipes it with the rest of meta; the fix is idempotent). */
export const ADDRESSES_CHECKSUMMED_KEY = 'withdrawal_addresses_checksummed';

/**
 * Rows whose hex digits are all one case: what a lowercase (or uppercase) writer stored. A
 * checksummed address has mixed case unless it has no letters, which the JS side then keeps as
 * it is; so only candidates reach keccak, not every member of a 1,000,000-member database.
 */
const singleCase = (column: string) =>
  `(substr(${column}, 3) = lower(substr(${column}, 3)) or substr(${column}, 3) = upper(substr(${column}, 3)))`;

/** The EIP-55 form of a stored address; null for one that is not an address at all (left as it is). */
const checksummed = (address: string): string | null =>
  isAddress(address, { strict: false }) ? getAddress(address) : null;

export interface ChecksumFixResult {
  withdrawals: number;
  members: number;
  notifications: number;
}

/**
 * Rewrites stored withdrawal addresses to EIP-55: each withdrawal's address, the text of the
 * notifications that quote it, and the members' saved addresses. One probe of the meta mark when
 * it ran before; otherwise one scan of each table (about a second at 1,000,000 members), in one
 * write transaction, then the mark. Answers how many rows changed.
 */
export function checksumStoredAddresses(ctx: Pick<Services, 'sqlite'>): ChecksumFixResult {
  const sqlite = ctx.sqlite;
  const done = { withdrawals: 0, members: 0, notifications: 0 };
  if (prepared(sqlite, 'select 1 from meta where key = ?').get(ADDRESSES_CHECKSUMMED_KEY)) return done;
  return sqlite
    .transaction(() => {
      const withdrawals = sqlite
        .prepare(
          `select id, member_id as memberId, trans_id as transId, address from withdrawals where ${singleCase('address')}`,
        )
        .all() as { id: number; memberId: number; transId: string; address: string }[];
      const setWithdrawal = sqlite.prepare('update withdrawals set address = ? where id = ?');
      // The approval notification names the address ("… sent to 0x…"); notifications are read by member.
      const setNotifications = sqlite.prepare(
        'update notifications set message = replace(message, ?, ?) where member_id = ? and trans_id = ? and instr(message, ?) > 0',
      );
      for (const row of withdrawals) {
        const fixed = checksummed(row.address);
        if (!fixed || fixed === row.address) continue;
        setWithdrawal.run(fixed, row.id);
        done.withdrawals++;
        done.notifications += setNotifications.run(
          row.address,
          fixed,
          row.memberId,
          row.transId,
          row.address,
        ).changes;
      }
      const members = sqlite
        .prepare(
          `select id, wallet_address as address from members where wallet_address is not null and ${singleCase('wallet_address')}`,
        )
        .all() as {
        id: number;
        address: string;
      }[];
      const setMember = sqlite.prepare('update members set wallet_address = ? where id = ?');
      for (const row of members) {
        const fixed = checksummed(row.address);
        if (!fixed || fixed === row.address) continue;
        setMember.run(fixed, row.id);
        done.members++;
      }
      prepared(
        sqlite,
        'insert into meta (key, value) values (?, ?) on conflict(key) do update set value = excluded.value',
      ).run(ADDRESSES_CHECKSUMMED_KEY, '1');
      return done;
    })
    .immediate();
}
