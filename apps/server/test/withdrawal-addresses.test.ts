/**
 * Withdrawal addresses in one form, EIP-55: the seed stores checksummed ones, a
 * request stores the checksum of whatever case it was given, and a database written before (lowercase
 * rows) is fixed once at start-up — withdrawals, the notifications that quote them, members' saved
 * addresses — then shows only checksummed addresses in the QA listing, notifications and profile.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amountToMicros, MSG, ZERO_ADDRESS } from '@md/shared';
import {
  ADDRESSES_CHECKSUMMED_KEY,
  checksumStoredAddresses,
} from '../src/modules/withdrawals/checksum-fix.ts';
import { requestWithdrawal } from '../src/modules/withdrawals/withdrawals.ts';
import { DEMO_WALLET_ADDRESS } from '../src/seed/demo-money.ts';
import { createTestApp, memberIdOf, moneySnapshot, type TestApp } from './helpers.ts';
import { grant } from './money-fixtures.ts';

const ADDRESS_IN_TEXT = /0x[0-9a-fA-F]{40}/g;
const isChecksummed = (address: string) => getAddress(address.toLowerCase()) === address;

/** Every stored address — withdrawals, members' saved ones, those quoted by notifications — that is not EIP-55. */
function notChecksummed(t: TestApp): string[] {
  const sqlite = t.services.sqlite;
  const withdrawals = (sqlite.prepare('select address from withdrawals').all() as { address: string }[]).map(
    (r) => r.address,
  );
  const members = (
    sqlite
      .prepare('select wallet_address as address from members where wallet_address is not null')
      .all() as { address: string }[]
  ).map((r) => r.address);
  const quoted = (
    sqlite.prepare("select message from notifications where message like '%0x%'").all() as {
      message: string;
    }[]
  ).flatMap((r) => r.message.match(ADDRESS_IN_TEXT) ?? []);
  return [...withdrawals, ...members, ...quoted].filter((a) => !isChecksummed(a));
}

describe('the seeded demo database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
  });
  afterAll(() => t.close());

  it('stores every withdrawal address, saved address and quoted address checksummed', () => {
    expect(t.count('withdrawals')).toBeGreaterThan(100);
    expect(notChecksummed(t)).toEqual([]);
    // Mixed case, not only digits: the check above is about something.
    const lowercaseable = t.services.sqlite
      .prepare('select count(*) as n from withdrawals where address <> lower(address)')
      .get() as { n: number };
    expect(lowercaseable.n).toBe(t.count('withdrawals'));
  });

  it('stores a request made with a lowercase address checksummed, and refuses what is not an address (or the zero address) without moving money', () => {
    const id = memberIdOf(t, 'demo');
    grant(t, 'demo', 'Withdrawal', 100);
    const row = requestWithdrawal(t.services, id, amountToMicros(20), DEMO_WALLET_ADDRESS.toLowerCase());
    expect(row.address).toBe(DEMO_WALLET_ADDRESS);
    const before = moneySnapshot(t);
    expect(() => requestWithdrawal(t.services, id, amountToMicros(20), '0x1234')).toThrow(
      MSG.invalidWalletAddress,
    );
    // A zero address saved before the rule refusing it: the payout would be burnt.
    expect(() => requestWithdrawal(t.services, id, amountToMicros(20), ZERO_ADDRESS)).toThrow(
      MSG.invalidWalletAddress,
    );
    expect(moneySnapshot(t)).toBe(before);
  });
});

describe('a database with lowercase withdrawal addresses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-checksum-'));
  const path = join(dir, 'app.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('opens with every address checksummed: QA listing, notifications and profile', async () => {
    // What the seed wrote before: lowercase everywhere, and no mark of the fix.
    const old = await createTestApp({ seed: 'demo', databasePath: path });
    const sqlite = old.services.sqlite;
    const addresses = (
      sqlite.prepare('select distinct address from withdrawals').all() as { address: string }[]
    ).map((r) => r.address);
    sqlite.transaction(() => {
      const lowerNotification = sqlite.prepare(
        'update notifications set message = replace(message, ?, lower(?))',
      );
      for (const address of addresses) lowerNotification.run(address, address);
      sqlite.prepare('update withdrawals set address = lower(address)').run();
      sqlite.prepare('update members set wallet_address = lower(wallet_address)').run();
      sqlite.prepare('delete from meta where key = ?').run(ADDRESSES_CHECKSUMMED_KEY);
    })();
    const lowercase = notChecksummed(old);
    expect(lowercase.length).toBeGreaterThan(2 * addresses.length);
    expect(lowercase).toContain(DEMO_WALLET_ADDRESS.toLowerCase());
    const moneyBefore = moneySnapshot(old);
    await old.close();

    const t = await createTestApp({ seed: 'demo', databasePath: path });
    try {
      expect(notChecksummed(t)).toEqual([]);
      expect(moneySnapshot(t)).toBe(moneyBefore);
      const qa = await t.get<{ username: string; address: string }[]>('/__qa/withdrawals');
      expect(qa.body.length).toBeGreaterThan(100);
      expect(qa.body.filter((w) => !isChecksummed(w.address))).toEqual([]);
      expect(qa.body.filter((w) => w.username === 'demo').map((w) => w.address)).toContain(
        DEMO_WALLET_ADDRESS,
      );

      const token = await t.login('demo');
      const profile = await t.post<{ Success: { Wallet_Details: { Wallet_Address: string } }[] }>(
        '/user/view_profile',
        {},
        { token },
      );
      expect(profile.body.Success[0]?.Wallet_Details.Wallet_Address).toBe(DEMO_WALLET_ADDRESS);
      const notifications = await t.post<{ Success: unknown[] }>(
        '/notification/view_notification',
        { page_size: 200 },
        { token },
      );
      const quoted = JSON.stringify(notifications.body.Success).match(ADDRESS_IN_TEXT) ?? [];
      expect(quoted).toContain(DEMO_WALLET_ADDRESS);
      expect(quoted.filter((a) => !isChecksummed(a))).toEqual([]);

      // Once per database: the mark makes the next start a single probe, changing nothing.
      expect(
        t.services.sqlite.prepare('select value from meta where key = ?').get(ADDRESSES_CHECKSUMMED_KEY),
      ).toEqual({ value: '1' });
      expect(checksumStoredAddresses(t.services)).toEqual({ withdrawals: 0, members: 0, notifications: 0 });
    } finally {
      await t.close();
    }
  });

  it('fixes only what needs it, and again after the mark is gone (idempotent)', async () => {
    const t = await createTestApp({ seed: 'demo', databasePath: path });
    try {
      const sqlite = t.services.sqlite;
      sqlite.prepare('delete from meta where key = ?').run(ADDRESSES_CHECKSUMMED_KEY);
      expect(checksumStoredAddresses(t.services)).toEqual({ withdrawals: 0, members: 0, notifications: 0 });
      sqlite
        .prepare(
          'update withdrawals set address = upper(substr(address, 3)) where id = (select min(id) from withdrawals)',
        )
        .run();
      sqlite
        .prepare(
          "update withdrawals set address = '0x' || address where id = (select min(id) from withdrawals)",
        )
        .run();
      sqlite.prepare('delete from meta where key = ?').run(ADDRESSES_CHECKSUMMED_KEY);
      expect(checksumStoredAddresses(t.services)).toMatchObject({ withdrawals: 1, members: 0 });
      expect(notChecksummed(t)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
