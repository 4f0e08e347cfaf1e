// The trade-off view's numbers, measured in the worker on the held-out tasks: the baselines (their
// points, frontiers along each x-axis, the cascade, the cost range AIQ is taken over and the
// references of the routing metrics), computed once per task set, and the policy at the sliders'
// P — with, when asked, the whole preference sweep — in one batched evaluation.

import { evaluateReplicas, type EvalResult } from '../core/eval/evaluate';
import { aiq, frontierAlong, routingMetrics, type TradeoffPoint as CostPoint } from '../core/eval/frontier';
import { apiShare } from '../core/eval/preferenceFollowing';
import { PREFERENCE_SWEEP, preferenceLabel, sweepBaselines } from '../core/eval/sweep';
import { learnedPolicy } from '../core/policy/act';
import type { PolicyNetwork } from '../core/policy/network';
import type { Preference } from '../core/preference';
import type { Task } from '../core/sim/tasks';
import type { LabSettings, Tradeoff, TradeoffAxis, TradeoffPoint } from './protocol';

export interface BaselineView { points: TradeoffPoint[]; frontiers: Tradeoff['frontiers']; cascade: TradeoffPoint[];
  range: [number, number]; references: { weak: CostPoint; strong: CostPoint } | null }

const point = (r: EvalResult, family: string, label = r.policy): TradeoffPoint => ({ label, family, cost: r.meanCostUSD,
  accuracy: r.accuracy, latencyS: r.meanLatencyS, apiShare: apiShare(r) });

/** Every baseline family on the held-out tasks, with the frontiers and the cost range of AIQ. */
export async function baselineView(evalTasks: Task[], s: LabSettings): Promise<BaselineView> {
  const { families, cMin, cMax, references } = await sweepBaselines(evalTasks, s.catalog, s.train.sim, s.train.seed);
  const points = families.flatMap((f) => f.results.map((r) => point(r, f.family)));
  const real = points.filter((p) => p.family !== 'hindsight');
  const along = (axis: TradeoffAxis) => frontierAlong(real, (p) => p[axis]);
  return { points, frontiers: { cost: along('cost'), latencyS: along('latencyS'), apiShare: along('apiShare') },
    cascade: points.filter((p) => p.family === 'cascade'), range: [cMin, cMax], references };
}

/** The policy at P (and, with `sweep` or no previous view, over the whole preference sweep) next to the baselines. */
export async function tradeoffAt(net: PolicyNetwork, s: LabSettings, evalTasks: Task[], base: BaselineView,
  at: { preference: Preference; sweep: boolean; previous: Tradeoff | null; iteration: number }): Promise<Tradeoff> {
  const { preference, sweep, previous } = at;
  // The sliders' P and (with `sweep`) every P of the sweep, side by side in one batched env.
  const prefs = sweep || !previous ? [preference, ...PREFERENCE_SWEEP] : [preference];
  const names = ['you are here', ...PREFERENCE_SWEEP.map(preferenceLabel)];
  const results = await evaluateReplicas(learnedPolicy(net, s.catalog, prefs, 'orchestrator', evalTasks.length),
    evalTasks, prefs.length, s.catalog, s.train.sim, s.train.seed + 1000, names, { failuresOfFirst: true });
  const first = results[0] as EvalResult;
  const current = { ...point(first, 'orchestrator'), calls: first.callsPerTask, ...(first.failures ? { failures: first.failures } : {}),
    ...(first.roles ? { roles: first.roles } : {}) };
  const sweepPoints = prefs.length > 1 ? results.slice(1).map((r) => point(r, 'orchestrator')) : (previous?.sweep ?? []);
  const [lo, hi] = base.range;
  const asPts = (xs: TradeoffPoint[]) => xs.map((x) => ({ cost: x.cost, accuracy: x.accuracy }));
  const ref = base.references;
  return {
    baselines: base.points,
    frontiers: base.frontiers,
    sweep: sweepPoints,
    current,
    aiq: { orchestrator: aiq(asPts([...sweepPoints, current]), lo, hi), cascade: aiq(asPts(base.cascade), lo, hi), range: base.range },
    routing: ref && { ...routingMetrics(asPts([...sweepPoints, current]), ref.weak, ref.strong), weak: ref.weak.label ?? '',
      strong: ref.strong.label ?? '' },
    iteration: at.iteration,
    preference,
    evalTasks: evalTasks.length,
    evalSuite: s.evalSuite,
  };
}
