/**
 * Migration 0018 reads the ROI payouts' notices of a database of the previous main from their
 * credits: a stored notice that says what its credit says goes; one that says something else stays
 * and stands for its credit; a payout whose member had notices off (no stored notice) stays without
 * one. Every member's list and count read as before, every other row stays, the ledger stays clean.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ledgerCheck } from '../src/modules/ledger/ledger.ts';
import { memberNoticeCount, memberNotices, type Notice } from '../src/modules/notifications/notices.ts';
import { previousMainDemo, storedNotices, tableContents } from './helpers.ts';

describe('a database of the previous main', () => {
  it('lists every member’s notices as before with the ROI payouts’ read from their credits, and keeps every other row', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-roi-notices-migration-'));
    try {
      const path = join(dir, 'old.sqlite');
      let demo = 0;
      let quiet = 0;
      let edited = '';
      const lists = new Map<number, Notice[]>();
      let roiStored = 0;
      const { clock, before, columns } = await previousMainDemo(path, '0017_web_push', (old) => {
        roiStored = old
          .prepare("select count(*) from notifications where type = 'ROI_Income'")
          .pluck()
          .get() as number;
        demo = old.prepare("select id from members where username = 'demo'").pluck().get() as number;
        // A member who had payout notices off: their payouts were paid without a notice.
        quiet = old
          .prepare(
            "select n.member_id from notifications n where n.type = 'ROI_Income' and n.member_id <> ? group by n.member_id order by count(*) desc limit 1",
          )
          .pluck()
          .get(demo) as number;
        old.prepare("delete from notifications where member_id = ? and type = 'ROI_Income'").run(quiet);
        // A stored notice whose text its credit would not give (written by an earlier wording).
        edited = old
          .prepare(
            "select trans_id from notifications where member_id = ? and type = 'ROI_Income' order by id limit 1",
          )
          .pluck()
          .get(demo) as string;
        old
          .prepare("update notifications set message = 'ROI paid.' where member_id = ? and trans_id = ?")
          .run(demo, edited);
        for (const member of old.prepare('select id from members').pluck().all() as number[])
          lists.set(member, storedNotices(old, member));
      });
      expect(roiStored).toBeGreaterThan(100);
      expect(lists.get(quiet)!.some((n) => n.type === 'ROI_Income')).toBe(false);

      const app = await buildApp({ databasePath: path, seed: 'empty', clock });
      try {
        const db = app.services.sqlite;
        // Every member's list, whole and page by page, and its count.
        for (const [member, list] of lists) {
          expect(memberNotices(app.services, member, 1e9)).toEqual(list);
          expect(memberNoticeCount(app.services, member)).toBe(list.length);
        }
        const demoList = lists.get(demo)!;
        expect(demoList.length).toBeGreaterThan(25);
        expect(memberNotices(app.services, demo, 20, 20)).toEqual(demoList.slice(20, 40));
        // Page by page, for every member (the quiet one's notices all come from one side of the merge).
        for (const [member, list] of lists)
          for (let offset = 0; offset < list.length; offset += 7)
            expect(memberNotices(app.services, member, 7, offset)).toEqual(list.slice(offset, offset + 7));
        expect(demoList.find((n) => n.transId === edited)?.message).toBe('ROI paid.');

        // Stored: the edited notice only, of all the ROI ones; withheld: it and the quiet member's payouts.
        expect(
          db.prepare("select trans_id from notifications where type = 'ROI_Income'").pluck().all(),
        ).toEqual([edited]);
        const quietPayouts = db
          .prepare(
            "select count(*) from transfers t join accounts a on a.id = t.to_account_id where a.member_id = ? and t.reason = 'roi'",
          )
          .pluck()
          .get(quiet) as number;
        expect(quietPayouts).toBeGreaterThan(0);
        expect(
          db
            .prepare(
              'select member_id, count(*) as n from notices_withheld group by member_id order by member_id',
            )
            .all(),
        ).toEqual(
          [
            { member_id: demo, n: 1 },
            { member_id: quiet, n: quietPayouts },
          ].sort((a, b) => a.member_id - b.member_id),
        );
        expect(
          db
            .prepare("select count(*) from sqlite_master where name = 'notifications_trans_id_upgrade'")
            .pluck()
            .get(),
        ).toBe(0);

        // Every other table as it was (notifications compared as the lists members see: helpers.ts).
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
