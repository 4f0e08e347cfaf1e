import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const cli = (...args: string[]) => {
  const r = spawnSync(TSX, ['src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const dir = mkdtempSync(join(tmpdir(), 'orchestra-cli-'));

describe('command line', () => {
  it('catalog prints a preset that loads back as a catalog file', () => {
    const r = cli('catalog', '--preset', 'seed-004');
    expect(r.code).toBe(0);
    const file = join(dir, 'seed.json');
    writeFileSync(file, r.out);
    const e = cli('eval', '--policy', 'cheapest', '--catalog', file, '--count', '50', '--json');
    expect(e.code).toBe(0);
    expect(JSON.parse(e.out).catalog).toBe('seed-004');
  });

  it('generate writes JSONL that is byte-identical for the same seed', () => {
    const a = join(dir, 'a.jsonl'), b = join(dir, 'b.jsonl');
    expect(cli('generate', '--catalog', 'toolorchestra', '--seed', '5', '--count', '40', '--out', a).code).toBe(0);
    expect(cli('generate', '--catalog', 'toolorchestra', '--seed', '5', '--count', '40', '--out', b).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    expect(readFileSync(a, 'utf8').trim().split('\n')).toHaveLength(40);
  });

  it('eval prints one JSON object with the promised fields, and uses the preference file', () => {
    const pref = join(dir, 'p.json');
    writeFileSync(pref, JSON.stringify({ outcome: 1, cost: 0.5, latency: 0 }));
    const r = cli('eval', '--policy', 'tools+gpt-5', '--catalog', 'toolorchestra', '--seed', '11', '--count', '200', '--preference', pref, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ policy: 'tools+gpt-5', n: 200 });
    for (const k of ['accuracy', 'meanCostUSD', 'meanLatencyS', 'score']) expect(typeof j[k]).toBe('number');
    expect(Object.keys(j.callsPerTask)).toContain('gpt-5');
  });

  it('bad arguments exit non-zero with one clear line and write nothing', () => {
    const out = join(dir, 'never.jsonl');
    const cases: [string[], RegExp][] = [
      [['generate', '--catalog', 'nope', '--out', out], /unknown catalog preset "nope"/],
      [['generate', '--catalog', join(dir, 'missing.json'), '--out', out], /cannot read catalog file .*ENOENT/],
      [['eval', '--policy', 'tools+gpt-9'], /no tool "gpt-9"/],
      [['eval', '--policy', 'cheapest', '--count', 'many'], /--count must be an integer/],
      [['eval', '--policy', 'cheapest', '--seeds', '3'], /unknown option --seeds/],
      [['frobnicate'], /unknown command "frobnicate"/],
      [['eval', '--policy', 'cheapest', '--seed', ''], /--seed needs a value \(got an empty string\)/],
      [['eval', '--policy', 'cheapest', '--seed', ' '], /--seed needs a value/],
      [['eval', '--policy', 'cheapest', '--count=5'], /--count=5: write an option and its value apart, as --count 5/],
      [['eval', '--policy', 'cheapest', '--count', '5', '--count', '6'], /--count is given twice; give it once/],
      [['eval', '--policy', 'cheapest', '--count', '5', '--backend', 'bogus'], /--backend must be one of wasm, cpu in Node \(got "bogus"\)/], // even where no tfjs runs
      [['frontier', '--count', '5', '--json', '--markdown'], /give either --json or --markdown, not both/],
      [['calibrate', '--baselines', 'random', '--preference', 'p.json'], /--preference sets the P of a trained policy: give it with --policy/],
      [['reproduce', '--pretrained', '--iterations', '3', '--out', join(dir, 'never-run')], /--pretrained trains nothing .*: leave out --iterations/],
      [['train', '--iterations', '20', '--lr-decay', '0.01', '--out', join(dir, 'never-run')], /--lr-decay 0\.01 of 20 iterations is less than one iteration; give at least 0\.050/],
      [['train', '--iterations', '2', '--init', 'public/pretrained/orchestrator.json', '--width', '128', '--out', join(dir, 'never-run')], /--init goes on from a trained policy, with its width and depth: leave out --width and --depth/],
    ];
    const badCatalog = join(dir, 'bad.json');
    writeFileSync(badCatalog, JSON.stringify({ name: 'x', currency: 'USD', tools: [] }));
    cases.push([['generate', '--catalog', badCatalog, '--out', out], /invalid catalog: orchestrator/]);
    // Refused after --out was checked: the folders it names are not made (a refused command leaves nothing behind).
    const deep = join(dir, 'never-made');
    cases.push([['train', '--iterations', '20', '--out', join(deep, 'a', 'run'), '--lr', 'NaN'], /--lr must be a number in \[0, 1\] \(got "NaN"\)/]);
    cases.push([['generate', '--catalog', 'nope', '--out', join(deep, 'b', 'x.jsonl')], /unknown catalog preset "nope"/]);
    for (const [args, msg] of cases) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.err.trim().split('\n')[0]).toMatch(msg);
      expect(r.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    }
    expect(existsSync(out)).toBe(false);
    expect(existsSync(deep)).toBe(false);
    expect(existsSync(join(dir, 'never-run'))).toBe(false);
  });

  it('output that cannot be written (a full disk) is a failure: exit 1 and a line on stderr', () => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(TSX, ['src/cli/main.ts', 'catalog', '--preset', 'seed-004'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/error: the output could not be written \(ENOSPC\)/);
    } finally {
      closeSync(full);
    }
  });

  it('frontier prints every family with an AIQ', () => {
    const r = cli('frontier', '--count', '200', '--seed', '4', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.families.map((f: { family: string }) => f.family)).toEqual(['random', 'cheapest', 'always', 'repeat', 'notools', 'tools+model', 'prompted', 'cascade', 'oracle']);
    for (const f of j.families) expect(f.aiq).toBeGreaterThanOrEqual(0);
  });
});

describe('command line: output that is never lost or half-written', () => {
  it('checks --out before any work: an existing file, an unwritable place, a directory for generate', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string[], RegExp][] = [
      [['train', '--iterations', '2', '--out', file], /--out ".*a-file" is an existing file; give a directory/],
      [['train', '--iterations', '2', '--out', join(file, 'run')], /--out: cannot write in ".*a-file\/run": ENOTDIR/],
      [['generate', '--catalog', 'toolorchestra', '--count', '5', '--out', dir], /--out ".*" is a directory; give a file name/],
    ];
    for (const [args, msg] of cases) {
      const t0 = Date.now();
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim()).toMatch(msg);
      expect(r.err).not.toMatch(/it +1 /); // refused before training
      expect(Date.now() - t0).toBeLessThan(20_000);
    }
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]); // no stray temporaries
  });

  it('checkpoints, and --resume goes on from the saved iteration; the folder always holds one whole pair', () => {
    const out = join(dir, 'resumable');
    const first = cli('train', '--seed', '4', '--iterations', '6', '--checkpoint-every', '3', '--batch', '2', '--group', '4', '--pool', '60', '--out', out);
    expect(first.code, first.err).toBe(0);
    const weightsFiles = () => readdirSync(out).filter((f) => /^orchestrator\.weights.*\.bin$/.test(f));
    expect(weightsFiles()).toHaveLength(1);
    const r = cli('train', '--resume', out, '--iterations', '10', '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/trained 4 iterations \(from 6\)/);
    expect(JSON.parse(r.out)).toMatchObject({ iteration: 10, iterations: 10 });
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).iteration);
    expect(lines).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training).toMatchObject({ iterations: 10, batchTasks: 2, groupSize: 4, seed: 4 });
    expect(weightsFiles()).toEqual([model.weightsManifest[0].paths[0]]);
    expect(cli('train', '--resume', out, '--iterations', '10').err).toMatch(/has 10 iterations already/);
    expect(cli('train', '--resume', out, '--out', `${out}/`, '--iterations', '10').err).toMatch(/has 10 iterations already/); // the same folder, written another way
    // A new run into the same folder would replace this one: refused, and nothing is touched.
    const before = readFileSync(join(out, 'orchestrator.json'), 'utf8');
    const again = cli('train', '--seed', '5', '--iterations', '2', '--batch', '2', '--group', '4', '--pool', '60', '--out', out);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/--out .*resumable already holds a run \(orchestrator\.json\): go on with it \(--resume .*\), or give another --out/);
    expect(readFileSync(join(out, 'orchestrator.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(10);
  });

  it('--resume refuses a hand-edited run it could not have started, and options that would change the run, and leaves the run as it was', () => {
    const out = join(dir, 'edited');
    expect(cli('train', '--seed', '4', '--iterations', '2', '--batch', '2', '--group', '4', '--pool', '60', '--out', out).code).toBe(0);
    const manifest = join(out, 'orchestrator.json'), metrics = join(out, 'metrics.jsonl');
    const original = readFileSync(manifest, 'utf8'), originalMetrics = readFileSync(metrics, 'utf8');
    type T = Record<string, unknown> & { sim: Record<string, unknown>; preference: Record<string, unknown> };
    const cases: [(t: T) => void, RegExp][] = [
      [(t) => { t.iterations = -5; }, /"iterations" must be a whole number of iterations done \(got -5\)/],
      [(t) => { t.iterations = 2.5; }, /"iterations" must be a whole number/],
      [(t) => { t.learningRate = 'abc'; }, /"learningRate" must be a finite number \(got "abc"\)/],
      [(t) => { t.learningRate = 1e6; }, /"learningRate" must be a number in \[0, 1\] \(as --lr; got 1000000\)/],
      [(t) => { t.batchTasks = 0; }, /"batchTasks" must be an integer in \[1, 1024\] \(as --batch; got 0\)/],
      [(t) => { t.batchTasks = 'x'; }, /"batchTasks" must be a finite number \(got "x"\)/],
      [(t) => { t.sim.maxTurns = 0; }, /"sim\.maxTurns" must be an integer in \[2, 100\]/],
      [(t) => { t.epochs = 0; }, /"epochs" must be an integer in \[1, 32\]/],
      [(t) => { t.reward = 'bogus'; }, /"reward" must be one of toolorchestra/],
      [(t) => { t.aggregation = 'bogus'; }, /"aggregation" must be token-mean or seq-mean-token-mean/],
      [(t) => { t.preferenceMode = 'bogus'; }, /"preferenceMode" must be fixed or random/],
      [(t) => { t.preference.tools = { bogus: 1 }; }, /"preference" weighs "bogus", which is not a tool of the run's catalog/],
    ];
    for (const [edit, message] of cases) {
      const m = JSON.parse(original);
      edit(m.userDefinedMetadata.training);
      writeFileSync(manifest, JSON.stringify(m));
      const r = cli('train', '--resume', out, '--iterations', '4');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/orchestrator\.json: userDefinedMetadata\.training: /);
      expect(r.err).toMatch(message);
      expect(readFileSync(metrics, 'utf8')).toBe(originalMetrics);
    }
    writeFileSync(manifest, original);
    const changed = cli('train', '--resume', out, '--iterations', '4', '--lr', '0.5', '--seed', '9', '--random-preferences');
    expect(changed.code).toBe(2);
    expect(changed.err).toMatch(/--resume keeps the settings the run was started with \(in .*edited\/orchestrator\.json\); leave out --seed, --lr, --random-preferences, or start a new run from it: --init/);
    expect(readFileSync(manifest, 'utf8')).toBe(original);
    // A damaged metrics file is said, and kept only as far as it is whole and in order.
    writeFileSync(metrics, `${originalMetrics.split('\n')[0]}\ngarbage{\n`);
    const r = cli('train', '--resume', out, '--iterations', '4');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/metrics\.jsonl holds the metrics of iterations 1–1 of 2 whole and in order; the resumed file keeps those and adds the new ones/);
    expect(readFileSync(metrics, 'utf8').trim().split('\n').map((l) => JSON.parse(l).iteration)).toEqual([1, 3, 4]);
  });

  it('--lr-decay lowers the learning rate linearly to 0 over the run, logs it, and a resumed run keeps the schedule', () => {
    const out = join(dir, 'decayed');
    const small = ['--seed', '4', '--batch', '2', '--group', '4', '--pool', '60', '--lr', '0.002'];
    expect(cli('train', ...small, '--iterations', '4', '--lr-decay', '2', '--out', out).err).toMatch(/--lr-decay must be a number in \[0, 1\] \(got "2"\)/);
    const r = cli('train', ...small, '--iterations', '4', '--lr-decay', '1', '--out', out);
    expect(r.code, r.err).toBe(0);
    // (4 − k)/4 of 0.002 at iterations k = 0…3: 0.002, 0.0015, 0.001, 0.0005.
    const rates = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).learningRate);
    expect(rates.map((x: number) => x.toFixed(6))).toEqual(['0.002000', '0.001500', '0.001000', '0.000500']);
    expect(cli('train', '--resume', out, '--iterations', '6').err).toMatch(/reached 0 at iteration 4, where this run stopped: more iterations would not change the weights/);
    expect(cli('train', '--resume', out, '--iterations', '4').err).toMatch(/reached 0 at iteration 4/); // not "give --iterations above 4", which it would refuse
    expect(cli('train', '--resume', out, '--iterations', '6', '--lr-decay', '0.5').err).toMatch(/a resumed run keeps the schedule/);
    const manifest = join(out, 'orchestrator.json');
    const model = JSON.parse(readFileSync(manifest, 'utf8'));
    model.userDefinedMetadata.training.lrDecay = { start: 4, end: 4 }; // hand-edited: would divide by zero
    writeFileSync(manifest, JSON.stringify(model));
    expect(cli('train', '--resume', out, '--iterations', '4').err).toMatch(/learning-rate schedule must run from an iteration to a later one/);
  });

  it('Ctrl-C saves the run at the end of the iteration in flight and says how to resume', async () => {
    const out = join(dir, 'interrupted');
    // A terminal's Ctrl-C reaches the CLI twice (the whole process group gets it, and npm relays it
    // again through tsx), the second a moment after the first: sent here as two signals 10 ms apart,
    // inside one iteration (width 128: about 0.1 s), to the CLI's own node process, it is still one Ctrl-C.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'train', '--iterations', '100000', '--progress-every', '1', '--width', '128', '--pool', '60', '--out', out]);
    let err = '', sent = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/it +3 /.test(err) && !sent) {
          sent = true;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 10);
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toMatch(/saved .* at iteration (\d+) of 100000; go on with: npm run cli -- train --resume/);
    const reached = Number(/at iteration (\d+) of/.exec(err)?.[1]);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training.iterations).toBe(reached);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(reached);
  }, 120_000);
});

describe('command line: training, trained-policy evaluation and the reward scorer', () => {
  it('train writes the artifacts and metrics; eval scores the trained policy with the same JSON', () => {
    const out = join(dir, 'run');
    const t = cli('train', '--catalog', 'toolorchestra', '--seed', '3', '--iterations', '3', '--batch', '4', '--group', '4', '--pool', '100', '--out', out, '--json');
    expect(t.code, t.err).toBe(0);
    expect(t.err).toMatch(/it +3 .*it\/s/);
    const final = JSON.parse(t.out);
    expect(final).toMatchObject({ iteration: 3, iterations: 3, backend: 'wasm' });
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training.batchTasks).toBe(4);
    const e = cli('eval', '--policy', join(out, 'orchestrator.json'), '--count', '100', '--json');
    expect(e.code, e.err).toBe(0);
    const j = JSON.parse(e.out);
    expect(j.n).toBe(100);
    expect(typeof j.accuracy).toBe('number');
  });

  it('the benchmark suites: eval --suite, calibrate beside Table 1, preferences beside Table 3, train --init continues a policy', () => {
    const e = cli('eval', '--policy', 'tools+gpt-5', '--suite', 'hle', '--count', '80', '--json');
    expect(e.code, e.err).toBe(0);
    expect(JSON.parse(e.out)).toMatchObject({ suite: 'hle', n: 80 });
    const bad = cli('eval', '--policy', 'tools+gpt-5', '--suite', 'mmlu');
    expect(bad.code).toBe(2);
    expect(bad.err.trim()).toMatch(/^error: unknown suite "mmlu" \(known: hle, frames, tau2\)$/);
    const c = cli('calibrate', '--count', '60', '--baselines', 'tools+gpt-5,notools:gpt-5', '--json');
    expect(c.code, c.err).toBe(0);
    const rows = JSON.parse(c.out).rows as { policy: string; paper?: { accuracy: { hle: number } }; bySuite: Record<string, { accuracy: number }> }[];
    expect(rows.map((r) => r.policy)).toEqual(['tools+gpt-5', 'notools:gpt-5']);
    expect(rows[0]?.paper?.accuracy.hle).toBe(35.1);
    expect(Object.keys(rows[0]?.bySuite ?? {})).toEqual(['hle', 'frames', 'tau2']);
    // Bad baselines are bad input (exit 2, one line), and the paper's defaults need the paper's models.
    const unknown = cli('calibrate', '--count', '20', '--baselines', 'bogus');
    expect([unknown.code, unknown.err.trim()]).toEqual([2, expect.stringMatching(/^error: --baselines: unknown policy "bogus" .*; a trained orchestrator\.json goes in --policy\)$/)]);
    expect(cli('calibrate', '--count', '20', '--baselines', 'tools+gpt-5,').err).toMatch(/--baselines: an empty name/);
    const defaults = cli('calibrate', '--catalog', 'seed-004', '--count', '10');
    expect([defaults.code, defaults.err]).toEqual([2, expect.stringMatching(/the default baselines are the paper's Table 1 .* catalog "seed-004" cannot play them \(tools\+gpt-5: no tool "gpt-5"/)]);
    // A catalog priced in units: its costs in units, nothing set beside the paper's cents, no ratio without tools+gpt-5.
    const units = cli('calibrate', '--catalog', 'seed-004', '--count', '10', '--baselines', 'cheapest');
    expect(units.code, units.err).toBe(0);
    expect(units.out).toContain('| cost (units) lab / paper |');
    expect(units.out).toMatch(/\| `cheapest` \| [\d.]+ \/ — \| [\d.]+ \/ — \| [\d.]+ \/ — \| \d+\.\d{3} \/ — \| [\d.]+ \/ — \| — \/ — \| — \/ — \|/);
    expect(units.out).not.toContain('NaN');
    const out = join(dir, 'run');
    const more = join(dir, 'run-more');
    const t = cli('train', '--seed', '4', '--iterations', '2', '--batch', '4', '--group', '4', '--pool', '100', '--out', more, '--init', join(out, 'orchestrator.json'), '--advantage', 'mean', '--json');
    expect(t.code, t.err).toBe(0);
    expect(JSON.parse(readFileSync(join(more, 'orchestrator.json'), 'utf8')).userDefinedMetadata.training.advantage.normalizeStd).toBe(false);
    const p = cli('preferences', '--policy', join(more, 'orchestrator.json'), '--count', '40', '--json');
    expect(p.code, p.err).toBe(0);
    const prefs = JSON.parse(p.out).rows as { preset: string; bySuite: Record<string, { apiShare: number }> }[];
    expect(prefs.map((r) => r.preset)).toEqual(['Default (outcome 1, cost 0.5)', 'Accuracy first', 'Budget', 'Fast', 'Avoid API calls']);
    for (const r of prefs) for (const s of ['hle', 'frames', 'tau2']) expect(r.bySuite[s]?.apiShare).toBeGreaterThanOrEqual(0);
  });

  it('reproduce --quick --pretrained writes REPRODUCTION.md and prints every table with paper and lab side by side', () => {
    const out = join(dir, 'repro');
    const r = cli('reproduce', '--quick', '--pretrained', '--count', '30', '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as Record<string, { name: string; paper: Record<string, number | null>; lab: Record<string, number | null> }[]>;
    expect(Object.keys(j)).toEqual(['table1', 'table2', 'table3', 'table4', 'table15', 'figure6']);
    for (const rows of Object.values(j)) {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) { expect(typeof row.name).toBe('string'); expect(row).toHaveProperty('paper'); expect(row).toHaveProperty('lab'); }
    }
    expect(j.table1?.[0]).toMatchObject({ name: 'orchestrator', paper: { hle: 37.1, frames: 76.3, tau2: 80.2 } });
    expect(j.figure6?.map((x) => x.name)).toContain('orchestrator, max turns 20');
    const md = readFileSync(join(out, 'REPRODUCTION.md'), 'utf8');
    for (const t of ['Table 1', 'Table 2', 'Table 3', 'Table 4', 'Table 15', 'Figure 6']) expect(md).toContain(`## ${t}`);
  });

  it('reward scores a logged group with the paper’s reward (worked by hand)', () => {
    // −cost = −0.1, −0.3, −0.02 → normalised 0.714…, 0, 1; outcome 1, 1, 0. P = outcome 1, cost 1.
    // R = [1 + 0.2/0.28, 1 + 0, 0 (failed)] = [1.7142857, 1, 0]; mean 0.9047619, sample std 0.8573…
    const input = join(dir, 'group.json');
    writeFileSync(input, JSON.stringify({
      tools: ['gpt-5', 'web-search'], preference: { outcome: 1, cost: 1, latency: 0 }, mode: 'toolorchestra',
      trajectories: [
        { calls: { 'gpt-5': 1 }, outcome: 1, costUSD: 0.1, latencyS: 10 },
        { calls: { 'gpt-5': 1 }, outcome: 1, costUSD: 0.3, latencyS: 10 },
        { calls: { 'web-search': 2 }, outcome: 0, costUSD: 0.02, latencyS: 3 },
      ],
    }));
    const r = cli('reward', '--input', input);
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    const R = [1 + 0.2 / 0.28, 1, 0];
    R.forEach((x, i) => expect(j.rewards[i]).toBeCloseTo(x, 9));
    const mean = (R[0]! + R[1]!) / 3;
    const sd = Math.sqrt(R.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
    R.forEach((x, i) => expect(j.advantages[i]).toBeCloseTo((x - mean) / (sd + 1e-6), 6));
    // The official code's reward on the same group: −cost spans [−0.3, −0.02] (span 0.28).
    // Successes: outcome key adds 0 (default value), cost key adds 1·(0 + 0.3)/0.28; then outcome +1
    // and the sign bug's (+cost + 0.3)/0.28. gpt-5 was called once by both successes: constant, skipped.
    writeFileSync(input, JSON.stringify({ ...JSON.parse(readFileSync(input, 'utf8')), mode: 'toolorchestra-official' }));
    const o = cli('reward', '--input', input);
    expect(o.code, o.err).toBe(0);
    const official = [0.3 / 0.28 + 1 + 0.4 / 0.28, 0.3 / 0.28 + 1 + 0.6 / 0.28, 0];
    official.forEach((x, i) => expect(JSON.parse(o.out).rewards[i]).toBeCloseTo(x, 9));
  });

  it('reward and eval refuse bad input with one clear line', () => {
    const bad = join(dir, 'bad-group.json');
    writeFileSync(bad, JSON.stringify({ tools: ['a'], preference: { outcome: 1 }, trajectories: [{ calls: { b: 1 }, outcome: 1, costUSD: 0, latencyS: 0 }] }));
    const r = cli('reward', '--input', bad);
    expect(r.code).not.toBe(0);
    expect(r.err.trim()).toMatch(/trajectories\[0\]\.calls\.b: tool "b" is not in "tools"/);
    const two = join(dir, 'outcome-2.json');
    writeFileSync(two, JSON.stringify({ tools: ['a'], preference: { outcome: 1 }, trajectories: [{ calls: {}, outcome: 2, costUSD: 0, latencyS: 0 }] }));
    expect(cli('reward', '--input', two).err.trim()).toMatch(/trajectories\[0\]\.outcome: must be 0 \(failed\) or 1 \(solved\)/);
    // Bounded inputs, so that a reward is never printed as null (JSON's word for a non-finite number).
    const huge = join(dir, 'huge.json');
    const group = { tools: ['a'], preference: { outcome: 1 }, mode: 'weighted', trajectories: [{ calls: { a: 1 }, outcome: 1, costUSD: 0.1, latencyS: 1 }, { calls: {}, outcome: 0, costUSD: 0.1, latencyS: 1 }] };
    writeFileSync(huge, JSON.stringify({ ...group, weighted: { wOutcome: 1e308, perCall: -1e308 } }));
    expect(cli('reward', '--input', huge)).toMatchObject({ code: 2, err: expect.stringMatching(/weighted\.wOutcome: must be in \[−1e6, 1e6\]/) });
    writeFileSync(huge, JSON.stringify({ ...group, trajectories: [{ ...group.trajectories[0], costUSD: 1e308 }, group.trajectories[1]] }));
    expect(cli('reward', '--input', huge)).toMatchObject({ code: 2, err: expect.stringMatching(/trajectories\[0\]\.costUSD: must be at most 1e\+6 \$/) });
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"format": "something-else"}');
    const e = cli('eval', '--policy', junk);
    expect(e.code).not.toBe(0);
    expect(e.err.trim()).toMatch(/invalid orchestrator artifact/);
  });

  it('every command answers --help with its usage; artifacts with an extra weight or a broken stored preference are refused in one line', async () => {
    for (const c of ['eval', 'train', 'reward', 'bench-train']) {
      const h = cli(c, '--help');
      expect(h.code, c).toBe(0);
      expect(h.out).toMatch(new RegExp(`^usage: npm run cli -- ${c} `));
    }
    const policy = join(process.cwd(), 'public', 'pretrained', 'orchestrator.json');
    const manifest = JSON.parse(readFileSync(policy, 'utf8'));
    const copy = (name: string, edit: (m: typeof manifest) => void) => {
      const m = structuredClone(manifest);
      edit(m);
      const f = join(dir, `${name}.json`);
      writeFileSync(f, JSON.stringify(m));
      writeFileSync(join(dir, m.weightsManifest[0].paths[0]), readFileSync(join(process.cwd(), 'public', 'pretrained', manifest.weightsManifest[0].paths[0])));
      return f;
    };
    const extra = copy('extra', (m) => m.weightsManifest[0].weights.push({ name: 'scorer/l9/kernel', shape: [2, 2], dtype: 'float32' }));
    const pref = copy('pref', (m) => { m.userDefinedMetadata.training = { preferenceMode: 'fixed', preference: { outcome: 3, cost: 0, latency: 0, tools: {} } }; });
    // Weights that are all 3e38 (finite, but every logit overflows): one line, not a stack trace.
    const huge = copy('huge', () => undefined);
    const hugeJson = JSON.parse(readFileSync(huge, 'utf8'));
    const floats = readFileSync(join(dir, hugeJson.weightsManifest[0].paths[0])).length / 4;
    writeFileSync(join(dir, 'huge.weights.bin'), Buffer.from(new Float32Array(floats).fill(3e38).buffer));
    hugeJson.weightsManifest[0].paths = ['huge.weights.bin'];
    writeFileSync(huge, JSON.stringify(hugeJson));
    for (const [f, msg] of [[extra, /unexpected "scorer\/l9\/kernel"/], [pref, /training\.preference: "outcome" must be a number in \[0, 1\] \(got 3\)/], [huge, /holds 3\.00e\+38 at float 0 .* within ±10000/]] as const) {
      const r = cli('eval', '--policy', f, '--count', '20');
      expect(r.code).toBe(2);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).toMatch(msg);
    }
  });
});
