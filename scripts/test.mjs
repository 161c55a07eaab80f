#!/usr/bin/env node
// `npm test`: the whole suite in one vitest run (extra arguments pass through, e.g. --project server),
// then one closing line "N passed, N failed" counted from vitest's JSON report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const report = join(mkdtempSync(join(tmpdir(), 'vitest-')), 'report.json');
const args = ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const run = spawnSync('npx', args, { stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });

let passed = 0;
let failed = 0;
try {
  const json = JSON.parse(readFileSync(report, 'utf8'));
  passed = json.numPassedTests;
  failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0) + json.testResults.filter((r) => r.status === 'failed' && r.assertionResults.length === 0).length;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(run.status === 0 && failed === 0 ? 0 : 1);
