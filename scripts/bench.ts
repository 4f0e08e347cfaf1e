// `npm run bench [-- --quick | --markdown-only]`: the training benchmark on every backend — wasm and cpu in Node,
// and webgpu, webgl, wasm and cpu in Chromium through the bench page (bench.html, built with the
// app) — then docs/benchmarks.json and the generated table in docs/BENCHMARKS.md.
// Needs a build (`npm run bench` builds first) and /usr/bin/chromium (scripts/ensure-chromium.mjs).

import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';
import { FULL_PLAN, QUICK_PLAN, runTrainBench, type BenchReport } from '../src/core/bench/trainBench';
import { benchMarkdown, type BenchRun, type GpuBenchDoc, type SoakDoc } from './benchMarkdown';

/** The real-GPU figures (scripts/real-gpu/), if any were measured. */
function gpuDoc(): GpuBenchDoc | undefined {
  return existsSync('docs/benchmarks.gpu.json') ? (JSON.parse(readFileSync('docs/benchmarks.gpu.json', 'utf8')) as GpuBenchDoc) : undefined;
}

/** The last soak's figures (scripts/soak.ts), if it ran. */
function soakDoc(): SoakDoc | undefined {
  return existsSync('docs/soak.json') ? (JSON.parse(readFileSync('docs/soak.json', 'utf8')) as SoakDoc) : undefined;
}

const quick = process.argv.includes('--quick');
if (process.argv.includes('--markdown-only')) {
  // Regenerates docs/BENCHMARKS.md from docs/benchmarks.json (after a change to the generator, or new real-GPU figures).
  writeFileSync('docs/BENCHMARKS.md', benchMarkdown(JSON.parse(readFileSync('docs/benchmarks.json', 'utf8')), soakDoc(), gpuDoc()));
  process.exit(0);
}
const plan = quick ? QUICK_PLAN : FULL_PLAN;
const PORT = Number(process.env.BENCH_PORT ?? 4179); // BENCH_PORT: another port where two checkouts bench at once
const started = Date.now();
const loadBefore = loadavg()[0] as number; // the machine's other work, which the timings share the cores with
const runs: BenchRun[] = [];
const say = (s: string) => process.stdout.write(`${s}\n`);

for (const backend of ['wasm', 'cpu']) {
  say(`— Node, ${backend}`);
  await initNodeBackend(backend);
  const report: BenchReport = await runTrainBench(plan, (l) => say(`  ${l}`));
  runs.push({ where: 'node', backend, status: 'done', report, longestTaskMs: null });
  tf.disposeVariables();
}

const server = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PORT), '--strictPort'], { stdio: 'ignore' });
try {
  await new Promise((r) => setTimeout(r, 2500));
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium', headless: true,
    args: ['--enable-unsafe-webgpu', '--enable-unsafe-swiftshader', '--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  for (const backend of ['webgpu', 'webgl', 'wasm', 'cpu']) {
    say(`— Chromium, ${backend}`);
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/bench.html?backend=${backend}&plan=${quick ? 'quick' : 'full'}`);
    const limit = plan.budgetMs * 2 + 120_000;
    type Result = { status: 'done' | 'unavailable' | 'error'; message?: string; adapter?: string; software?: boolean; report?: BenchReport; longestTaskMs: number };
    let result: Result;
    try {
      await page.waitForFunction(() => !!(window as unknown as { benchResult?: unknown }).benchResult, null, { timeout: limit, polling: 1000 });
      result = await page.evaluate(() => (window as unknown as { benchResult: Result }).benchResult);
    } catch {
      result = { status: 'error', message: `no result within ${limit / 1000} s`, longestTaskMs: 0 };
    }
    say(`  ${(await page.locator('#bench-log').innerText()).split('\n').filter((l) => !l.startsWith('{') && !l.startsWith(' ') && !l.startsWith('}')).slice(1, -1).join('\n  ')}`);
    say(`  ${result.status}${result.message ? `: ${result.message}` : ''}`);
    runs.push({ where: 'chromium', backend, status: result.status, ...(result.message ? { message: result.message } : {}), ...(result.adapter ? { adapter: result.adapter, software: !!result.software } : {}), ...(result.report ? { report: result.report } : {}), longestTaskMs: result.status === 'done' ? result.longestTaskMs : null });
    await page.close();
  }
  await browser.close();
} finally {
  server.kill();
}

const totalS = (Date.now() - started) / 1000;
const load = [loadBefore, loadavg()[0] as number];
const doc = { plan: quick ? 'quick' : 'full', date: new Date().toISOString(), machine: `${(await import('node:os')).cpus().length} cores, Node ${process.version}`, load, totalS, runs };
writeFileSync(quick ? 'docs/benchmarks.quick.json' : 'docs/benchmarks.json', `${JSON.stringify(doc, null, 1)}\n`);
if (!quick) writeFileSync('docs/BENCHMARKS.md', benchMarkdown(doc, soakDoc(), gpuDoc()));
say(`bench finished in ${totalS.toFixed(0)} s; wrote ${quick ? 'docs/benchmarks.quick.json' : 'docs/benchmarks.json and docs/BENCHMARKS.md'}`);
