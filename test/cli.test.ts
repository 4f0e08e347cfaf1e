import { spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchDir, TSX } from './cliHelpers';

const dir = scratchDir();

describe('command line', () => {
  it('catalog prints a preset that loads back as a catalog file', () => {
    const r = cli('catalog', '--preset', 'seed-004');
    expect(r.code).toBe(0);
    const file = join(dir, 'seed.json');
    writeFileSync(file, r.out);
    const e = cli('eval', '--policy', 'cheapest', '--catalog', file, '--count', '50', '--json');
    expect(e.code).toBe(0);
    expect(JSON.parse(e.out).catalog).toBe('seed-004');
    // The same file with a byte-order mark in front (some editors write one) reads the same.
    writeFileSync(file, `\uFEFF${r.out}`);
    expect(JSON.parse(cli('eval', '--policy', 'cheapest', '--catalog', file, '--count', '50', '--json').out)).toEqual(JSON.parse(e.out));
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
    const zeroP = join(dir, 'zero-preference.json');
    writeFileSync(zeroP, JSON.stringify({ outcome: 0, cost: 0, latency: 0 }));
    const cases: [string[], RegExp][] = [
      [['generate', '--catalog', 'nope', '--out', out], /unknown catalog preset "nope"/],
      [['generate', '--catalog', join(dir, 'missing.json'), '--out', out], /cannot read catalog file .*ENOENT/],
      [['eval', '--policy', 'tools+gpt-9'], /no model "gpt-9"/],
      [['eval', '--policy', 'cheapest', '--count', 'many'], /--count must be an integer/],
      [['eval', '--policy', 'cheapest', '--count', '0x10'], /--count must be an integer in \[1, \d+\] \(got "0x10"\)/], // decimal only: no hex, binary or octal
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
      [['train', '--iterations', '20', '--lr-decay', '0.01', '--out', join(dir, 'never-run')], /--lr-decay 0\.01 of 20 iterations rounds to no iteration; give more than 0\.025/],
      [['train', '--iterations', '2', '--init', 'public/pretrained/orchestrator.json', '--width', '128', '--out', join(dir, 'never-run')], /--init goes on from a trained policy, with its width and depth: leave out --width and --depth/],
      [['train', '--iterations', '2', '--group', '1', '--out', join(dir, 'never-run')], /--group 1: the paper \(normalised, gated\) reward min-max normalises each dimension over the group, .* every reward is 0/],
      [['bench-train', '--kernels', 'maybe'], /--kernels must be on or off \(got "maybe"\)/],
      [['train', '--iterations', '2', '--preference', zeroP, '--out', join(dir, 'never-run')], /--preference: every weight of P is 0, so under the paper's reward \(M_norm · P\) every reward is 0/],
    ];
    const badCatalog = join(dir, 'bad.json');
    writeFileSync(badCatalog, JSON.stringify({ name: 'x', currency: 'USD', tools: [] }));
    cases.push([['generate', '--catalog', badCatalog, '--out', out], /invalid catalog: orchestrator/]);
    // Refused after --out was checked: the folders it names are not made (a refused command leaves nothing behind).
    const deep = join(dir, 'never-made');
    cases.push([['train', '--iterations', '20', '--out', join(deep, 'a', 'run'), '--lr', 'NaN'], /--lr must be a number in \[1e-8, 1\] \(got "NaN"\)/]);
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

  it('frontier prints every family with an AIQ, and RouteLLM\'s APGR and CPT(50%), CPT(80%) between its references', () => {
    const r = cli('frontier', '--count', '200', '--seed', '4', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.families.map((f: { family: string }) => f.family)).toEqual(['random', 'cheapest', 'always', 'repeat', 'notools', 'tools+model', 'prompted', 'cascade', 'greedy', 'hindsight']);
    for (const f of j.families) expect(f.aiq).toBeGreaterThanOrEqual(0);
    // The references: the cheapest and the most accurate point of one model working alone (always, notools, tools+model).
    type P = { policy: string; cost: number; accuracy: number };
    const points: P[] = j.families.filter((f: { family: string }) => ['always', 'notools', 'tools+model'].includes(f.family))
      .flatMap((f: { points: P[] }) => f.points);
    const { weak, strong } = j.routingReferences;
    expect(weak.cost).toBe(Math.min(...points.map((p) => p.cost)));
    expect(strong.accuracy).toBe(Math.max(...points.map((p) => p.accuracy)));
    for (const f of j.families) {
      // A router can always mix the two references at random (PGR = c on the chord): no family recovers less.
      expect(f.apgr).toBeGreaterThanOrEqual(0.5 - 1e-12);
      expect(f.cpt50).toBeGreaterThanOrEqual(0);
      expect(f.cpt50).toBeLessThanOrEqual(0.5 + 1e-12);
      expect(f.cpt80).toBeGreaterThanOrEqual(f.cpt50);
      expect(f.cpt80).toBeLessThanOrEqual(0.8 + 1e-12);
    }
    expect(cli('frontier', '--count', '200', '--seed', '4', '--markdown').out).toMatch(/\| family \| AIQ \| APGR \| CPT\(50%\) \| CPT\(80%\) \|/);
  });
});

describe('command line: training, trained-policy evaluation and the reward scorer', () => {
  it('train writes the artifacts and metrics; eval scores the trained policy with the same JSON', () => {
    const out = join(dir, 'run');
    const t = cli('train', '--catalog', 'toolorchestra', '--seed', '3', '--iterations', '3', '--batch', '4', '--group', '4', '--pool', '100', '--out', out, '--json');
    expect(t.code, t.err).toBe(0);
    expect(t.err).toMatch(/it +3 .*it\/s/);
    expect(t.err).not.toMatch(/--random-preferences under/); // fixed P: no note on random P
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
    expect(j).toMatchObject({ currency: 'USD', preferenceUsed: { outcome: 1, cost: 0.5, latency: 0.5 } }); // the run's P: the default
    // The run folder names its policy; plain output says the unit and the P it acted at.
    const plain = cli('eval', '--policy', out, '--count', '20');
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).toMatch(/accuracy [\d.]+%, mean cost \$[\d.]+, .* over 20 toolscale tasks \(greedy, at P = outcome 1 · cost 0\.5 · latency 0\.5\)/);
    // Random P under the paper's reward says what it costs the presets and names the shipped recipe; under success-first it says nothing.
    const tiny = ['--iterations', '1', '--batch', '2', '--group', '4', '--pool', '50', '--random-preferences'];
    const paper = cli('train', ...tiny, '--out', join(dir, 'random-paper'));
    expect(paper.code, paper.err).toBe(0);
    expect(paper.err).toMatch(/notice: --random-preferences under the paper's reward: .* --random-preferences --reward success-first --advantage mean --lr 0.0015 --entropy 0.03 --lr-decay 1/);
    const first = cli('train', ...tiny, '--reward', 'success-first', '--out', join(dir, 'random-first'));
    expect(first.code, first.err).toBe(0);
    expect(first.err).not.toMatch(/--random-preferences under/);
    const other = cli('eval', '--policy', out, '--catalog', 'seed-004', '--count', '20');
    expect(other.code, other.err).toBe(0);
    expect(other.err).toMatch(/warning: .*orchestrator\.json was trained with catalog "toolorchestra"; catalog "seed-004" adds calculator, search, code-executor and lacks gpt-5, gpt-5-mini/);
    expect(other.out).toMatch(/mean cost [\d.]+ u,/);
    // A weights file whose bytes no longer match the fingerprint in its name is refused (on a copy: later tests use the run).
    const copy = join(dir, 'run-tampered');
    cpSync(out, copy, { recursive: true });
    const weightsName = readdirSync(copy).find((f) => /^orchestrator\.weights\.[0-9a-f]{8}\.bin$/.test(f)) as string;
    const bytes = readFileSync(join(copy, weightsName));
    bytes[12] = (bytes[12] as number) ^ 1;
    writeFileSync(join(copy, weightsName), bytes);
    const tampered = cli('eval', '--policy', copy, '--count', '20');
    expect(tampered.code).toBe(2);
    expect(tampered.err.trim()).toMatch(new RegExp(`"${weightsName.replace(/\./g, '\\.')}" does not hold the weights its name records \\(their fingerprint is [0-9a-f]{8}\\): the file was changed or damaged after it was written$`));
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
    expect([defaults.code, defaults.err]).toEqual([2, expect.stringMatching(/the default baselines are the paper's Table 1 .* catalog "seed-004" cannot play them \(tools\+gpt-5: no model "gpt-5" in catalog "seed-004"\)/)]);
    // A catalog priced in units: its costs in units, nothing set beside the paper's cents, no ratio without tools+gpt-5.
    const units = cli('calibrate', '--catalog', 'seed-004', '--count', '10', '--baselines', 'cheapest');
    expect(units.code, units.err).toBe(0);
    expect(units.out).toContain('| cost (units) (HLE + FRAMES) lab / paper |');
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
    expect(prefs.map((r) => r.preset)).toEqual(['Default (outcome 1, cost 0.5, latency 0.5)', 'Accuracy first', 'Budget', 'Fast', 'Avoid API calls']);
    for (const r of prefs) for (const s of ['hle', 'frames', 'tau2']) expect(r.bySuite[s]?.apiShare).toBeGreaterThanOrEqual(0);
  });

  it('reproduce --quick --pretrained writes REPRODUCTION.md and prints every table with paper and lab side by side', () => {
    const out = join(dir, 'repro');
    const r = cli('reproduce', '--quick', '--pretrained', '--count', '30', '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as Record<string, { name: string; paper: Record<string, number | null>; lab: Record<string, number | null> }[]>;
    expect(Object.keys(j)).toEqual(['table1', 'table2', 'copy', 'table3', 'table3Systems', 'table4', 'table15', 'figure6', 'rule', 'ruleFrontier', 'routing']);
    for (const rows of Object.values(j)) {
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) { expect(typeof row.name).toBe('string'); expect(row).toHaveProperty('paper'); expect(row).toHaveProperty('lab'); }
    }
    expect(j.table1?.[0]).toMatchObject({ name: 'orchestrator', paper: { hle: 37.1, frames: 76.3, tau2: 80.2 } });
    expect(j.figure6?.map((x) => x.name)).toContain('orchestrator, max turns 20');
    expect(j.table2?.map((x) => x.name)[0]).toBe('orchestrator, unseen tools');
    expect(j.table2?.[1]?.name).toBe('best baseline (by HLE)');
    // The greedy rule: a row in Tables 1, 2, 3 and Figure 6, its λ per preset, its frontier over the grid.
    const RULE = 'greedy rule (λ tuned on training tasks)';
    for (const t of ['table1', 'table2', 'table3Systems']) expect(j[t]?.map((x) => x.name)).toContain(RULE);
    expect(j.figure6?.map((x) => x.name)).toContain(`${RULE}, max turns 40`);
    expect(j.rule?.map((x) => x.name)).toEqual(['Default (outcome 1, cost 0.5, latency 0.5)', 'Accuracy first', 'Budget', 'Fast', 'Avoid API calls']);
    expect(j.ruleFrontier?.[0]?.name).toBe('greedy:0.001');
    const md = readFileSync(join(out, 'REPRODUCTION.md'), 'utf8');
    for (const t of ['Table 1', 'Table 2', 'Table 3', 'Table 4', 'Table 15', 'Figure 6']) expect(md).toContain(`## ${t}`);
  });

  it('reproduce --seeds trains each seed, runs every table on each held-out sample, and reports means with intervals and the claims', () => {
    const out = join(dir, 'seeds');
    const r = cli('reproduce', '--seeds', '2', '--samples', '2', '--quick', '--count', '20', '--iterations', '2', '--out', out, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { table1: { name: string; lab: Record<string, { mean: number; half: number; n: number } | null> }[];
      claims: { claim: string; holds: boolean }[]; ship: number };
    const orch = j.table1.find((x) => x.name === 'orchestrator');
    expect(orch?.lab.hle?.n).toBe(4); // 2 seeds × 2 samples
    expect(orch?.lab.hle?.half).toBeGreaterThanOrEqual(0);
    expect(j.claims.map((c) => c.claim)[0]).toMatch(/^Learning beats the rule/);
    expect([1, 2]).toContain(j.ship);
    const runs = JSON.parse(readFileSync(join(out, 'runs.json'), 'utf8')) as { runs: { seed: number; sample: number }[]; samples: number[] };
    expect(runs.runs.map((x) => `${x.seed}/${x.sample}`)).toEqual(['1/7001', '1/7002', '2/7001', '2/7002']);
    const md = readFileSync(join(out, 'REPRODUCTION.md'), 'utf8');
    expect(md).toMatch(/## The paper's claims on these runs \(\d+ of \d+ hold on the means\)/);
    expect(md).toContain('**The policy to ship** is the seed nearest the median');
    // A --rule file that is not the rule's λs is refused in words before any work.
    const bad = join(dir, 'bad-rule.json');
    writeFileSync(bad, JSON.stringify({ byPreset: [{ preset: 'x', lambda: -1, score: 0 }] }));
    const b = cli('reproduce', '--pretrained', '--quick', '--count', '20', '--rule', bad, '--out', join(dir, 'bad-rule-out'));
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/--rule .*bad-rule\.json: expected \{"byPreset"/);
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
