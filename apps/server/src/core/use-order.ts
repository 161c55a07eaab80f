/**
 * Bounded maps kept in insertion or use order, at a cost that does not grow with their size on
 * Node 20's V8 (docs/decisions/performance.md, "No Map reordered on every hit"):
 * - a `delete` then `set` of one of a Map's last keys costs O(size): a key used again and again is
 *   moved back only once it is out of the newest half of the entries (`UseOrder.used`);
 * - a new iterator from the front of a Map skips every entry deleted there since its last rehash,
 *   O(size) for a map evicted from over and over: eviction keeps its iterator between calls
 *   (`OldestFirst`; a Map's iterator follows it through deletes, sets, clears and rehashes).
 * Measured (a throwaway, 10,000 string keys): an eviction 3.8 µs with a new iterator each time,
 * 0.12 µs with one kept; a delete and set of the last key 10 µs.
 */

/** Evicts a Map's entries oldest first (insertion order), with one iterator kept between calls. */
export class OldestFirst<K, V> {
  private iterator: Iterator<[K, V]> | undefined;

  constructor(private readonly map: Map<K, V>) {}

  /**
   * Deletes the oldest entry, but `keep`'s, and answers it; undefined when the map holds no other.
   * Starts again from the front at most once a call (the walk may have reached the map's end).
   */
  evict(keep?: K): [K, V] | undefined {
    let restarted = false;
    for (;;) {
      let next = this.iterator?.next();
      if (!next || next.done) {
        if (restarted) return undefined;
        restarted = true;
        this.iterator = this.map.entries();
        next = this.iterator.next();
        if (next.done) return undefined;
      }
      if (next.value[0] === keep) continue;
      this.map.delete(next.value[0]);
      return next.value;
    }
  }
}

/** An entry whose place in the use order is known: when it last went to the back. */
export interface Placed {
  at: number;
}

/**
 * A Map in the order its entries were last used, to within half its size: eviction takes the least
 * recently used first among the older half. `entries` is the map itself (reads and deletes go to it).
 */
export class UseOrder<K, E extends Placed> {
  readonly entries = new Map<K, E>();
  private readonly oldest = new OldestFirst(this.entries);
  /** Entries put at the back so far (each entry's `at` counts from it). */
  private appended = 0;

  /** Adds (or replaces) `key`'s entry at the back. */
  add(key: K, entry: E): void {
    this.entries.delete(key);
    entry.at = ++this.appended;
    this.entries.set(key, entry);
  }

  /** Puts `key`'s entry, used again, at the back, unless it went there within the newest half. */
  used(key: K, entry: E): void {
    if (this.appended - entry.at <= this.entries.size >> 1) return;
    this.add(key, entry);
  }

  /** Deletes the least recently used entry, but `keep`'s, and answers it (undefined: none other). */
  evict(keep?: K): [K, E] | undefined {
    return this.oldest.evict(keep);
  }
}
