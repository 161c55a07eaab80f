/**
 * What a read cache's hit costs as the members it keeps grow (core/read-cache.ts): the token
 * check's member and session caches keep one entry for every member signed in, and each request
 * reads both, then its answer. One member is read again and again while `--members` others are
 * kept, beside the floor in the same run: a plain Map's get of the same value. The goal: a hit's
 * cost does not grow with the members kept (within 1.5× of its cost with 10 of them). Beside it, a
 * miss when the cache is full at that many members (each get a new member, one evicted): more members
 * signed in than the token check's caches keep make every request such a miss.
 *   node --import tsx scripts/bench/read-cache-hits.ts [--members 10,2000,5000,10000] [--hits 1000000] [--rounds 3]
 */
import Database from 'better-sqlite3';
import { createReadCache } from '../../apps/server/src/core/read-cache.ts';
import { median, numberArg, stringArg } from './cli.ts';

const SIZES = (stringArg('members') ?? '10,2000,5000,10000').split(',').map(Number);
const HITS = numberArg('hits', 1_000_000);
const ROUNDS = numberArg('rounds', 3);
const READ_MEMBER = 1;

/** ns per call of `hit`, over HITS calls after a tenth as many unmeasured. */
function nsPerCall(hit: () => number): number {
  let sink = 0;
  for (let i = 0; i < HITS / 10; i++) sink += hit();
  const started = performance.now();
  for (let i = 0; i < HITS; i++) sink += hit();
  const ns = ((performance.now() - started) * 1e6) / HITS;
  if (sink === -1) console.log(sink); // keeps the loop's work
  return ns;
}

const rows: { members: number; cache: number; floor: number; miss: number }[] = [];
for (const members of SIZES) {
  const cacheNs: number[] = [];
  const floorNs: number[] = [];
  const missNs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const sqlite = new Database(':memory:');
    // Kept from this table only, as the token check's session cache is: nothing here writes it.
    sqlite.exec('create table sessions (id integer primary key, member_id integer not null)');
    // Room for every member and the one read: none is evicted while the hits are measured.
    const cache = createReadCache<number>(members + 1, { tables: ['sessions'] });
    const floor = new Map<number, number>();
    for (let member = 2; member <= members + 1; member++) {
      cache.get(sqlite, member, 'session', () => member);
      floor.set(member, member);
    }
    cache.get(sqlite, READ_MEMBER, 'session', () => READ_MEMBER);
    floor.set(READ_MEMBER, READ_MEMBER);
    cacheNs.push(nsPerCall(() => cache.get(sqlite, READ_MEMBER, 'session', () => READ_MEMBER)));
    floorNs.push(nsPerCall(() => floor.get(READ_MEMBER)!));
    const full = createReadCache<number>(members, { tables: ['sessions'] });
    let newcomer = 0;
    missNs.push(
      nsPerCall(() => {
        const member = ++newcomer;
        return full.get(sqlite, member, 'session', () => member);
      }),
    );
    sqlite.close();
  }
  rows.push({ members, cache: median(cacheNs), floor: median(floorNs), miss: median(missNs) });
}

const fewest = rows[0]!;
console.log(`a hit of one member's answer, ns (median of ${ROUNDS} rounds of ${HITS} hits)\n`);
console.log(
  '| members kept | a hit | a Map.get (floor) | ÷ floor | ÷ the fewest members | a miss evicting one, the cache full |',
);
console.log('|---|---|---|---|---|---|');
for (const row of rows)
  console.log(
    `| ${row.members} | ${row.cache.toFixed(0)} | ${row.floor.toFixed(1)} | ${(row.cache / row.floor).toFixed(1)}× | ${(row.cache / fewest.cache).toFixed(2)}×${row.cache / fewest.cache > 1.5 ? ' **MISSED** (≤ 1.5×)' : ''} | ${row.miss.toFixed(0)} |`,
  );
