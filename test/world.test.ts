// The world behaves the way real models do (the publications cited in docs/SIMULATION.md), checked against a
// second, plain implementation: numerical integration of the logit-normal model over the latents.
import { describe, expect, it } from 'vitest';
import { confidence, DEFAULT_SIM, type SimConfig } from '../src/core/sim/callModel';
import type { Catalog, ToolSpec } from '../src/core/sim/catalog';
import { BatchEnv } from '../src/core/sim/env';
import { MAX_STEPS } from '../src/core/sim/episode';
import { counterUniform, hashInts } from '../src/core/sim/rng';
import type { Task } from '../src/core/sim/tasks';
import { handCatalog, sig } from './helpers';

const phi = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
/** ∫ f(v) φ(v) dv on a fine grid (rectangles over ±8). */
function gauss(f: (v: number) => number): number {
  let s = 0;
  const h = 0.01;
  for (let v = -8; v <= 8 + 1e-9; v += h) s += f(v) * phi(v) * h;
  return s;
}
/** Two-factor integrals: v = √ρ·z + √(1−ρ)·e; given z, two parties' own parts are independent. */
const inner = (rho: number, mu: number, s: number, z: number, f: (p: number) => number) => gauss((e) => f(sig(mu + s * (Math.sqrt(rho) * z + Math.sqrt(1 - rho) * e))));

const a = DEFAULT_SIM.discrimination;

/**
 * Answerers model-a and model-b (reason only), a writer of skill `w` and a sure writer (10), a sure search tool
 * (reason skill 10) and a shaky one (reason skill 1); both lift a reason step by 1.2, both AUROC 0.8.
 */
function world(skills: { a: number; b: number; w: number }): Catalog {
  const c = handCatalog();
  delete c.orchestrator.writes;
  const alpha = c.tools[0] as ToolSpec;
  const model = (id: string, skill: ToolSpec['skill'], writes?: ToolSpec['writes']): ToolSpec => {
    const { writes: _, ...rest } = alpha;
    return { ...rest, id, skill, ...(writes ? { writes } : {}) };
  };
  const gamma = c.tools[2] as ToolSpec;
  const tool = (id: string, skill: number): ToolSpec => ({ ...gamma, id, skill: { reason: skill }, context: { reason: 1.2 }, calibration: 0.8 });
  c.tools = [model('model-a', { reason: skills.a }), model('model-b', { reason: skills.b }), model('writer', {}, { query: skills.w }), model('sure-writer', {}, { query: 10 }), tool('sure-tool', 10), tool('shaky-tool', 1)];
  return c;
}
function oneStepTasks(n: number, difficulty: number, needsTool = false): Task[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `w${i}`, key: hashInts(99, i), suite: 'test', domain: 'science' as const, question: 'q', promptTokens: 100,
    steps: [{ type: 'reason' as const, difficulty, hint: difficulty, needsTool, text: 't', argument: 'a', answer: 'A', wrong: 'W' }],
    commits: 'task' as const, available: ['model-a', 'model-b', 'writer', 'sure-writer', 'sure-tool', 'shaky-tool'], golden: { path: [], successProbability: 0 },
  }));
}
/** Plays every episode's own sequence of slot ids (then submits), with the env's own latents; returns the env (with traces if asked). */
function play(cat: Catalog, sim: SimConfig, tasks: Task[], keys: number[], seqs: (i: number) => readonly string[], trace = false): BatchEnv {
  const env = new BatchEnv(cat, sim, tasks.length);
  env.reset(tasks, keys, { trace });
  const ids = env.slots.map((s) => s.id);
  for (let t = 0; !env.allDone(); t++) {
    env.step(tasks.map((_, i) => {
      const id = seqs(i)[t];
      return id === undefined ? env.submitAction : ids.indexOf(id);
    }));
  }
  return env;
}
const share = (xs: boolean[]) => xs.filter(Boolean).length / xs.length;

describe('an item that defeats a model keeps defeating it', () => {
  const sim: SimConfig = { ...DEFAULT_SIM, maxTurns: 8 };
  const S = sim.spread.reason;
  // model-a, skill 1 on steps of difficulty 1.25: item logit μ = 1.6·(1 − 1.25) = −0.4, spread 4.3.
  // Tolerances are about four standard errors (Bernoulli noise and the sample of item latents).
  const mu = a * (1 - 1.25);
  const n = 5000, K = 4;
  // Every task answered by model-a in K episodes with different episode keys: the same item latent, fresh draws.
  const base = oneStepTasks(n, 1.25);
  const tasks = base.flatMap((t) => Array.from({ length: K }, () => t));
  const keys = tasks.map((_, e) => hashInts(5, Math.floor(e / K), e % K));
  const env = play(world({ a: 1, b: 1, w: 0 }), sim, tasks, keys, () => ['answer:model-a']);
  const res = base.map((_, i) => Array.from({ length: K }, (_, r) => env.outcome[i * K + r] === 1));

  it('the curve of k tries (episodes) matches ∫ 1 − (1 − σ(μ + s·v))^k φ(v) dv', () => {
    for (let k = 1; k <= K; k++) {
      const lab = share(res.map((r) => r.slice(0, k).some(Boolean)));
      const exact = gauss((v) => 1 - (1 - sig(mu + S * v)) ** k);
      expect(Math.abs(lab - exact), `k = ${k}: ${lab} vs ${exact}`).toBeLessThan(0.035);
    }
  });

  it('more tries help far less than independent draws would (a try after a miss rarely succeeds)', () => {
    const p1 = share(res.map((r) => r[0] === true));
    const p4 = share(res.map((r) => r.some(Boolean)));
    expect(p4).toBeLessThan(1 - (1 - p1) ** 4 - 0.2);
    // P(second right | first wrong) = E[(1 − p)·p]/E[1 − p].
    const missed = res.filter((r) => !r[0]);
    const retry = share(missed.map((r) => r[1] === true));
    const exact = gauss((v) => (1 - sig(mu + S * v)) * sig(mu + S * v)) / gauss((v) => 1 - sig(mu + S * v));
    expect(Math.abs(retry - exact)).toBeLessThan(0.035);
    expect(retry).toBeLessThan(p1 / 2);
  });
});

describe('a writer’s retries on one step share their latent', () => {
  const sim: SimConfig = { ...DEFAULT_SIM, maxTurns: 8 };
  // writer skill −1.2 on d = 1.25: μ_w = 1.6·(−1.2 − (1.25 − 2)) = −0.72, spread 2.5; the sure tool finds whenever the query is good
  // (σ(1.6·(10 − 1.25) + v) = σ(14 + v)).
  const muW = a * (-1.2 - (1.25 - sim.writeEase)), Sw = sim.writerSpread;
  const n = 3000;
  const env = play(world({ a: 1, b: 1, w: -1.2 }), sim, oneStepTasks(n, 1.25), Array.from({ length: n }, (_, i) => hashInts(6, i)), () => Array(6).fill('search:writer@sure-tool') as string[], true);
  const res = (env.traces ?? []).map((tr) => tr.filter((e) => e.action === 'search').map((e) => e.success === true));

  it('six calls on the one step, all of them by the slot, all targeting it', () => {
    for (const tr of env.traces ?? []) expect(tr.filter((e) => e.action === 'search' && e.step === 0 && e.slot === 'search:writer@sure-tool')).toHaveLength(6);
  });

  it('the retry curve of the writer matches ∫ 1 − (1 − σ(μ_w + s_w·v))^k φ(v) dv, far below independent tries', () => {
    for (let k = 1; k <= 6; k++) {
      const lab = share(res.map((r) => r.slice(0, k).some(Boolean)));
      const exact = gauss((v) => 1 - (1 - sig(muW + Sw * v)) ** k);
      expect(Math.abs(lab - exact), `k = ${k}: ${lab} vs ${exact}`).toBeLessThan(0.035);
    }
    const p1 = share(res.map((r) => r[0] === true));
    expect(share(res.map((r) => r.some(Boolean)))).toBeLessThan(1 - (1 - p1) ** 6 - 0.2);
  });
});

describe('the shared per-step factor ρ: models and writers fail on the same items, search tools miss on their own', () => {
  // model-a 1.5, model-b 2 on d = 1: μ_A = 0.8, μ_B = 1.6 (spread 4.3); writer −1.2: μ_w = 1.6·(−1.2 − (1 − 2)) = −0.32 (spread 2.5);
  // the shaky tool (skill 1, spread 3 here) with the sure writer: μ_t = 0, so P(find) = 1/2 exactly.
  const sim: SimConfig = { ...DEFAULT_SIM, sharedFactor: 0.55, basicSpread: 3 };
  const S = sim.spread.reason, rho = sim.sharedFactor;
  const muA = a * (1.5 - 1), muB = a * (2 - 1), muW = a * (-1.2 - (1 - sim.writeEase));
  const n = 6000;
  const base = oneStepTasks(n, 1);
  const plans = [['answer:model-a'], ['answer:model-b'], ['search:writer@sure-tool'], ['search:sure-writer@shaky-tool']];
  const tasks = plans.flatMap(() => base);
  const env = play(world({ a: 1.5, b: 2, w: -1.2 }), sim, tasks, tasks.map((_, e) => hashInts(7, e)), (e) => plans[Math.floor(e / n)] as string[]);
  const aWrong = base.map((_, i) => env.outcome[i] === 0);
  const bRight = base.map((_, i) => env.outcome[n + i] === 1);
  // One evidence call on the one step: it found iff the step has a find.
  const found = (p: number) => base.map((_, i) => (env.hits[(p * n + i) * MAX_STEPS] as number) > 0);
  const given = (xs: boolean[]) => share(xs.filter((_, i) => aWrong[i]));
  const den = gauss((z) => inner(rho, muA, S, z, (p) => 1 - p));

  it('P(B right | A wrong) matches the two-factor integral and is far below P(B right)', () => {
    const exactB = gauss((v) => sig(muB + S * v));
    const num = gauss((z) => inner(rho, muA, S, z, (p) => 1 - p) * inner(rho, muB, S, z, (p) => p));
    expect(Math.abs(share(bRight) - exactB)).toBeLessThan(0.025);
    expect(Math.abs(given(bRight) - num / den)).toBeLessThan(0.035);
    expect(given(bRight)).toBeLessThan(share(bRight) - 0.15);
  });

  it('a writer’s query fails more often where the answerer fails (its latent shares the factor)', () => {
    const write = found(2);
    const num = gauss((z) => inner(rho, muA, S, z, (p) => 1 - p) * inner(rho, muW, sim.writerSpread, z, (p) => p));
    expect(Math.abs(share(write) - gauss((v) => sig(muW + sim.writerSpread * v)))).toBeLessThan(0.025);
    expect(Math.abs(given(write) - num / den)).toBeLessThan(0.035);
    expect(given(write)).toBeLessThan(share(write) - 0.1);
  });

  it('a search tool’s misses are its own (ρ = 0): P(find | A wrong) = P(find) = 1/2', () => {
    const find = found(3);
    expect(Math.abs(share(find) - 0.5)).toBeLessThan(0.025);
    // Were its latent to share the factor, P(find | A wrong) would be ≈ 0.33.
    expect(Math.abs(given(find) - 0.5)).toBeLessThan(0.035);
  });
});

describe('evidence raises the answer’s chance as answerLogit says', () => {
  const sim: SimConfig = { ...DEFAULT_SIM, maxTurns: 6 };
  const S = sim.spread.reason, mu = a * (1 - 1.25), lift = 1.2, decay = sim.evidenceDecay;
  const n = 4000;
  const SEARCH = 'search:sure-writer@sure-tool';
  const plans = [['answer:model-a'], [SEARCH, 'answer:model-a'], [SEARCH, SEARCH, 'answer:model-a']];
  const run = (needsTool: boolean) => {
    const base = oneStepTasks(n, 1.25, needsTool);
    const tasks = plans.flatMap(() => base);
    // The same episode key for a task's three episodes: the answer meets the same draw (common random numbers).
    const env = play(world({ a: 1, b: 1, w: 0 }), sim, tasks, tasks.map((_, e) => hashInts(8, e % n)), (e) => plans[Math.floor(e / n)] as string[]);
    return plans.map((_, p) => base.map((_, i) => env.outcome[p * n + i] === 1));
  };

  it('no find, one find, two finds: ∫σ(μ + s·v + E)φ with E = 0, lift, lift·(1 + decay)', () => {
    const [none, one, two] = run(false) as [boolean[], boolean[], boolean[]];
    for (const [got, e] of [[none, 0], [one, lift], [two, lift * (1 + decay)]] as const) {
      expect(Math.abs(share(got) - gauss((v) => sig(mu + S * v + e))), `E = ${e}`).toBeLessThan(0.03);
    }
    // With the same draw, evidence never turns a right answer wrong.
    for (let i = 0; i < n; i++) {
      if (none[i]) expect(one[i]).toBe(true);
      if (one[i]) expect(two[i]).toBe(true);
    }
  });

  it('on a step that needs a tool, no find leaves it out of reach (−penalty); a find brings the same chance as above', () => {
    const [none, one] = run(true) as [boolean[], boolean[]];
    expect(share(none)).toBeLessThan(0.002); // ∫σ(μ + s·v − 30)φ ≈ 6e-10
    expect(Math.abs(share(one) - gauss((v) => sig(mu + S * v + lift)))).toBeLessThan(0.03);
  });
});

describe('confidence: its AUROC is the tool’s calibration', () => {
  /** Mann–Whitney AUROC of scores of right answers against wrong ones. */
  function auroc(right: number[], wrong: number[]): number {
    const all = [...right.map((x) => [x, 1] as const), ...wrong.map((x) => [x, 0] as const)].sort((p, q) => p[0] - q[0]);
    let rankSum = 0;
    all.forEach(([, lab], i) => { if (lab === 1) rankSum += i + 1; });
    return (rankSum - (right.length * (right.length + 1)) / 2) / (right.length * wrong.length);
  }
  for (const target of [0.55, 0.7, 0.85, 0.97]) {
    it(`calibration ${target} gives AUROC ${target} on generated draws`, () => {
      const m = 20000;
      const right = Array.from({ length: m }, (_, i) => confidence(true, target, counterUniform(1, i, 0, 0, 1)));
      const wrong = Array.from({ length: m }, (_, i) => confidence(false, target, counterUniform(2, i, 0, 0, 1)));
      expect(Math.abs(auroc(right, wrong) - target)).toBeLessThan(0.01);
    });
  }

  it('the signal of the env’s evidence calls tells finds from misses with the tool’s AUROC (0.8)', () => {
    const n = 6000;
    const env = play(world({ a: 1, b: 1, w: 0 }), DEFAULT_SIM, oneStepTasks(n, 1), Array.from({ length: n }, (_, i) => hashInts(9, i)), () => ['search:sure-writer@shaky-tool'], true);
    const calls = (env.traces ?? []).map((tr) => tr[0]!);
    const right = calls.filter((e) => e.success).map((e) => e.signal!);
    const wrong = calls.filter((e) => !e.success).map((e) => e.signal!);
    expect(Math.min(right.length, wrong.length)).toBeGreaterThan(n / 4);
    expect(Math.abs(auroc(right, wrong) - 0.8)).toBeLessThan(0.025);
  });

  it('verbalised confidence is overconfident: about 0.8 on average even when most answers are wrong', () => {
    const m = 20000;
    const xs = Array.from({ length: m }, (_, i) => confidence(i % 10 < 3, 0.65, counterUniform(3, i, 0, 0, 1)));
    const mean = xs.reduce((s, x) => s + x, 0) / m;
    expect(mean).toBeGreaterThan(0.72);
    expect(mean).toBeLessThan(0.86);
  });
});
