#!/usr/bin/env node
// `npm test`: the whole suite, then one closing line "N passed, N failed" counted from vitest's JSON reports.
//
// With no arguments the browser project (e2e: its files in parallel against one shared server, each
// test in a QA world of its own, mostly waiting on Chromium and the network) runs in its own vitest
// process beside the other projects (CPU-bound unit and server tests), so the two halves overlap
// instead of sharing one worker pool. Its lines are prefixed "[e2e]". Extra arguments (e.g. --project server, a file) make it one plain vitest run.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const BROWSER_PROJECT = 'e2e';
const OTHER_PROJECTS = ['shared', 'db', 'server', 'web'];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const reportDir = mkdtempSync(join(tmpdir(), 'vitest-'));

/** One vitest run; its JSON report's path and its exit status. `prefix` marks its lines when runs share the terminal. */
function runVitest(label, args, prefix) {
  const report = join(reportDir, `${label}.json`);
  const argv = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ];
  const child = spawn('npx', argv, { stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit', env });
  if (prefix) {
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      createInterface({ input: from }).on('line', (line) => to.write(`${prefix}${line}\n`));
  }
  return new Promise((resolve) => child.on('close', (status) => resolve({ label, report, status })));
}

/** One run's JSON report, or null when it is missing or unreadable. */
function readReport({ report }) {
  try {
    return JSON.parse(readFileSync(report, 'utf8'));
  } catch {
    return null;
  }
}

/** Passed and failed tests of one report; a missing or unreadable report counts as one failure. */
function count(json, status) {
  if (!json) return { passed: 0, failed: 1 };
  const failedFiles = json.testResults.filter(
    (r) => r.status === 'failed' && r.assertionResults.length === 0,
  ).length;
  const failed = json.numFailedTests + (json.numRuntimeErrorTestSuites ?? 0) + failedFiles;
  return { passed: json.numPassedTests, failed: status === 0 || failed > 0 ? failed : 1 };
}

/**
 * Tests that passed on a second attempt (the browser project retries once): vitest keeps a failed
 * attempt's error on the test that then passed. Listed so a flake is seen and looked into, not hidden.
 */
const passedOnRetry = (json) =>
  (json?.testResults ?? []).flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'passed' && test.failureMessages.length > 0)
      .map((test) => ({
        name: `${file.name.split('/').slice(-2).join('/')} > ${test.fullName}`,
        first: test.failureMessages[0].split('\n')[0],
      })),
  );

const extra = process.argv.slice(2);
const runs =
  extra.length > 0
    ? [runVitest('all', extra)]
    : [
        runVitest(
          'other',
          OTHER_PROJECTS.flatMap((p) => ['--project', p]),
        ),
        runVitest(BROWSER_PROJECT, ['--project', BROWSER_PROJECT], '[e2e] '),
      ];

const results = await Promise.all(runs);
let passed = 0;
let failed = 0;
for (const result of results) {
  const json = readReport(result);
  const counts = count(json, result.status);
  passed += counts.passed;
  failed += counts.failed;
  if (runs.length > 1) console.log(`${result.label}: ${counts.passed} passed, ${counts.failed} failed`);
  const retried = passedOnRetry(json);
  if (retried.length > 0) {
    console.log(`${result.label}: ${retried.length} passed only on a second attempt (look into them):`);
    for (const { name, first } of retried) console.log(`  - ${name}\n    first attempt: ${first}`);
  }
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.status === 0) && failed === 0 ? 0 : 1);
