// `npm run soak` (not part of CI): 5,000 GRPO iterations at a small size in Node on wasm, printing
// tensors, JS heap (after a forced GC), RSS and the wasm heap every 500; fails on growth — any new
// tensor, or heap / RSS / wasm heap up by more than 10% between iteration 1,000 and the end. Writes
// docs/soak.json, which docs/BENCHMARKS.md quotes (`npm run bench -- --markdown-only` refreshes it).

import { writeFileSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';
import { DEFAULT_TRAIN } from '../src/core/grpo/config';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';

const ITERATIONS = Number(process.env.SOAK_ITERATIONS ?? 5000);
const EVERY = 500;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (npm run soak does)');

await initNodeBackend('wasm');
const catalog = presetCatalog('toolorchestra');
const config = { ...DEFAULT_TRAIN, batchTasks: 4, groupSize: 4 };
const pool = generateTasks(catalog, { seed: 1, count: 500, availability: config.availability }).tasks;
const trainer = new GrpoTrainer(catalog, config, pool);
const wasmHeap = (): number => ((tf.backend() as unknown as { wasm?: { HEAPU8: Uint8Array } }).wasm?.HEAPU8.byteLength ?? 0);
const rows: { iteration: number; numTensors: number; heapMB: number; rssMB: number; wasmHeapMB: number; seconds: number }[] = [];
const t0 = performance.now();
for (let i = 1; i <= ITERATIONS; i++) {
  await trainer.step();
  if (i % EVERY === 0) {
    gc();
    const m = process.memoryUsage();
    const row = { iteration: i, numTensors: tf.memory().numTensors, heapMB: m.heapUsed / 2 ** 20, rssMB: m.rss / 2 ** 20, wasmHeapMB: wasmHeap() / 2 ** 20, seconds: (performance.now() - t0) / 1000 };
    rows.push(row);
    process.stdout.write(`it ${String(i).padStart(5)}  tensors ${row.numTensors}  heap ${row.heapMB.toFixed(1)} MB  rss ${row.rssMB.toFixed(1)} MB  wasm heap ${row.wasmHeapMB.toFixed(1)} MB  ${row.seconds.toFixed(0)} s\n`);
  }
}
trainer.dispose();
const base = rows.find((r) => r.iteration >= 1000) ?? rows[0];
const end = rows[rows.length - 1];
if (!base || !end) throw new Error('too few iterations to judge');
const grew = (a: number, b: number) => b > a * 1.1;
const problems = [
  ...(rows.some((r) => r.numTensors !== base.numTensors) ? [`tensors changed: ${rows.map((r) => r.numTensors).join(' → ')}`] : []),
  ...(grew(base.heapMB, end.heapMB) ? [`JS heap grew ${base.heapMB.toFixed(1)} → ${end.heapMB.toFixed(1)} MB`] : []),
  ...(grew(base.rssMB, end.rssMB) ? [`RSS grew ${base.rssMB.toFixed(1)} → ${end.rssMB.toFixed(1)} MB`] : []),
  ...(grew(base.wasmHeapMB, end.wasmHeapMB) ? [`wasm heap grew ${base.wasmHeapMB.toFixed(1)} → ${end.wasmHeapMB.toFixed(1)} MB`] : []),
];
writeFileSync('docs/soak.json', `${JSON.stringify({ date: new Date().toISOString(), iterations: ITERATIONS, size: 'B = 4, G = 4, width 64, depth 2, T = 12', rows, problems }, null, 1)}\n`);
if (problems.length) {
  process.stderr.write(`soak FAILED: ${problems.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write(`soak passed: ${ITERATIONS} iterations, flat from iteration ${base.iteration} to ${end.iteration} (tensors ${end.numTensors}, heap ${end.heapMB.toFixed(1)} MB, RSS ${end.rssMB.toFixed(1)} MB, wasm heap ${end.wasmHeapMB.toFixed(1)} MB)\n`);
