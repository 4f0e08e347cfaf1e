// `npm test`: every check in order — types, lint, unit tests, production build, browser tests —
// continuing past a failure so one run shows everything, and ending with one plain line
// "N passed, N failed" summing the test runners (the checks without tests count 1 each).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';

mkdirSync('test-results', { recursive: true });
const run = (label, cmd, args) => {
  console.log(`\n=== ${label}: ${cmd} ${args.join(' ')}`);
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: process.env });
  console.log(`=== ${label}: ${r.status === 0 ? 'ok' : 'failed'} in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  return r.status === 0;
};
const readJson = (p) => { try { return JSON.parse(readFileSync(p, 'utf8')); } catch { return null; } };

let passed = 0, failed = 0;
const check = (label, ok) => { if (ok) passed++; else { failed++; console.log(`✗ ${label} failed`); } };

check('typecheck', run('types', 'npx', ['tsc', '--noEmit', '-p', '.']));
check('lint', run('lint', 'npx', ['eslint', '.', '--max-warnings', '0']));

rmSync('test-results/unit.json', { force: true });
const unitOk = run('unit tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile=test-results/unit.json']);
const unit = readJson('test-results/unit.json');
if (unit) { passed += unit.numPassedTests; failed += unit.numFailedTests + (unitOk || unit.numFailedTests ? 0 : 1); }
else check('unit tests', false);

const built = run('build', 'npx', ['vite', 'build']);
check('build', built);

if (built && run('chromium', 'node', ['scripts/ensure-chromium.mjs'])) {
  rmSync('test-results/e2e.json', { force: true });
  const e2eOk = run('browser tests', 'npx', ['playwright', 'test']);
  const e2e = readJson('test-results/e2e.json');
  if (e2e?.stats) { passed += e2e.stats.expected + e2e.stats.flaky; failed += e2e.stats.unexpected + (e2eOk || e2e.stats.unexpected ? 0 : 1); }
  else check('browser tests', false);
} else check('browser tests', false);

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && existsSync('dist/index.html') ? 0 : 1);
