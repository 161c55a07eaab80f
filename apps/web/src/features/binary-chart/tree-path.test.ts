import { describe, expect, it } from 'vitest';
import { BINARY_PATH_ENDS } from '@md/shared';
import { compact, extend, lastOf, levelsOf, parentCrumb, pathFromAnswer, pathOf, upTo } from './tree-path.ts';

const names = (n: number) => Array.from({ length: n }, (_, i) => `m${i}`);

describe('tree paths for the breadcrumbs', () => {
  it('keep a short path whole and a long one as both ends with the count between', () => {
    expect(pathOf(names(2 * BINARY_PATH_ENDS))).toEqual({ head: names(10), skipped: 0, tail: [] });
    expect(pathOf(names(26_379))).toEqual({
      head: names(5),
      skipped: 26_369,
      tail: ['m26374', 'm26375', 'm26376', 'm26377', 'm26378'],
    });
    expect(levelsOf(pathOf(names(26_379)))).toBe(26_378);
    expect(lastOf(pathOf(names(26_379)))).toBe('m26378');
  });

  it('grow by one at the end, moving names into the count once past the ends', () => {
    let path = pathOf(names(9));
    path = extend(path, 'm9');
    expect(path).toEqual({ head: names(10), skipped: 0, tail: [] });
    path = extend(path, 'm10');
    expect(path).toEqual({ head: names(5), skipped: 1, tail: ['m6', 'm7', 'm8', 'm9', 'm10'] });
    path = extend(path, 'm11');
    expect(path).toEqual({ head: names(5), skipped: 2, tail: ['m7', 'm8', 'm9', 'm10', 'm11'] });
    expect(levelsOf(path)).toBe(11);
  });

  it('cut at a crumb, and know the parent only while its name is kept', () => {
    const long = pathOf(names(100));
    expect(upTo(long, { part: 'head', index: 2 })).toEqual({
      head: ['m0', 'm1', 'm2'],
      skipped: 0,
      tail: [],
    });
    const cut = upTo(long, { part: 'tail', index: 0 });
    expect(cut).toEqual({ head: names(5), skipped: 90, tail: ['m95'] });
    expect(parentCrumb(cut)).toBeNull();
    expect(parentCrumb(long)).toEqual({ part: 'tail', index: 3 });
    expect(parentCrumb(pathOf(['m0']))).toBeNull();
    expect(parentCrumb(pathOf(['m0', 'm1']))).toEqual({ part: 'head', index: 0 });
    expect(parentCrumb(compact({ head: ['m0'], skipped: 0, tail: ['m1'] }))).toEqual({
      part: 'head',
      index: 0,
    });
  });

  it('read the server answer defensively', () => {
    expect(
      pathFromAnswer({
        Username: 'x',
        Levels: 20,
        Head: names(5),
        Skipped: 11,
        Tail: ['a', 'b', 'c', 'd', 'x'],
      }),
    ).toEqual({ head: names(5), skipped: 11, tail: ['a', 'b', 'c', 'd', 'x'] });
    expect(pathFromAnswer({ Head: [] })).toBeNull();
    expect(pathFromAnswer('nope')).toBeNull();
    // A count without a tail means nothing: the head is the path.
    expect(pathFromAnswer({ Head: ['m0', null, 'm1'], Skipped: 'many' })).toEqual({
      head: ['m0', 'm1'],
      skipped: 0,
      tail: [],
    });
  });
});
