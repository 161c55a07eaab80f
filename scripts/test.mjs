#!/usr/bin/env node
// `npm test`: the whole suite, then one closing line "N passed, N failed" counted from vitest's JSON reports.
//
// With no arguments it is two vitest runs, one after the other: the unit, server and component
// projects (CPU-bound) with a worker per core, then the browser project (its files in parallel
// against one shared server, each test in a QA world of its own). Extra arguments (e.g. --project
// server, a file) make it one plain vitest run; `--changed [base]` alone runs the tests of every
// project but the browser one that a change reaches (`npm run test:changed`, changedServerTests).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';

const BROWSER_PROJECT = 'e2e';
const OTHER_PROJECTS = ['shared', 'db', 'qa-client', 'server', 'web', 'web-mocked'];
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1' };
const reportDir = mkdtempSync(join(tmpdir(), 'vitest-'));

/** One vitest run; its JSON report's path, its exit status and how long it took. */
function runVitest(label, args) {
  const report = join(reportDir, `${label}.json`);
  const argv = [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...args,
  ];
  const child = spawn('npx', argv, { stdio: 'inherit', env });
  const started = Date.now();
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ label, report, status, seconds: (Date.now() - started) / 1000 })),
  );
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

/** A failure's message without its stack, at most 20 lines (an assertion's own message may run to several). */
const firstLines = (message) => {
  const lines = message.split('\n').filter((line) => line.trim() !== '');
  const stack = lines.findIndex((line) => /^\s+at /.test(line));
  return lines
    .slice(0, stack === -1 ? undefined : stack)
    .slice(0, 20)
    .join('\n      ');
};

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
        first: firstLines(test.failureMessages[0]),
      })),
  );

const SERVER_TESTS = 'apps/server/test';
const WEB_SOURCE = 'apps/web/src';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
/** Test files under `dir`, as repository paths. */
const testFilesIn = (dir) =>
  readdirSync(dir, { recursive: true })
    .filter((name) => /\.test\.tsx?$/.test(name))
    .map((name) => join(dir, name));

/**
 * The test files a change reaches, for `--changed [base]`, or null when vitest's import graph should
 * decide (a change outside the server's and the web app's sources: the shared contract, a config).
 * The graph alone is too wide for a quick loop: every server test builds the whole app (helpers.ts),
 * and the router reaches every page, so one changed page picked 37 web files (143 s) and any server
 * change all ~80 server files (~4 min). Instead:
 * - server: a change inside a module (apps/server/src/modules/NAME/) picks the tests that import from
 *   it or carry its name (withdrawals: withdrawal-addresses.test.ts); a change to the ground floor
 *   (core/, transport/, app.ts, the seed) or to the tests' helpers picks every server test;
 * - web: the tests that import the changed file themselves, and those in its folder;
 * - a changed test file always runs.
 */
function changedTests(base) {
  const changed = [
    ...git('diff', '--name-only', base ?? 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ].filter((file) => !/\.(md|json)$/.test(file) || file.endsWith('package.json'));
  const serverTests = testFilesIn(SERVER_TESTS);
  const webTests = testFilesIn(WEB_SOURCE);
  const picked = new Set();
  // Each test file is read once, however many changed files ask about it.
  const texts = new Map();
  const textOf = (file) => texts.get(file) ?? texts.set(file, readFileSync(file, 'utf8')).get(file);
  const pick = (files, reaches) => {
    for (const file of files) if (reaches(file, textOf(file))) picked.add(file);
  };
  for (const file of changed) {
    if (/\.test\.tsx?$/.test(file)) {
      if (existsSync(file)) picked.add(file);
    } else if (file.startsWith(`${SERVER_TESTS}/`) || file.startsWith('apps/server/src/')) {
      const module = /^apps\/server\/src\/modules\/([^/]+)\//.exec(file)?.[1];
      if (!module) serverTests.forEach((test) => picked.add(test));
      else {
        const stems = [module, module.replace(/s$/, '')];
        pick(
          serverTests,
          (test, text) =>
            text.includes(`modules/${module}/`) ||
            stems.some((stem) => test.slice(SERVER_TESTS.length).includes(stem)),
        );
      }
    } else if (file.startsWith(`${WEB_SOURCE}/`)) {
      const name = file.slice(file.lastIndexOf('/') + 1);
      const folder = file.slice(0, file.lastIndexOf('/') + 1);
      pick(webTests, (test, text) => test.startsWith(folder) || text.includes(`/${name}'`));
    } else if (/^(apps\/web\/e2e|docs|scripts\/bench|world-states)\//.test(file)) continue;
    else return null;
  }
  return [...picked];
}

/** `--changed [base]`: the tests a change reaches (changedTests), in the projects but the browser one. */
function changedPlan(extra) {
  const tests = changedTests(extra[1]);
  const projects = [
    ...OTHER_PROJECTS.flatMap((p) => ['--project', p]),
    `--maxWorkers=${availableParallelism()}`,
    '--passWithNoTests',
  ];
  if (tests === null) return [() => runVitest('changed', [...extra, ...projects])];
  if (tests.length === 0) {
    console.log('No test reaches what changed.');
    return [];
  }
  return [() => runVitest('changed', [...projects, ...tests])];
}

const extra = process.argv.slice(2);
const suiteStarted = Date.now();
// One after the other: the CPU-bound projects with a worker per core, then the browser files alone,
// so neither starves the other (beside the browser files at load 8–11, server tests took 5–6 times
// as long and reached their time limits, and pages missed their polls).
// The CPU-bound projects, a worker per core (vitest's default on 2 cores is one).
const otherProjects = [
  ...OTHER_PROJECTS.flatMap((p) => ['--project', p]),
  `--maxWorkers=${availableParallelism()}`,
];
const plan =
  extra[0] === '--changed' && !extra.includes('--project')
    ? changedPlan(extra)
    : extra.length > 0
      ? [() => runVitest('all', extra)]
      : [
          () => runVitest('other', otherProjects),
          () => runVitest(BROWSER_PROJECT, ['--project', BROWSER_PROJECT]),
        ];
const results = [];
for (const run of plan) results.push(await run());

/** The `count` slowest test files of the reports, with their times: where the suite's minutes go. */
function slowestFiles(reports, count) {
  const files = reports.flatMap((json) =>
    (json?.testResults ?? []).map((file) => ({
      name: file.name.replace(`${process.cwd()}/`, ''),
      seconds: (file.endTime - file.startTime) / 1000,
      tests: file.assertionResults.length,
    })),
  );
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

const reports = results.map(readReport);
let passed = 0;
let failed = 0;
for (const [i, result] of results.entries()) {
  const json = reports[i];
  const counts = count(json, result.status);
  passed += counts.passed;
  failed += counts.failed;
  if (results.length > 1)
    console.log(
      `${result.label}: ${counts.passed} passed, ${counts.failed} failed in ${Math.round(result.seconds)} s`,
    );
  const retried = passedOnRetry(json);
  if (retried.length > 0) {
    console.log(`${result.label}: ${retried.length} passed only on a second attempt (look into them):`);
    for (const { name, first } of retried) console.log(`  - ${name}\n    first attempt: ${first}`);
  }
}
if (extra.length === 0) {
  console.log(
    `npm test took ${Math.round((Date.now() - suiteStarted) / 1000)} s. The 20 slowest test files:`,
  );
  for (const { name, seconds, tests } of slowestFiles(reports, 20))
    console.log(`  ${seconds.toFixed(1).padStart(7)} s  ${name} (${tests} tests)`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(results.every((r) => r.status === 0) && failed === 0 ? 0 : 1);
