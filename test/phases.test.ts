// The iteration as eight named phases: run one at a time (slow motion) it trains exactly as the
// trainer's back-to-back step, every phase reports numbers, and those numbers agree with a plain
// recomputation done here by hand.
import { slotsOf } from '../src/core/sim/slots';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN, type TrainConfig } from '../src/core/grpo/config';
import { PHASE_NAMES, runNextPhase } from '../src/core/grpo/phases';
import { phaseReport, type PhaseReport } from '../src/core/lab/phaseReport';
import { GrpoTrainer } from '../src/core/grpo/trainer';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

const catalog = presetCatalog('toolorchestra');
const pool = generateTasks(catalog, { seed: 21, count: 200 }).tasks;
const cfg: TrainConfig = { ...DEFAULT_TRAIN, batchTasks: 4, groupSize: 6, epochs: 3, learningRate: 0.02, advantage: { ...DEFAULT_TRAIN.advantage, filterStd: null }, policy: { width: 8, depth: 2, seed: 3 }, sim: { ...DEFAULT_SIM, maxTurns: 8 } };

async function weights(t: GrpoTrainer): Promise<number[]> {
  const out: number[] = [];
  for (const v of t.net.vars) out.push(...(await v.data()));
  return out;
}

describe('GRPO in slow motion', () => {
  it('names its eight phases as the lesson and the tests expect', () => {
    expect(PHASE_NAMES).toEqual(['Sample tasks and preferences', 'Roll out G trajectories per task', 'Measure M', 'Normalise', 'Gate and weight: R', 'Advantage: A', 'Update: ratio, clip, KL', 'New probabilities']);
  });

  it('phase by phase trains exactly as step(), and reports every phase with numbers', async () => {
    const a = new GrpoTrainer(catalog, cfg, pool), b = new GrpoTrainer(catalog, cfg, pool);
    const reports: PhaseReport[] = [];
    for (let it = 0; it < 2; it++) {
      const ma = await a.step();
      const s = b.begin({ observe: true });
      while (await runNextPhase(s)) reports.push(phaseReport(s));
      const mb = b.finish(s);
      for (const k of ['meanReward', 'accuracy', 'meanCostUSD', 'loss', 'entropy', 'clipFrac', 'gradNorm'] as const) expect(mb[k]).toBe(ma[k]);
    }
    expect(await weights(b)).toEqual(await weights(a));
    expect(reports.map((r) => r.index)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]);
    for (const r of reports) {
      expect(r.name).toBe(PHASE_NAMES[r.index - 1]);
      expect(r.tables.length + (r.bars ? 1 : 0)).toBeGreaterThan(0);
      // Every table row holds a number, and the facts the lessons quote are finite numbers.
      for (const t of r.tables) for (const row of t.rows) expect(row.slice(1).some((v) => /\d/.test(v))).toBe(true); // past the row's own number
      for (const v of Object.values(r.facts)) expect(Number.isFinite(v)).toBe(true);
      if (r.index !== 1 && r.index !== 3) expect(Object.keys(r.facts).length).toBeGreaterThan(0);
      if (r.index === 8) {
        expect(r.bars?.items.length).toBeGreaterThan(0); // observed: the probabilities before and after
        // The bars name the policy's actions (slots and submit), and a probability of a taken action is never 0 or NaN.
        const actions = new Set([...slotsOf(catalog).map((x) => x.id), 'submit']);
        for (const item of r.bars!.items) expect(actions.has(item.label), item.label).toBe(true);
        for (const row of r.tables[0]!.rows) {
          expect(row.join(' ')).not.toMatch(/NaN/);
          if (row[3] !== '—') expect(Number.parseFloat(row[3] as string)).toBeGreaterThan(0);
        }
      }
    }
    a.dispose(); b.dispose();
  });

  it('phase 5 quotes the cheapest and the dearest success and their R, worked out here from the group\'s trajectories', async () => {
    const t = new GrpoTrainer(catalog, cfg, pool);
    let checked = false;
    for (let it = 0; it < 30 && !checked; it++) {
      const s = t.begin({ observe: true });
      for (let k = 0; k < 5; k++) await runNextPhase(s);
      const facts = phaseReport(s).facts;
      const stats = s.stats[s.shown] ?? [], P = s.groupPrefs[s.shown] ?? [];
      const wins = stats.map((_, g) => g).filter((g) => stats[g]?.outcome);
      if (wins.length >= 2 && new Set(wins.map((g) => stats[g]?.costUSD)).size >= 2) {
        // R by hand: M = [calls…, outcome, −cost, −latency], min–max over the group (0 where constant), R = outcome · Σ P_k·M̃_k.
        const J = catalog.tools.length;
        const M = stats.map((x) => [...Array.from({ length: J }, (_, j) => x.calls[j] ?? 0), x.outcome, -x.costUSD, -x.latencyS]);
        const norm = M.map((row) => row.map((v, k) => {
          const col = M.map((r) => r[k] as number), lo = Math.min(...col), hi = Math.max(...col);
          return hi > lo ? (v - lo) / (hi - lo) : 0;
        }));
        const R = stats.map((x, g) => (x.outcome ? (norm[g] as number[]).reduce((a, v, k) => a + v * (P[k] as number), 0) : 0));
        const byCost = [...wins].sort((a, b) => (stats[a]?.costUSD as number) - (stats[b]?.costUSD as number));
        const cheap = byCost[0] as number, dear = byCost[byCost.length - 1] as number;
        expect(facts.successes).toBe(wins.length);
        expect(facts.cheapestCost).toBe(stats[cheap]?.costUSD);
        expect(facts.dearestCost).toBe(stats[dear]?.costUSD);
        expect(facts.cheapestR).toBeCloseTo(R[cheap] as number, 10);
        expect(facts.dearestR).toBeCloseTo(R[dear] as number, 10);
        expect(facts.cheapestR).not.toBeCloseTo(facts.dearestR as number, 6); // a group where the two differ
        checked = true;
      }
      while (await runNextPhase(s));
      t.finish(s);
    }
    expect(checked).toBe(true);
    t.dispose();
  });

  it('its advantage table is (R − mean)/(sample std + 1e-6), worked out here', async () => {
    const t = new GrpoTrainer(catalog, { ...cfg, advantage: { normalizeStd: true, clip: null, filterStd: null } }, pool);
    // Iterations until one has a group with both successes and failures (observing follows such a group).
    let s = t.begin({ observe: true });
    let R: number[] = [];
    for (let it = 0; it < 20; it++) {
      for (let k = 0; k < 6; k++) await runNextPhase(s);
      R = s.rewards[s.shown] as number[];
      if ((s.stats[s.shown] ?? []).some((st) => st.outcome) && (s.stats[s.shown] ?? []).some((st) => !st.outcome)) break;
      while (await runNextPhase(s));
      t.finish(s);
      s = t.begin({ observe: true });
    }
    const mean = R.reduce((x, y) => x + y, 0) / R.length;
    const sd = Math.sqrt(R.reduce((x, y) => x + (y - mean) ** 2, 0) / (R.length - 1));
    expect(sd).toBeGreaterThan(0); // a group whose rewards differ, so the check below divides by a real std
    expect((s.stats[s.shown] ?? []).some((st) => !st.outcome)).toBe(true); // and has a failure for the gate check
    const table = phaseReport(s).tables[0]!;
    table.rows.forEach((row, g) => expect(Number(row[4])).toBeCloseTo((R[g]! - mean) / (sd + 1e-6), 2));
    // The gate: a failed trajectory's R is exactly 0.
    (s.stats[s.shown] ?? []).forEach((st, g) => { if (!st.outcome) expect(R[g]).toBe(0); });
    while (await runNextPhase(s));
    t.finish(s);
    t.dispose();
  });

  it('the update moves probability towards A > 0: Σ A·Δ ln π(taken) over the shown group is positive', async () => {
    // One group, one epoch, a small step: the update then ascends exactly this group's Σ A·ln π (to first order).
    const t = new GrpoTrainer(catalog, { ...cfg, batchTasks: 1, groupSize: 8, epochs: 1, learningRate: 1e-3, entropyCoef: 0 }, pool);
    let checked = 0;
    for (let it = 0; it < 12 && checked < 3; it++) {
      const s = t.begin({ observe: true });
      while (await runNextPhase(s));
      const p = s.probs!, A = slotsOf(catalog).length + 1;
      let score = 0;
      p.rows.forEach((row, i) => {
        const a = s.host.buf.actions[row]!;
        score += s.adv[row % s.host.buf.slots]! * (Math.log(p.after![i * A + a]!) - Math.log(p.before[i * A + a]!));
      });
      if (s.advantages[0]!.std > 0) { expect(score).toBeGreaterThan(0); checked++; }
      t.finish(s);
    }
    expect(checked).toBeGreaterThan(0);
    t.dispose();
  });

  it('an iteration abandoned before its update leaves the weights and the counter as they were', async () => {
    const t = new GrpoTrainer(catalog, cfg, pool);
    const before = await weights(t);
    const s = t.begin({ keepStart: true });
    for (let k = 0; k < 6; k++) await runNextPhase(s);
    t.abandon(s);
    expect(t.iteration).toBe(0);
    expect(await weights(t)).toEqual(before);
    t.dispose();
  });
});
