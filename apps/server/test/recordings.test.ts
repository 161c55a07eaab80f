/** The gateway's HAR recordings as a unit: what reaches the file when, and how replays are matched. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRecordings, type Exchange, type Har } from '../src/modules/gateway/recordings.ts';

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-recordings-test-'));
  dirs.push(dir);
  return dir;
};
const exchange = (username: string, answer: string): Exchange => ({
  name: 'level.downline_exist',
  url: 'http://provider.test/level/downline_exist',
  at: 0,
  requestBody: { username, jwt: 'secret-token' },
  authorization: true,
  status: 200,
  responseText: answer,
  contentType: 'application/json',
  providerMs: 3,
});
const entriesOnDisk = (dir: string, name: string) =>
  (JSON.parse(readFileSync(join(dir, `${name}.har`), 'utf8')) as Har).log.entries.length;

describe('recordings', () => {
  it('write a burst of exchanges to the file together, not one rewrite each, and all of them at stop', () => {
    vi.useFakeTimers();
    const dir = folder();
    const recordings = createRecordings(dir);
    recordings.start('burst');
    for (let i = 0; i < 50; i++) recordings.add(exchange(`member_${i}`, `{"Success":${i}}`));
    expect(entriesOnDisk(dir, 'burst')).toBe(0);
    vi.advanceTimersByTime(1_000);
    expect(entriesOnDisk(dir, 'burst')).toBe(50);
    recordings.add(exchange('late', '{"Success":true}'));
    recordings.stop('burst');
    expect(entriesOnDisk(dir, 'burst')).toBe(51);
    recordings.close();
  });

  it('replay repeated calls in recorded order (the last repeating), ignore the token field, and skip entries the contract does not name', () => {
    const dir = folder();
    const recordings = createRecordings(dir);
    recordings.start('order');
    recordings.add(exchange('gonzalo_001', '{"Success":"first"}'));
    recordings.add(exchange('gonzalo_001', '{"Success":"second"}'));
    recordings.stop('order');
    const replay = () =>
      recordings.replay('order', 'level.downline_exist', { username: 'gonzalo_001', jwt: 'another-token' })
        .text;
    expect([replay(), replay(), replay()]).toEqual([
      '{"Success":"first"}',
      '{"Success":"second"}',
      '{"Success":"second"}',
    ]);

    // A file edited by hand with an entry for no contract endpoint still replays the rest.
    const file = join(dir, 'order.har');
    const har = JSON.parse(readFileSync(file, 'utf8')) as Har;
    har.log.entries.unshift({ ...har.log.entries[0]!, _procedure: 'no.such_endpoint' as never });
    writeFileSync(file, JSON.stringify(har));
    recordings.rewind('order');
    expect(replay()).toBe('{"Success":"first"}');
    expect(() => recordings.replay('order', 'level.downline_exist', { username: 'someone_else' })).toThrow(
      /holds no \/level\/downline_exist call/,
    );
    recordings.close();
  });
});
