// The world behaves the way real models do (the publications cited in docs/SIMULATION.md), checked against a
// second, plain implementation: numerical integration of the logit-normal model over the latents.
import { describe, expect, it } from 'vitest';
import { confidence, DEFAULT_SIM, type SimConfig } from '../src/core/sim/callModel';
import type { Catalog } from '../src/core/sim/catalog';
import { BatchEnv } from '../src/core/sim/env';
import { counterUniform, hashInts } from '../src/core/sim/rng';
import type { Task } from '../src/core/sim/tasks';
import { handCatalog } from './helpers';

const sig = (x: number) => 1 / (1 + Math.exp(-x));
const phi = (x: number) => Math.exp(-x * x / 2) / Math.sqrt(2 * Math.PI);
/** ∫ f(v) φ(v) dv on a fine grid (trapezoid over ±8). */
function gauss(f: (v: number) => number): number {
  let s = 0;
  const h = 0.01;
  for (let v = -8; v <= 8 + 1e-9; v += h) s += f(v) * phi(v) * h;
  return s;
}

/** Two reasoning models on one-step tasks; ρ and spread as given, latents drawn by the env. */
function world(skills: [number, number]): Catalog {
  const c = handCatalog();
  c.tools = [
    { ...c.tools[0]!, id: 'model-a', skill: { reason: skills[0] } },
    { ...c.tools[0]!, id: 'model-b', skill: { reason: skills[1] } },
  ];
  return c;
}
function oneStepTasks(n: number, difficulty: number): Task[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `w${i}`, key: hashInts(99, i), suite: 'test', domain: 'science' as const, question: 'q', promptTokens: 100,
    steps: [{ type: 'reason' as const, difficulty, hint: difficulty, needsTool: false, text: 't', argument: 'a', answer: 'A', wrong: 'W' }],
    available: ['model-a', 'model-b'], golden: { path: [], successProbability: 0 },
  }));
}
/** Runs the given call sequence on every task and returns, per task, the correctness of each call. */
function callResults(sim: SimConfig, skills: [number, number], seq: number[], n: number, difficulty: number): boolean[][] {
  const cat = world(skills);
  const env = new BatchEnv(cat, { ...sim, maxTurns: seq.length + 2 }, n);
  env.reset(oneStepTasks(n, difficulty), Array.from({ length: n }, (_, i) => hashInts(5, i)), { trace: true });
  for (const a of seq) env.step(new Array(n).fill(a));
  return (env.traces ?? []).map((tr) => tr.filter((e) => e.action === 'call').map((e) => e.correct === true));
}

describe('correlated attempts: an item that defeats a model keeps defeating it', () => {
  const sim: SimConfig = { ...DEFAULT_SIM, spread: { ...DEFAULT_SIM.spread, reason: 4.3 } };
  const a = sim.discrimination, S = sim.spread.reason;
  // model-a, skill 1 on steps of difficulty 1.25: item logit μ = 1.6·(1 − 1.25) = −0.4 (about 47% on one try with s = 4.3).
  const mu = a * (1 - 1.25);
  const n = 6000;
  const res = callResults(sim, [1, 1], [0, 0, 0, 0, 0], n, 1.25);

  it('the retry curve of one tool on one step matches ∫ 1 − (1 − σ(μ + s·v))^k φ(v) dv', () => {
    for (let k = 1; k <= 5; k++) {
      const lab = res.filter((r) => r.slice(0, k).some(Boolean)).length / n;
      const exact = gauss((v) => 1 - (1 - sig(mu + S * v)) ** k);
      expect(lab, `k = ${k}`).toBeGreaterThan(exact - 0.025);
      expect(lab, `k = ${k}`).toBeLessThan(exact + 0.025);
    }
  });

  it('retries help far less than independent draws would (a retry after a miss rarely succeeds)', () => {
    const p1 = res.filter((r) => r[0]).length / n;
    const p5 = res.filter((r) => r.some(Boolean)).length / n;
    const independent = 1 - (1 - p1) ** 5;
    expect(p5).toBeLessThan(independent - 0.25);
    // P(second right | first wrong) = E[(1 − p)·p]/E[1 − p].
    const missed = res.filter((r) => !r[0]);
    const retry = missed.filter((r) => r[1]).length / missed.length;
    const exact = gauss((v) => (1 - sig(mu + S * v)) * sig(mu + S * v)) / gauss((v) => 1 - sig(mu + S * v));
    expect(Math.abs(retry - exact)).toBeLessThan(0.025);
    expect(retry).toBeLessThan(p1 / 2);
  });
});

describe('different models fail on the same items (shared per-step factor ρ)', () => {
  const sim: SimConfig = { ...DEFAULT_SIM, sharedFactor: 0.55 };
  const S = sim.spread.reason, rho = sim.sharedFactor, a = sim.discrimination;
  const muA = a * (1.5 - 1), muB = a * (2 - 1);
  const n = 6000;
  const res = callResults(sim, [1.5, 2], [0, 1], n, 1);

  it('P(B right | A wrong) matches the two-factor integral and is far below P(B right)', () => {
    const pB = res.filter((r) => r[1]).length / n;
    const aWrong = res.filter((r) => !r[0]);
    const pBgivenNotA = aWrong.filter((r) => r[1]).length / aWrong.length;
    // Second implementation: given the shared z, A's and B's own parts are independent.
    const inner = (mu: number, z: number, f: (p: number) => number) => gauss((e) => f(sig(mu + S * (Math.sqrt(rho) * z + Math.sqrt(1 - rho) * e))));
    const num = gauss((z) => inner(muA, z, (p) => 1 - p) * inner(muB, z, (p) => p));
    const den = gauss((z) => inner(muA, z, (p) => 1 - p));
    const exactB = gauss((v) => sig(muB + S * v));
    expect(Math.abs(pB - exactB)).toBeLessThan(0.02);
    expect(Math.abs(pBgivenNotA - num / den)).toBeLessThan(0.03);
    expect(pBgivenNotA).toBeLessThan(pB - 0.15);
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
  for (const target of [0.55, 0.65, 0.7, 0.85, 0.97]) {
    it(`calibration ${target} gives AUROC ${target} on generated draws`, () => {
      const m = 20000;
      const right = Array.from({ length: m }, (_, i) => confidence(true, target, counterUniform(1, i, 0, 0, 1)));
      const wrong = Array.from({ length: m }, (_, i) => confidence(false, target, counterUniform(2, i, 0, 0, 1)));
      expect(Math.abs(auroc(right, wrong) - target)).toBeLessThan(0.01);
    });
  }
  it('verbalised confidence is overconfident: about 0.8 on average even when most answers are wrong', () => {
    const m = 20000;
    const xs = Array.from({ length: m }, (_, i) => confidence(i % 10 < 3, 0.65, counterUniform(3, i, 0, 0, 1)));
    const mean = xs.reduce((s, x) => s + x, 0) / m;
    expect(mean).toBeGreaterThan(0.72);
    expect(mean).toBeLessThan(0.86);
  });
});
