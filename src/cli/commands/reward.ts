// `reward --input group.json`: scores trajectories logged from any orchestrator with the paper's
// reward and group advantage. Input: {"tools": [ids…], "preference": {...}, "mode": "toolorchestra",
// "trajectories": [{"calls": {"<id>": n}, "outcome": 0|1, "costUSD": x, "latencyS": y}…]}
// (optional: "tokens" per trajectory for the weighted mode, "weighted": coefficients,
// "advantage": {"normalizeStd", "clip", "filterStd"}; default plain (R − mean)/(std + 1e-6)).
// Prints {"rewards": […], "advantages": […]}.

import { z } from 'zod';
import { groupAdvantages } from '../../core/grpo/advantage';
import { DEFAULT_WEIGHTED, groupRewards } from '../../core/grpo/reward';
import { REWARD_MODES } from '../../core/grpo/rewardModes';
import { checkKnown, CliError, stringOpt, type Args } from '../args';
import { ownGet, reservedNameError } from '../../core/names';
import { readJson } from '../io';

const weight = z.number().min(0, { error: 'must be in [0, 1]' }).max(1, { error: 'must be in [0, 1]' });
const nonNeg = z.number().nonnegative({ error: 'must be ≥ 0' });
/** A trajectory's measurement, bounded so that rewards and their group statistics (squares) stay finite. */
const measured = (max: number, unit: string) => nonNeg.max(max, { error: `must be at most ${max.toExponential(0)} ${unit}` });
/** A coefficient of the weighted reward: bounded, so that a reward of a bounded trajectory stays a finite number (1e308 once printed null). */
const coefficient = z.number().min(-1e6, { error: 'must be in [−1e6, 1e6]' }).max(1e6, { error: 'must be in [−1e6, 1e6]' });
const inputSchema = z
  .strictObject({
    tools: z.array(z.string().min(1).refine((id) => reservedNameError(id) === null, {
      error: (iss) => reservedNameError(String(iss.input)),
    })).refine((ids) => new Set(ids).size === ids.length, { error: 'tool ids must be unique' }),
    preference: z.record(z.string(), weight),
    mode: z.enum(REWARD_MODES).default('toolorchestra'),
    trajectories: z
      .array(z.strictObject({ calls: z.record(z.string(), z.number().int().nonnegative()),
        outcome: z.union([z.literal(0), z.literal(1)], { error: 'must be 0 (failed) or 1 (solved)' }),
        costUSD: measured(1e6, '$'), latencyS: measured(1e7, 's'), tokens: measured(1e12, 'tokens').optional() }))
      .min(1, { error: 'needs at least one trajectory' }),
    weighted: z.strictObject({ wOutcome: coefficient, wEfficiency: coefficient, wPreference: coefficient,
      perCall: coefficient, perToken: coefficient, latencyTargetS: coefficient, fastBonus: coefficient,
      slowBonus: coefficient }).partial().optional(),
    advantage: z.strictObject({ normalizeStd: z.boolean(), clip: z.number().positive().nullable(),
      filterStd: z.number().nonnegative().nullable() }).partial().optional(),
  })
  .superRefine((v, ctx) => {
    const known = new Set([...v.tools, 'outcome', 'cost', 'latency']);
    for (const k of Object.keys(v.preference)) if (!known.has(k)) ctx.addIssue({ code: 'custom',
      path: ['preference', k], message: `"${k}" is neither outcome, cost, latency nor one of "tools"` });
    v.trajectories.forEach((t, i) => {
      for (const k of Object.keys(t.calls)) if (!v.tools.includes(k)) ctx.addIssue({ code: 'custom',
        path: ['trajectories', i, 'calls', k], message: `tool "${k}" is not in "tools"` });
    });
  });

/** Validates a reward input; on failure the message names the first wrong field and what it accepts. */
export function parseRewardInput(value: unknown): { ok: true; value: z.infer<typeof inputSchema> } | { ok: false; error: string } {
  const parsed = inputSchema.safeParse(value);
  if (parsed.success) return { ok: true, value: parsed.data };
  const iss = parsed.error.issues[0];
  const where = iss?.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '') || '(input)';
  return { ok: false, error: `invalid reward input: ${where}: ${iss?.message ?? 'invalid'}` };
}

export function rewardCommand(a: Args): void {
  checkKnown(a, ['input', 'json']); // --json is accepted: the output is JSON either way
  const path = stringOpt(a, 'input');
  const parsed = parseRewardInput(readJson(path, 'reward input'));
  if (!parsed.ok) throw new CliError(`${path}: ${parsed.error}`);
  const v = parsed.value;
  const weightOf = (id: string) => ownGet(v.preference, id) ?? 0; // own keys only: never an inherited "constructor"
  const pref = [...v.tools.map(weightOf), weightOf('outcome'), weightOf('cost'), weightOf('latency')];
  const group = v.trajectories.map((t) => ({
    calls: v.tools.map((id) => ownGet(t.calls, id) ?? 0),
    outcome: t.outcome, costUSD: t.costUSD, latencyS: t.latencyS, tokens: t.tokens ?? 0,
  }));
  const r = groupRewards(v.mode, group, pref, { ...DEFAULT_WEIGHTED, ...v.weighted });
  if (!r.rewards.every(Number.isFinite)) throw new CliError(`${path}: the rewards are not all finite numbers ` +
    `(${JSON.stringify(r.rewards.map(String))}): costs, latencies or coefficients too large`);
  const adv = groupAdvantages(r.rewards, { normalizeStd: true, clip: null, filterStd: null, ...v.advantage });
  process.stdout.write(JSON.stringify({ rewards: r.rewards, advantages: adv.advantages, filtered: adv.filtered }) + '\n');
}
