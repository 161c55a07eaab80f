/**
 * A purchase's direct and level income notices are read from their credits (notices.ts): each
 * sponsor paid sees the notice the purchase used to store, word for word, and nothing is stored;
 * a sponsor with payout notices off gets none. Migration 0019 reads the stored ones of a database
 * of the previous main from their credits: every member's list and count read as before, every
 * other row stays, the ledger stays clean.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMoney, microsToAmount } from '@md/shared';
import { buildApp } from '../src/app.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import {
  memberNoticeCount,
  memberNotices,
  purchaseIncomeNotice,
  type Notice,
} from '../src/modules/notifications/notices.ts';
import {
  createTestApp,
  memberIdOf,
  previousMainDemo,
  storedNotices,
  tableContents,
  type TestApp,
} from './helpers.ts';
import { grant } from './money-fixtures.ts';

interface LevelIncome {
  member: number;
  username: string;
  level: number;
  received: number;
  transId: string;
  at: number;
}

describe('a purchase', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: 'demo' });
  });
  afterAll(() => t.close());

  it('tells each sponsor it paid what it paid, read from the credit; a sponsor with payout notices off is not told', async () => {
    const db = t.services.sqlite;
    // A buyer with five sponsors above it, as many as can be paid (an ACTIVE package); the second
    // of those turns payout notices off.
    const buyer = db
      .prepare(
        `with recursive up(id, top, level) as (
           select id, sponsor_id, 1 from members where sponsor_id is not null
           union all
           select up.id, m.sponsor_id, up.level + 1 from up join members m on m.id = up.top
            where up.level < 5 and m.sponsor_id is not null
         )
         select m.username from up join members m on m.id = up.id
          group by up.id having max(up.level) = 5
          order by sum(exists (select 1 from subscriptions s where s.member_id = up.top and s.status = 'ACTIVE')) desc, up.id
          limit 1`,
      )
      .pluck()
      .get() as string;
    expect(buyer).toBeTruthy();
    const sponsorAt = (level: number) =>
      db
        .prepare(
          `with recursive up(id, level) as (
             select sponsor_id, 1 from members where username = ?
             union all
             select m.sponsor_id, up.level + 1 from members m join up on m.id = up.id where up.level < ?
           ) select m.username from up join members m on m.id = up.id where up.level = ?`,
        )
        .pluck()
        .get(buyer, level, level) as string;
    const payable = [1, 2, 3, 4, 5].filter((level) =>
      db
        .prepare(
          "select 1 from subscriptions s join members m on m.id = s.member_id where m.username = ? and s.status = 'ACTIVE'",
        )
        .get(sponsorAt(level)),
    );
    expect(payable.length).toBeGreaterThanOrEqual(3);
    const quiet = sponsorAt(payable[1]!);
    expect(
      (
        await t.post(
          '/notification/update_preferences',
          { event: 'payouts', in_app: false },
          { token: await t.login(quiet) },
        )
      ).status,
    ).toBe(200);
    const storedBefore = db.prepare('select count(*) from notifications').pluck().get() as number;
    const listsBefore = new Map(
      [1, 2, 3, 4, 5].map((level) => {
        const id = memberIdOf(t, sponsorAt(level));
        return [id, memberNotices(t.services, id, 1e9)] as const;
      }),
    );

    grant(t, buyer, 'Deposit', 100);
    const bought = await t.post(
      '/subscription/buy_subscription_packages',
      { plan: 'starter' },
      { token: await t.login(buyer) },
    );
    expect(bought.status).toBe(200);

    const incomes = db
      .prepare(
        `select l.member_id as member, m.username, l.level, l.received_amount as received, l.trans_id as transId, l.created_at as at
           from level_incomes l join members m on m.id = l.member_id
          where l.subscription_trans_id = (select trans_id from subscriptions where member_id = ? order by id desc limit 1)
          order by l.level`,
      )
      .all(memberIdOf(t, buyer)) as LevelIncome[];
    expect(incomes.map((income) => income.level)).toEqual([1, 2, 3, 4, 5]);
    const paid = incomes.filter((income) => income.received > 0);
    expect(paid.length).toBeGreaterThanOrEqual(3);
    expect(paid.some((income) => income.username === quiet)).toBe(true);

    for (const income of incomes) {
      const list = memberNotices(t.services, income.member, 1e9);
      const before = listsBefore.get(income.member)!;
      if (income.received === 0 || income.username === quiet) {
        expect(list, income.username).toEqual(before);
        continue;
      }
      // The newest notice, then the list as it was.
      expect(list).toEqual([
        {
          type: income.level === 1 ? 'Direct_Income' : 'Level_Income',
          message: purchaseIncomeNotice(formatMoney(microsToAmount(income.received)), income.level, buyer),
          transId: income.transId,
          createdAt: income.at,
        },
        ...before,
      ]);
      expect(memberNoticeCount(t.services, income.member)).toBe(before.length + 1);
    }
    // Over the API: the first page of the level-one sponsor starts with it.
    const direct = incomes[0]!;
    if (direct.received > 0 && direct.username !== quiet) {
      const page = await t.post<{ Success: { Message: string; TransID: string; Type: string }[] }>(
        '/notification/view_notification',
        {},
        { token: await t.login(direct.username) },
      );
      expect(page.body.Success[0]).toMatchObject({ TransID: direct.transId, Type: 'Direct_Income' });
    }
    // Stored: the buyer's own purchase notice only; withheld: the quiet sponsor's credit.
    expect(db.prepare('select count(*) from notifications').pluck().get()).toBe(storedBefore + 1);
    const quietIncome = incomes.find((income) => income.username === quiet)!;
    expect(
      db
        .prepare('select member_id as member, trans_id as transId from notices_withheld where trans_id = ?')
        .all(quietIncome.transId),
    ).toEqual([{ member: quietIncome.member, transId: quietIncome.transId }]);
  });
});

describe('a database of the previous main', () => {
  it('lists every member’s notices as before with the purchases’ income read from their credits, and keeps every other row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-purchase-notices-migration-'));
    try {
      const path = join(dir, 'old.sqlite');
      let demo = 0;
      let quiet = 0;
      let edited = '';
      let purchaseStored = 0;
      const lists = new Map<number, Notice[]>();
      const purchaseTypes = "type in ('Direct_Income', 'Level_Income')";
      const { clock, before, columns } = await previousMainDemo(
        path,
        '0018_roi_notices_from_ledger',
        (old) => {
          purchaseStored = old
            .prepare(`select count(*) from notifications where ${purchaseTypes}`)
            .pluck()
            .get() as number;
          demo = old.prepare("select id from members where username = 'demo'").pluck().get() as number;
          // A member who had payout notices off: their purchase income was paid without a notice.
          quiet = old
            .prepare(
              `select member_id from notifications where ${purchaseTypes} and member_id <> ? group by member_id order by count(*) desc limit 1`,
            )
            .pluck()
            .get(demo) as number;
          old.prepare(`delete from notifications where member_id = ? and ${purchaseTypes}`).run(quiet);
          // A stored notice whose text its credit would not give (written by an earlier wording).
          edited = old
            .prepare(
              `select trans_id from notifications where member_id = ? and ${purchaseTypes} order by id limit 1`,
            )
            .pluck()
            .get(demo) as string;
          old
            .prepare(
              "update notifications set message = 'Level income paid.' where member_id = ? and trans_id = ?",
            )
            .run(demo, edited);
          // Each member's stored notices then: their purchase notices are among them.
          for (const member of old.prepare('select id from members').pluck().all() as number[])
            lists.set(member, storedNotices(old, member));
        },
      );
      expect(purchaseStored).toBeGreaterThan(20);
      expect(edited).toBeTruthy();

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        // Every member's list holds the purchase notices it held, as they read; and its count.
        for (const [member, stored] of lists) {
          const list = memberNotices(app.services, member, 1e9);
          const purchase = (notices: Notice[]) =>
            notices.filter((n) => n.type === 'Direct_Income' || n.type === 'Level_Income');
          expect(purchase(list)).toEqual(purchase(stored));
          expect(memberNoticeCount(app.services, member)).toBe(list.length);
        }
        expect(memberNotices(app.services, demo, 1e9).find((n) => n.transId === edited)?.message).toBe(
          'Level income paid.',
        );
        // Stored: the edited notice only, of all the purchases'; withheld: it and the quiet member's income.
        expect(db.prepare(`select trans_id from notifications where ${purchaseTypes}`).pluck().all()).toEqual(
          [edited],
        );
        const quietPaid = db
          .prepare(
            "select count(*) from transfers t join accounts a on a.id = t.to_account_id where a.member_id = ? and t.reason in ('direct_income', 'level_income')",
          )
          .pluck()
          .get(quiet) as number;
        expect(quietPaid).toBeGreaterThan(0);
        const withheld = db.prepare(
          "select count(*) from notices_withheld w join transfers t on t.trans_id = w.trans_id where w.member_id = ? and t.reason in ('direct_income', 'level_income')",
        );
        expect(withheld.pluck().get(demo)).toBe(1);
        expect(withheld.pluck().get(quiet)).toBe(quietPaid);
        expect(
          db
            .prepare(
              "select count(*) from notices_withheld w join transfers t on t.trans_id = w.trans_id where t.reason in ('direct_income', 'level_income')",
            )
            .pluck()
            .get(),
        ).toBe(1 + quietPaid);

        // Every table as it was, notifications as the lists members see (helpers.ts: whole, in order).
        expect(tableContents(db, columns)).toEqual(before);
        expect(ledgerCheck(app.services).mismatchedWallets).toEqual([]);
      } finally {
        await app.fastify.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
