// What a settings change did, in words for the notice the page shows as it sends the change (a refusal replaces it):
// each setting that changed, from what to what, and when it takes effect. Also the recipe line,
// the main screen's one-line summary of how training runs now. Pure: settings in, text out.

import type { TrainConfig } from '../core/grpo/config';
import { REWARD_MODE_LABELS, type RewardMode } from '../core/grpo/rewardModes';
import type { LabSettings } from '../worker/protocol';

type Flat = Record<string, unknown>;

/** The Settings drawer's names of the settings, by their path in LabSettings (the rest are named by path). */
const LABELS: Record<string, string> = {
  'train.reward': 'reward mode', 'train.learningRate': 'learning rate', 'train.lrDecay': 'learning-rate schedule',
  'train.batchTasks': 'B (tasks per iteration)', 'train.groupSize': 'G (rollouts per task)', 'train.epochs': 'μ (epochs)',
  'train.epsLow': 'ε low', 'train.epsHigh': 'ε high', 'train.beta': 'β (KL)', 'train.entropyCoef': 'entropy coef',
  'train.dualClip': 'dual clip', 'train.maxGradNorm': 'grad-norm clip', 'train.aggregation': 'aggregation',
  'train.advantage.normalizeStd': 'divide by std', 'train.advantage.clip': 'clip |A|',
  'train.advantage.filterStd': 'filter std <', 'train.weighted.wOutcome': 'w outcome',
  'train.weighted.wEfficiency': 'w efficiency', 'train.preferenceMode': 'training P', 'train.seed': 'seed',
  'train.poolSize': 'training pool size', 'train.availability': 'tool availability', 'train.priceSpread': 'price spread',
  'train.turnBudgets': 'turn budgets', 'train.policy.width': 'network width', 'train.policy.depth': 'network depth',
  'train.policy.seed': 'network seed', 'train.sim.maxTurns': 'max turns', delayMs: 'delay between iterations',
  evalTasks: 'held-out tasks', evalSuite: 'held-out suite',
};

/** Settings that only change what is evaluated or how fast: they do not alter training. */
const NOT_TRAINING = new Set(['delayMs', 'evalTasks', 'evalSuite']);
/** Settings that build a new network (its iteration count starts again) or a new training pool. */
const NEW_NETWORK = /^train\.policy\./;
const NEW_POOL = /^train\.(seed|poolSize|availability|priceSpread|turnBudgets)/;

function flatten(x: unknown, path: string, out: Flat): Flat {
  if (x && typeof x === 'object' && !Array.isArray(x) && !(path === 'train.lrDecay' || path === 'train.turnBudgets')) {
    for (const [k, v] of Object.entries(x)) flatten(v, path ? `${path}.${k}` : k, out);
  } else out[path] = x;
  return out;
}

/** A value as the Settings drawer shows it. */
function show(path: string, v: unknown): string {
  if (v === null || v === undefined) return 'off';
  if (typeof v === 'boolean') return v ? 'on' : 'off';
  if (path === 'train.reward') return `"${REWARD_MODE_LABELS[v as RewardMode] ?? String(v)}"`;
  if (path === 'train.lrDecay') { const d = v as { start: number; end: number }; return `to 0 from ${d.start} to ${d.end}`; }
  if (path === 'train.turnBudgets') { const b = v as { min: number; max: number }; return `${b.min}–${b.max}`; }
  if (path === 'delayMs') return `${String(v)} ms`;
  return typeof v === 'number' ? String(+v.toPrecision(6)) : String(v);
}

/** One notice for what changed between the settings the worker ran and the ones it runs now, or null. */
export function describeSettingsChange(before: LabSettings, after: LabSettings, done: number): string | null {
  const a = flatten({ train: before.train, delayMs: before.delayMs, evalTasks: before.evalTasks, evalSuite: before.evalSuite }, '', {});
  const b = flatten({ train: after.train, delayMs: after.delayMs, evalTasks: after.evalTasks, evalSuite: after.evalSuite }, '', {});
  // P has its sliders on screen; the catalog editor speaks for its own edits.
  const paths = Object.keys({ ...a, ...b }).filter((p) => !p.startsWith('train.preference.') && !p.startsWith('train.sim.spread')
    && JSON.stringify(a[p]) !== JSON.stringify(b[p]));
  if (after.catalog !== before.catalog && JSON.stringify(after.catalog) !== JSON.stringify(before.catalog)) paths.push('catalog');
  if (!paths.length) return null;
  const parts = paths.map((p) => (p === 'catalog' ? 'the tool catalog' : `${LABELS[p] ?? p} ${show(p, a[p])} → ${show(p, b[p])}`));
  const when = paths.some((p) => NEW_NETWORK.test(p)) ? 'a new network: the iteration count starts again at 0'
    : paths.every((p) => NOT_TRAINING.has(p)) ? 'the held-out measurement and the run use it now; training is unchanged'
      : `training uses it from the next iteration (${done + 1})${paths.some((p) => NEW_POOL.test(p)) ? ', on a new training pool' : ''}`;
  return `Settings changed: ${parts.join('; ')}. ${when[0]!.toUpperCase()}${when.slice(1)}.`;
}

/** The recipe in one line: reward, advantage, lr and its schedule, B × G, epochs, where P comes from. */
export function recipeLine(t: TrainConfig): string {
  const lr = t.lrDecay ? `lr ${show('', t.learningRate)} → 0 by iteration ${t.lrDecay.end}` : `lr ${show('', t.learningRate)} constant`;
  return [
    `reward ${REWARD_MODE_LABELS[t.reward]}`,
    `advantage ${t.advantage.normalizeStd ? '(R − mean)/std' : 'R − mean'}`,
    lr,
    `B × G = ${t.batchTasks} × ${t.groupSize}`,
    `μ = ${t.epochs}`,
    t.preferenceMode === 'fixed' ? 'P from the sliders' : 'P random per task',
  ].join(' · ');
}
