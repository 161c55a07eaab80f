/**
 * A descriptor kept open on a file the server writes and syncs (the `-wal`), to tell whether that
 * file is still the one at its path without a stat of it. A stat asks for the file's times, and
 * Linux (6.13 on: multigrain timestamps) then gives the file a fine-grained time at its next write,
 * which the next fdatasync must write to disk too: one more 4 KiB write per sync, ~30 µs of CPU a
 * commit measured here (docs/performance.md). `/proc/self/fd/<fd>` names a descriptor's file (with
 * " (deleted)" once it has no name) and asks nothing of the file; where there is no such name, a
 * stat is the answer.
 *
 * Only for files SQLite takes no POSIX lock on (its `-wal`): closing any descriptor of a file drops
 * every lock the process holds on it, the database file's and `-shm`'s included.
 */
import { closeSync, fstatSync, openSync, readlinkSync, realpathSync, statSync } from 'node:fs';

export interface KeptFile {
  readonly fd: number;
  readonly ino: number;
  /** True while the file open is the one at the path (not deleted, replaced or moved). */
  inPlace(): boolean;
  close(): void;
}

/** Opens `path` for reading and keeps the descriptor; throws as openSync does (ENOENT when missing). */
export function keepFile(path: string): KeptFile {
  const fd = openSync(path, 'r');
  let ino: number;
  let named: string | undefined;
  try {
    ino = fstatSync(fd).ino;
    named = nameOf(fd);
    // The descriptor's name must be the path's own for the name to answer; otherwise stat.
    if (named !== undefined && named !== realpathSync(path)) named = undefined;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  return {
    fd,
    ino,
    inPlace: () =>
      named !== undefined ? nameOf(fd) === named : statSync(path, { throwIfNoEntry: false })?.ino === ino,
    close: () => closeSync(fd),
  };
}

const nameOf = (fd: number): string | undefined => {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return undefined;
  }
};
