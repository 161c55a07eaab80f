/**
 * Bounded maps in insertion or use order (core/use-order.ts): eviction goes oldest first however
 * long it has gone on (its iterator is kept between calls), an entry used again goes to the back
 * once it is out of the newest half, and the known addresses of sign-ins (core/attempts.ts) forget
 * the account that signed in longest ago first. No timing is asserted (scripts/bench/read-cache-hits.ts).
 */
import { describe, expect, it } from 'vitest';
import { KnownAddresses } from '../src/core/attempts.ts';
import { OldestFirst, UseOrder } from '../src/core/use-order.ts';

describe('OldestFirst', () => {
  it('evicts in insertion order across evictions, new entries, a clear and a refill', () => {
    const map = new Map<number, string>();
    const oldest = new OldestFirst(map);
    for (let i = 0; i < 10; i++) map.set(i, `v${i}`);
    expect(oldest.evict()).toEqual([0, 'v0']);
    expect(oldest.evict()).toEqual([1, 'v1']);
    map.set(10, 'v10');
    // Keys deleted elsewhere are not answered; the walk goes on from where it stopped.
    map.delete(2);
    expect(oldest.evict()?.[0]).toBe(3);
    // Thousands of evictions, each after a new entry: always the oldest left.
    for (let i = 11; i < 5_000; i++) {
      map.set(i, `v${i}`);
      expect(oldest.evict()?.[0]).toBe(i - 7);
    }
    map.clear();
    expect(oldest.evict()).toBeUndefined();
    map.set(100, 'a');
    map.set(101, 'b');
    expect(oldest.evict()?.[0]).toBe(100);
    expect([...map.keys()]).toEqual([101]);
  });

  it('keeps the key it is told to, and answers nothing when no other is left', () => {
    const map = new Map([
      ['a', 1],
      ['b', 2],
    ]);
    const oldest = new OldestFirst(map);
    expect(oldest.evict('a')).toEqual(['b', 2]);
    expect(oldest.evict('a')).toBeUndefined();
    expect([...map.keys()]).toEqual(['a']);
    // The walk reached the map's end: a new entry after it is found by starting over once.
    map.set('c', 3);
    expect(oldest.evict('c')).toEqual(['a', 1]);
  });
});

describe('UseOrder', () => {
  const filled = (n: number) => {
    const order = new UseOrder<number, { at: number }>();
    for (let i = 0; i < n; i++) order.add(i, { at: 0 });
    return order;
  };

  it('leaves an entry used within the newest half in its place, and moves it back once older', () => {
    const order = filled(10);
    order.used(9, order.entries.get(9)!);
    order.used(6, order.entries.get(6)!);
    expect([...order.entries.keys()]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    order.used(2, order.entries.get(2)!);
    expect([...order.entries.keys()]).toEqual([0, 1, 3, 4, 5, 6, 7, 8, 9, 2]);
  });

  it('evicts the least recently used first, an entry used since in the older half surviving', () => {
    const order = filled(10);
    order.used(0, order.entries.get(0)!);
    expect([1, 2, 3].map(() => order.evict()?.[0])).toEqual([1, 2, 3]);
    expect(order.entries.has(0)).toBe(true);
  });
});

describe('known addresses of sign-ins', () => {
  it('forgets the account that signed in longest ago first, not one that signed in again', () => {
    const known = new KnownAddresses();
    const accounts = KnownAddresses.MAX_ACCOUNTS;
    for (let i = 0; i < accounts; i++) known.remember(`m${i}`, '10.0.0.1', 0);
    // m0 signs in again from a second address (it is in the older half: it goes to the back).
    known.remember('m0', '10.0.0.2', 1);
    known.remember('newcomer', '10.0.0.3', 2);
    expect(known.has('m1', '10.0.0.1', 3)).toBe(false);
    expect(known.has('m2', '10.0.0.1', 3)).toBe(true);
    expect(known.has('m0', '10.0.0.1', 3)).toBe(true);
    expect(known.has('m0', '10.0.0.2', 3)).toBe(true);
    expect(known.has('newcomer', '10.0.0.3', 3)).toBe(true);
  });
});
