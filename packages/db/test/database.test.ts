import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { markerPathOf, members, MissingDatabaseError, openDatabase } from '../src/index.ts';

const member = (username: string, extra: Partial<typeof members.$inferInsert> = {}) => ({
  username,
  name: username,
  email: `${username}@example.com`,
  country: 'India',
  createdAt: 0,
  passwordHash: 'x',
  ...extra,
});

describe('openDatabase', () => {
  it('creates and migrates a new file, and knows an existing one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-db-'));
    try {
      const path = join(dir, 'nested', 'app.sqlite');
      const first = openDatabase(path);
      expect(first.created).toBe(true);
      expect(first.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      first.db.insert(members).values(member('root')).run();
      first.sqlite.close();
      const second = openDatabase(path);
      expect(second.created).toBe(false);
      expect(second.db.select().from(members).all()).toHaveLength(1);
      second.sqlite.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps a marker beside the file and refuses to create a new database where one went missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'md-db-'));
    try {
      const path = join(dir, 'app.sqlite');
      expect(() => openDatabase(path, { create: false })).toThrow(MissingDatabaseError);
      expect(existsSync(path)).toBe(false);
      const first = openDatabase(path);
      expect({ created: first.created, fileExisted: first.fileExisted }).toEqual({
        created: true,
        fileExisted: false,
      });
      expect(first.files.map((f) => f.path)).toEqual([path, `${path}-wal`]);
      first.sqlite.close();
      expect(existsSync(markerPathOf(path))).toBe(true);
      const again = openDatabase(path);
      expect({ created: again.created, fileExisted: again.fileExisted }).toEqual({
        created: false,
        fileExisted: true,
      });
      again.sqlite.close();
      unlinkSync(path);
      expect(() => openDatabase(path)).toThrow(/app\.sqlite is missing, but app\.sqlite\.created beside it/);
      expect(existsSync(path)).toBe(false);
      unlinkSync(markerPathOf(path));
      expect(openDatabase(path).created).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps one member per binary slot and only the sides 0 and 1', () => {
    const { db, sqlite } = openDatabase(':memory:');
    const root = db.insert(members).values(member('root')).returning().get();
    db.insert(members)
      .values(member('left', { parentId: root.id, side: '0' }))
      .run();
    expect(() =>
      db
        .insert(members)
        .values(member('left2', { parentId: root.id, side: '0' }))
        .run(),
    ).toThrow(/UNIQUE/);
    expect(() =>
      sqlite
        .prepare(
          "insert into members (username,name,email,country,created_at,password_hash,parent_id,side) values ('bad','b','b@x','x',0,'x',1,'2')",
        )
        .run(),
    ).toThrow(/CHECK/);
    expect(() => db.insert(members).values(member('root')).run()).toThrow(/UNIQUE/);
  });
});
