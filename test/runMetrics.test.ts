// A run's metrics.jsonl is appended, never rebuilt: the file is cut back to its whole lines of the
// iterations the weights hold, a journal left by a stop between the pair and the append is taken in,
// damage in the middle drops only the damaged lines; a run of 569,800 iterations (past the longest
// string V8 can hold, as one file) resumes and checkpoints; a failed write says what the folder kept
// and how to go on; --resume keeps the run's checkpoint interval; rates that would make a run
// meaningless or a latency infinite are refused naming the field.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliArgs, cli, scratchDir } from './cliHelpers';
import { METRICS_FILE, PENDING_FILE, recoverMetrics } from '../src/cli/runMetrics';
import { parseCatalog } from '../src/core/sim/catalogSchema';
import { presetCatalog } from '../src/core/sim/presets';

const dir = scratchDir();
const SMALL = ['--batch', '2', '--group', '2', '--pool', '50', '--width', '8', '--depth', '1'];
const line = (it: number) => JSON.stringify({ iteration: it, accuracy: it / 100 });
const iterationsIn = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).iteration as number);
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const trainingOf = (out: string) => JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8')).userDefinedMetadata.training;

function folder(name: string, metrics: string | null, pending: string | null): string {
  const d = join(dir, name);
  mkdirSync(d);
  if (metrics !== null) writeFileSync(join(d, METRICS_FILE), metrics);
  if (pending !== null) writeFileSync(join(d, PENDING_FILE), pending);
  return d;
}

describe('metrics.jsonl before a resumed run goes on', () => {
  it('is cut back to the whole lines of iterations 1…done: lines past done and a torn last line go', () => {
    const d = folder('cut', `${range(1, 5).map(line).join('\n')}\n{"iteration":6,"accu`, null);
    expect(recoverMetrics(d, 4)).toBe(4);
    expect(readFileSync(join(d, METRICS_FILE), 'utf8')).toBe(`${range(1, 4).map(line).join('\n')}\n`);
  });

  it('takes in the journal\'s lines that the manifest holds (a stop between the pair and the append), and removes it', () => {
    const d = folder('journal', `${range(1, 3).map(line).join('\n')}\n{"itera`, `${range(4, 7).map(line).join('\n')}\n`);
    expect(recoverMetrics(d, 6)).toBe(6); // 7 was written before a manifest that never landed
    expect(iterationsIn(join(d, METRICS_FILE))).toEqual(range(1, 6));
    expect(readdirSync(d)).toEqual([METRICS_FILE]);
  });

  it('drops only the damaged lines in the middle, keeping the order; counts what it holds', () => {
    const d = folder('damaged', [line(1), 'garbage', line(2), line(2), line(5), line(3), line(4), ''].join('\n'), null);
    expect(recoverMetrics(d, 5)).toBe(3);
    expect(iterationsIn(join(d, METRICS_FILE))).toEqual([1, 2, 5]);
    expect(readdirSync(d)).toEqual([METRICS_FILE]); // no temporary left
  });

  it('starts from the journal alone when metrics.jsonl is missing', () => {
    const d = folder('no-metrics', null, `${range(1, 2).map(line).join('\n')}\n`);
    expect(recoverMetrics(d, 2)).toBe(2);
    expect(iterationsIn(join(d, METRICS_FILE))).toEqual([1, 2]);
  });
});

describe('a run that outgrows a string', () => {
  it('a folder holding 569,800 iterations of metrics (> 0x1fffffe8 characters) resumes past 570,100 and checkpoints', () => {
    const out = join(dir, 'long');
    const first = cli('train', '--iterations', '1', ...SMALL, '--checkpoint-every', '100', '--out', out);
    expect(first.code, first.err).toBe(0);
    // Faked, not trained: the manifest says 569,800 iterations and metrics.jsonl holds as many lines, each padded
    // so that the file is longer than V8's longest string (the limit a run that rebuilt it died at).
    const done = 569_800;
    const manifest = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    manifest.userDefinedMetadata.training.iterations = done;
    writeFileSync(join(out, 'orchestrator.json'), JSON.stringify(manifest));
    const template = JSON.parse(readFileSync(join(out, METRICS_FILE), 'utf8'));
    const fd = openSync(join(out, METRICS_FILE), 'w');
    const pad = 'x'.repeat(Math.max(0, 960 - JSON.stringify(template).length));
    let chunk: string[] = [];
    for (let it = 1; it <= done; it++) {
      chunk.push(JSON.stringify({ ...template, iteration: it, pad }));
      if (chunk.length === 10_000 || it === done) { writeSync(fd, `${chunk.join('\n')}\n`); chunk = []; }
    }
    closeSync(fd);
    expect(statSync(join(out, METRICS_FILE)).size).toBeGreaterThan(0x1fffffe8);
    const r = cli('train', '--resume', out, '--iterations', String(done + 301));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/trained 301 iterations \(from 569800\)/);
    expect(trainingOf(out).iterations).toBe(done + 301);
    // The tail holds the new iterations in order after the old ones (read from the end: the file is too long for one string).
    const size = statSync(join(out, METRICS_FILE)).size;
    const tail = Buffer.alloc(2_000_000);
    const tfd = openSync(join(out, METRICS_FILE), 'r');
    const n = readSync(tfd, tail, 0, tail.length, size - tail.length);
    closeSync(tfd);
    const its = tail.subarray(0, n).toString('utf8').split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l).iteration as number);
    expect(its.at(-1)).toBe(done + 301);
    expect(its.slice(-302)).toEqual(range(done, done + 301));
    expect(readdirSync(out).filter((f) => f.includes('pending') || f.includes('.tmp-'))).toEqual([]);
  }, 240_000);
});


const waitFor = async (ok: () => boolean, ms: number): Promise<void> => {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const heldIterations = (out: string): number => { try { return trainingOf(out).iterations as number; } catch { return 0; } };

describe('writes that fail, and a resumed run\'s interval', () => {
  it('a write past the file-size limit says the iteration the folder kept, what was lost, and the --resume command', () => {
    const out = join(dir, 'limited');
    // A 40 KB file-size limit (as a full disk): metrics.jsonl reaches it after about 40 iterations.
    const r = spawnSync('bash', ['-c', `ulimit -f 40; exec "${process.execPath}" ${cliArgs('train', '--iterations', '60',
      ...SMALL, '--checkpoint-every', '5', '--out', out).map((a) => `"${a}"`).join(' ')}`], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(2);
    const kept = Number(/keeps iteration (\d+)/.exec(r.stderr)?.[1]);
    expect(kept).toBeGreaterThanOrEqual(5);
    expect(kept % 5).toBe(0);
    expect(r.stderr).toContain(`go on with: npm run cli -- train --resume ${out} --iterations 60\n`);
    expect(r.stderr).toMatch(/EFBIG/);
    expect(heldIterations(out)).toBe(kept);
    // With room again, --resume goes on, and metrics.jsonl holds every iteration once, in order.
    const resumed = cli('train', '--resume', out, '--iterations', '60');
    expect(resumed.code, resumed.err).toBe(0);
    expect(iterationsIn(join(out, METRICS_FILE))).toEqual(range(1, 60));
  });

  it('--resume keeps the run\'s --checkpoint-every; a new interval is said', async () => {
    const out = join(dir, 'every-iteration');
    expect(cli('train', '--iterations', '3', ...SMALL, '--checkpoint-every', '1', '--out', out).code).toBe(0);
    expect(trainingOf(out).checkpointEvery).toBe(1);
    const child = spawn(process.execPath, cliArgs('train', '--resume', out, '--iterations', '100000'));
    const exit = new Promise((r) => child.on('exit', r));
    // At the default interval the folder would hold iteration 3 until iteration 100: it holds 6 within seconds.
    await waitFor(() => heldIterations(out) >= 6, 60_000);
    child.kill('SIGKILL');
    await exit;
    const held = heldIterations(out);
    const r = cli('train', '--resume', out, '--iterations', String(held + 2), '--checkpoint-every', '2');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('notice: --checkpoint-every 2: this run now saves every 2 iterations (it was started saving every 1)');
    expect(trainingOf(out)).toMatchObject({ checkpointEvery: 2, iterations: held + 2 });
    expect(iterationsIn(join(out, METRICS_FILE))).toEqual(range(1, held + 2));
  }, 120_000);
});

describe('rates that are refused, naming the field', () => {
  it('--lr 0, and --lr 1e-400 (0 as a number), would train nothing: refused before any work', () => {
    for (const lr of ['0', '1e-400', '1e-9']) {
      const r = cli('train', '--iterations', '2', ...SMALL, '--lr', lr, '--out', join(dir, `lr-${lr}`));
      expect(r.code).toBe(2);
      expect(r.err).toBe(`error: --lr must be a number in [1e-8, 1] (got "${lr}"): below it (0, or a rate so small it `
        + 'underflows to 0) an Adam step would change no weight, and the run would train nothing\n');
    }
  });

  it('tokensPerSecond 1e-300 (every latency infinite) is refused in a catalog, naming the field', () => {
    const c = structuredClone(presetCatalog('toolorchestra'));
    const model = c.tools.findIndex((t) => t.kind !== 'basic');
    (c.tools[model] as { latency: { tokensPerSecond: number } }).latency.tokensPerSecond = 1e-300;
    expect(parseCatalog(c)).toEqual({ ok: false, error: `invalid catalog: tools[${model}].latency.tokensPerSecond: must be 0 `
      + '(tokens add no time) or at least 0.1 tokens/s' });
    c.orchestrator.latency.tokensPerSecond = 1e-300;
    const file = join(dir, 'slow-catalog.json');
    writeFileSync(file, JSON.stringify(c));
    const r = cli('eval', '--policy', 'tools+gpt-5', '--catalog', file, '--count', '5', '--json');
    expect(r.code).toBe(2);
    expect(r.err).toContain('orchestrator.latency.tokensPerSecond: must be 0 (tokens add no time) or at least 0.1 tokens/s');
    // 0 still means that tokens add no time.
    (c.tools[model] as { latency: { tokensPerSecond: number } }).latency.tokensPerSecond = 0;
    c.orchestrator.latency.tokensPerSecond = 0.1;
    expect(parseCatalog(c).ok).toBe(true);
  });
});
