/** A descriptor kept on the -wal tells whether its file is still the one at the path, without a stat of it. */
import { mkdtempSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keepFile, type KeptFile } from '../src/core/kept-file.ts';

const dirs: string[] = [];
const kept: KeptFile[] = [];
afterEach(() => {
  for (const file of kept.splice(0)) file.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const fileIn = () => {
  const dir = mkdtempSync(join(tmpdir(), 'md-kept-'));
  dirs.push(dir);
  const path = join(dir, 'db.sqlite-wal');
  writeFileSync(path, 'frames');
  return path;
};
const keep = (path: string) => {
  const file = keepFile(path);
  kept.push(file);
  return file;
};

describe('a kept file', () => {
  it('is in place while the path names it, and not once it is deleted, replaced or moved away', () => {
    const deleted = fileIn();
    const a = keep(deleted);
    expect(a.inPlace()).toBe(true);
    unlinkSync(deleted);
    expect(a.inPlace()).toBe(false);

    const replaced = fileIn();
    const b = keep(replaced);
    writeFileSync(`${replaced}.new`, 'other frames');
    renameSync(`${replaced}.new`, replaced);
    expect(b.inPlace()).toBe(false);
    // The file now at the path is another one, kept anew.
    expect(keep(replaced).inPlace()).toBe(true);

    const moved = fileIn();
    const c = keep(moved);
    renameSync(moved, `${moved}.moved`);
    expect(c.inPlace()).toBe(false);
  });

  it('cannot be kept when missing (ENOENT, as the group commit expects)', () => {
    expect(() => keepFile(join(tmpdir(), 'md-kept-missing', 'db.sqlite-wal'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});
