/**
 * The Node versions the project supports (package.json `engines`: 20.19 or later) are the ones every
 * locked package accepts: a dependency that asks for more makes `npm install` warn EBADENGINE, and
 * may use what the supported Node lacks. Pin or replace it (package.json `overrides`), or raise the
 * stated version.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const readJson = <T>(file: string) => JSON.parse(readFileSync(resolve(root, file), 'utf8')) as T;

describe('the supported Node versions', () => {
  const supported = readJson<{ engines: { node: string } }>('package.json').engines.node;
  const lock = readJson<{ packages: Record<string, { engines?: { node?: string } }> }>(
    'package-lock.json',
  ).packages;
  const oldest = semver.minVersion(supported)!.version;

  it('are stated, and include the Node running the suite', () => {
    expect(oldest).toBe('20.19.0');
    expect(semver.satisfies(process.version, supported)).toBe(true);
  });

  it('are accepted by every locked package', () => {
    const asking = Object.entries(lock)
      .filter(([, entry]) => entry.engines?.node)
      .filter(([, entry]) =>
        [oldest, process.version].some((v) => !semver.satisfies(v, entry.engines!.node!)),
      )
      .map(
        ([path, entry]) => `${path.replace(/^.*node_modules\//, '')} asks for node ${entry.engines!.node}`,
      );
    expect(asking).toEqual([]);
  });
});
