// The settings of a `train` run: the command-line options that set them, with their bounds, and
// the check of a run read back for `--resume` against the same bounds. A hand-edited
// orchestrator.json cannot train what the command line would refuse, and the refusal names the
// field; a resumed run keeps its settings, so options that would change them are refused too.

import { DEFAULT_TRAIN, isIterationCount, MAX_ITERATIONS, MIN_LEARNING_RATE, type TrainConfig } from '../core/grpo/config';
import { REWARD_MODES } from '../core/grpo/rewardModes';
import { storedPreferenceError } from '../core/preference';
import type { Catalog } from '../core/sim/catalog';
import { CliError, intOpt, numberOpt, type Args } from './args';

export { MAX_ITERATIONS };

/** A numeric setting: its option, its place in TrainConfig, its bounds. */
interface Bounded { option: string; path: readonly string[]; min: number; max: number; integer: boolean; why?: string }

const BOUNDED: readonly Bounded[] = [
  { option: 'seed', path: ['seed'], min: 0, max: 2 ** 31, integer: true },
  { option: 'batch', path: ['batchTasks'], min: 1, max: 1024, integer: true },
  { option: 'group', path: ['groupSize'], min: 1, max: 64, integer: true },
  { option: 'lr', path: ['learningRate'], min: MIN_LEARNING_RATE, max: 1, integer: false, why: 'below it (0, or a rate ' +
    'so small it underflows to 0) an Adam step would change no weight, and the run would train nothing' },
  { option: 'epochs', path: ['epochs'], min: 1, max: 32, integer: true },
  { option: 'beta', path: ['beta'], min: 0, max: 10, integer: false },
  { option: 'entropy', path: ['entropyCoef'], min: 0, max: 10, integer: false },
  { option: 'width', path: ['policy', 'width'], min: 1, max: 1024, integer: true },
  { option: 'depth', path: ['policy', 'depth'], min: 1, max: 16, integer: true },
  { option: 'max-turns', path: ['sim', 'maxTurns'], min: 2, max: 100, integer: true },
  { option: 'pool', path: ['poolSize'], min: 1, max: 1_000_000, integer: true },
];

/** Options that set a run's configuration (a resumed run keeps its own). */
export const RUN_SETTING_OPTIONS = [...BOUNDED.map((b) => b.option), 'catalog', 'preference', 'random-preferences',
  'reward', 'aggregation', 'advantage', 'dual-clip', 'init', 'lr-decay'];

const get = (o: unknown, path: readonly string[]): unknown => path.reduce<unknown>((x, k) => (x !== null
  && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);

/** The bounded numbers given on the command line, over `base` (an option not given keeps base's value). */
export function boundedFromArgs(a: Args, base: TrainConfig): TrainConfig {
  const out = structuredClone(base);
  for (const b of BOUNDED) {
    const fallback = get(base, b.path) as number;
    let v: number;
    try {
      v = b.integer ? intOpt(a, b.option, fallback, b.min, b.max) : numberOpt(a, b.option, fallback, b.min, b.max);
    } catch (e) {
      throw e instanceof CliError && b.why ? new CliError(`${e.message}: ${b.why}`) : e;
    }
    const parent = get(out, b.path.slice(0, -1)) as Record<string, number>;
    parent[b.path[b.path.length - 1] as string] = v;
  }
  out.policy.seed = out.seed;
  return out;
}

/** Refuses run-setting options next to --resume (the run keeps the settings it was started with). */
export function refuseSettingsOnResume(a: Args, dir: string): void {
  const given = RUN_SETTING_OPTIONS.filter((o) => a.options.has(o) || a.flags.has(o));
  if (given.length) {
    throw new CliError(`--resume keeps the settings the run was started with (in ${dir}/orchestrator.json); ` +
      `leave out ${given.map((o) => `--${o}`).join(', ')}, or start a new run from it: --init ${dir}/orchestrator.json`);
  }
}

/** Fields that every run this CLI wrote holds. */
const REQUIRED = ['seed', 'batchTasks', 'groupSize', 'learningRate', 'policy', 'sim', 'poolSize', 'reward', 'preferenceMode'] as const;

/** Numbers that may also be null (off). */
const NULLABLE = new Set(['advantage.clip', 'advantage.filterStd']);
/** Fields whose content the shape check leaves to their own checks (below; the two default to null). */
const OWN_CHECK = new Set(['preference', 'lrDecay', 'dualClip']);

/** Where `v` does not have the shape of `def` (the default's type, numbers finite), or null. */
function shapeError(def: unknown, v: unknown, name: string): string | null {
  if (OWN_CHECK.has(name) || (v === null && NULLABLE.has(name))) return null;
  if (typeof def === 'number') return typeof v === 'number' && Number.isFinite(v) ? null : `"${name}" must be a finite number (got ${JSON.stringify(v)})`;
  if (def === null || typeof def !== 'object') return def === null || typeof v === typeof def ? null : `"${name}" ` +
    `must be a ${typeof def} (got ${JSON.stringify(v)})`;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return `"${name}" must be an object (got ${JSON.stringify(v)})`;
  for (const [k, d] of Object.entries(def)) {
    const e = shapeError(d, (v as Record<string, unknown>)[k], `${name}.${k}`);
    if (e) return e;
  }
  return null;
}

/**
 * The stored training settings of a run (with the defaults filled in for fields an older run did
 * not write), or why they are not settings this CLI could have started: every field of the
 * default's type, the command line's bounds, the modes it knows, a valid P over the run's catalog,
 * and a whole number of iterations.
 */
export function storedTrainConfig(stored: Record<string, unknown>, catalog: Catalog):
  { config: TrainConfig; done: number; preferencePart: number | null; checkpointEvery: number | null } | { error: string } {
  const s = stored as Partial<TrainConfig> & { iterations?: unknown; backend?: unknown; preferencePart?: unknown;
    checkpointEvery?: unknown };
  // Fields every version of the CLI wrote: one missing is a damaged file, not an old one (a default would silently change the run).
  const missing = REQUIRED.find((k) => s[k] === undefined);
  if (missing) return { error: `"${missing}" is missing` };
  const merged: Record<string, unknown> = { ...DEFAULT_TRAIN, ...s };
  for (const k of ['policy', 'sim', 'advantage', 'weighted'] as const) {
    const v = s[k];
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) merged[k] = { ...DEFAULT_TRAIN[k], ...v };
  }
  delete merged.iterations;
  delete merged.backend;
  delete merged.preferencePart;
  delete merged.checkpointEvery;
  const every = s.checkpointEvery;
  if (every !== undefined && !(typeof every === 'number' && Number.isInteger(every) && every >= 1 && every <= 1_000_000)) {
    return { error: `"checkpointEvery" must be an integer in [1, 1000000] (as --checkpoint-every; got ${JSON.stringify(every)})` };
  }
  const part = s.preferencePart;
  if (part !== undefined && (typeof part !== 'number' || !Number.isFinite(part) || part < 0)) return { error: `"preferencePart" ` +
    `must be a number ≥ 0, the weight of the success-first reward's preference part (got ${JSON.stringify(part)})` };
  const done = s.iterations;
  if (typeof done !== 'number' || !Number.isInteger(done) || done < 0) return { error: `"iterations" must be a whole ` +
    `number of iterations done (got ${JSON.stringify(done)})` };
  if (done > MAX_ITERATIONS) {
    const why = `at most ${MAX_ITERATIONS} (the most a run may have; got ${done})`;
    return { error: `"iterations" must be a whole number of iterations done, ${why}` };
  }
  for (const [k, d] of Object.entries(DEFAULT_TRAIN)) {
    const e = shapeError(d, merged[k], k);
    if (e) return { error: e };
  }
  for (const b of BOUNDED) {
    const v = get(merged, b.path) as number, name = b.path.join('.');
    if (v < b.min || v > b.max || (b.integer && !Number.isInteger(v))) return { error: `"${name}" must be ` +
      `${b.integer ? 'an integer' : 'a number'} in [${b.min}, ${b.max}] (as --${b.option}; got ${v})${b.why ? `: ${b.why}` : ''}` };
  }
  const c = merged as unknown as TrainConfig;
  if (!(REWARD_MODES as readonly string[]).includes(c.reward)) return { error: `"reward" must be one of ` +
    `${REWARD_MODES.join(', ')} (got ${JSON.stringify(c.reward)})` };
  if (c.aggregation !== 'token-mean' && c.aggregation !== 'seq-mean-token-mean') return { error: `"aggregation" must ` +
    `be token-mean or seq-mean-token-mean (got ${JSON.stringify(c.aggregation)})` };
  if (c.preferenceMode !== 'fixed' && c.preferenceMode !== 'random') return { error: `"preferenceMode" must be fixed ` +
    `or random (got ${JSON.stringify(c.preferenceMode)})` };
  const badPref = storedPreferenceError(c.preference);
  if (badPref) return { error: `"preference": ${badPref}` };
  const unknownTool = Object.keys(c.preference.tools).find((id) => !catalog.tools.some((t) => t.id === id));
  if (unknownTool) return { error: `"preference" weighs "${unknownTool}", which is not a tool of the run's catalog` };
  if (c.dualClip !== null && !(typeof c.dualClip === 'number' && c.dualClip > 1
    && c.dualClip <= 1000)) return { error: `"dualClip" must be null or a number in (1, 1000] (as --dual-clip; got ` +
      `${JSON.stringify(c.dualClip)})` };
  const d = c.lrDecay as { start?: unknown; end?: unknown } | null;
  const [start, end] = [d?.start, d?.end];
  if (d !== null && !(isIterationCount(start) && isIterationCount(end) && start < end)) {
    const got = JSON.stringify(d);
    return { error: `its learning-rate schedule must run from an iteration to a later one, at most ${MAX_ITERATIONS} `
      + `(got ${got})` };
  }
  if (!(c.epsLow >= 0 && c.epsLow < 1 && c.epsHigh >= 0 && c.maxGradNorm > 0 && c.availability > 0 && c.availability <= 1)) {
    return { error: `"epsLow" must be in [0, 1), "epsHigh" ≥ 0, "maxGradNorm" > 0 and "availability" in (0, 1] ` +
      `(got ${c.epsLow}, ${c.epsHigh}, ${c.maxGradNorm}, ${c.availability})` };
  }
  const negative = Object.entries({ ...c.sim,
    ...Object.fromEntries(Object.entries(c.sim.spread).map(([k, v]) => [`spread.${k}`, v])) }).find(([, v]) => typeof v === 'number' && v < 0);
  if (negative) return { error: `"sim.${negative[0]}" must be ≥ 0 (got ${negative[1] as number})` };
  const a = c.advantage;
  if (a.clip !== null && !(a.clip > 0)) return { error: `"advantage.clip" must be null (off) or > 0 (got ${a.clip})` };
  if (a.filterStd !== null && !(a.filterStd >= 0)) return { error: `"advantage.filterStd" must be null (off) or ≥ 0 (got ${a.filterStd})` };
  const wild = Object.entries(c.weighted).find(([, v]) => Math.abs(v) > 1e6);
  if (wild) return { error: `"weighted.${wild[0]}" must be in [−1e6, 1e6] (got ${wild[1]})` };
  return { config: c, done, preferencePart: typeof part === 'number' ? part : null,
    checkpointEvery: typeof every === 'number' ? every : null };
}
