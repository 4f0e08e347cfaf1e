// `npm run bench:checkpoint`: what a `train` checkpoint costs as a run grows. A checkpoint writes the
// policy pair with the journal of its new metrics lines and then appends them to metrics.jsonl (the
// CLI's own functions: io.ts, runMetrics.ts); it must cost about the same at iteration 100,000 as at
// 1,000 (it once rebuilt the whole file, so its cost grew with the run). Each size gets a folder
// faked at that many iterations of realistic lines, then CHECKPOINTS checkpoints of 100 new lines,
// timed one by one; the sizes alternate, so the machine's noise falls on both alike. Prints the
// median of each and their ratio, and beside them the way it was done before (every line again, as
// one string: REBUILDS checkpoints a size). A benchmark, not a test: run it on a quiet machine.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeArtifactPair } from '../src/cli/io';
import { appendPending, METRICS_FILE, pendingFile } from '../src/cli/runMetrics';

const SIZES = [1_000, 100_000];
const CHECKPOINTS = 30;
const REBUILDS = 5;
const NEW_LINES = 100;
/** A metrics line as `train` writes one (about 950 characters). */
const lineOf = (it: number): string => JSON.stringify({ iteration: it, meanReward: 0.41, accuracy: 0.52, pad: 'x'.repeat(880) });
const weights = new Uint8Array(56_072);
const manifest = (it: number) => ({ weightsManifest: [{ paths: ['w.bin'], weights: [] }], training: { iterations: it } });

function fakeRun(done: number): string {
  const dir = mkdtempSync(join(tmpdir(), `bench-checkpoint-${done}-`));
  const lines: string[] = [];
  for (let it = 1; it <= done; it++) lines.push(lineOf(it));
  writeFileSync(join(dir, METRICS_FILE), `${lines.join('\n')}\n`);
  return dir;
}

const runs = SIZES.map((done) => ({ done, dir: fakeRun(done), at: done, ms: [] as number[] }));
for (let k = 0; k < CHECKPOINTS; k++) {
  for (const r of runs) {
    const lines = Array.from({ length: NEW_LINES }, (_, i) => lineOf(r.at + i + 1));
    weights[0] = k; // new weights each time, as after an update
    const t0 = performance.now();
    writeArtifactPair(r.dir, manifest(r.at + NEW_LINES), weights, [pendingFile(r.dir, lines)]);
    appendPending(r.dir);
    r.ms.push(performance.now() - t0);
    r.at += NEW_LINES;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
for (const r of runs) console.log(`checkpoint at iteration ${r.done.toLocaleString('en-US')}: median ${median(r.ms).toFixed(2)} ms of ${CHECKPOINTS}`);
const [small, large] = runs as [typeof runs[0], typeof runs[0]];
console.log(`ratio (100,000 / 1,000): ${(median(large.ms) / median(small.ms)).toFixed(2)} (target ≤ 2)`);

// As before: the whole of metrics.jsonl rebuilt from the run's lines at every checkpoint.
for (const r of runs) {
  const all = Array.from({ length: r.at }, (_, i) => lineOf(i + 1));
  const ms: number[] = [];
  for (let k = 0; k < REBUILDS; k++) {
    weights[0] = 100 + k;
    const t0 = performance.now();
    writeArtifactPair(r.dir, manifest(r.at), weights, [{ path: join(r.dir, METRICS_FILE), data: `${all.join('\n')}\n` }]);
    ms.push(performance.now() - t0);
  }
  console.log(`before (rebuilt), at iteration ${r.at.toLocaleString('en-US')}: median ${median(ms).toFixed(2)} ms of ${REBUILDS}`);
}
for (const r of runs) rmSync(r.dir, { recursive: true, force: true });
