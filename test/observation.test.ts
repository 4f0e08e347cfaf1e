// What the orchestrator may know: two worlds with the same public record and history but different
// hidden truth give the policy identical features and the rules identical decisions; the belief read
// from a call's confidence is Bayes' rule, worked by hand; a model's descriptor is not its skill.

import { describe, expect, it } from 'vitest';
import { CONFIDENCE_BIAS, DEFAULT_SIM, sigmoid } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { MAX_STEPS } from '../src/core/sim/episode';
import { describe as describeModel, DESCRIBED_TASKS } from '../src/core/sim/descriptors';
import { findPosterior } from '../src/core/sim/observation';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';
import { catalogScales, encodeFeatures, STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { greedyPolicy } from '../src/core/eval/greedyRule';
import { counterUniform } from '../src/core/sim/rng';
import type { Catalog } from '../src/core/sim/catalog';

const catalog = presetCatalog('toolorchestra');
const { tasks } = generateTasks(catalog, { seed: 5, count: 24, availability: 1 });
const keys = tasks.map((_, i) => 1000 + i);

/** An env stepped through `turns` turns with actions drawn uniformly from the allowed ones (the same in every env). */
function played(turns: number): BatchEnv {
  const env = new BatchEnv(catalog, DEFAULT_SIM, tasks.length);
  env.reset(tasks, keys);
  const mask = new Uint8Array(env.capacity * env.nActions), acts = new Int32Array(env.capacity);
  for (let t = 0; t < turns && !env.allDone(); t++) {
    env.writeMask(mask);
    for (let i = 0; i < env.size; i++) {
      const ok = [...Array(env.nActions).keys()].filter((a) => mask[i * env.nActions + a]);
      acts[i] = ok[Math.floor(counterUniform(7, t, i, 0, 0) * ok.length)] ?? env.submitAction;
    }
    env.step(acts);
  }
  return env;
}

/** Every finite number in `xs` replaced by another (NaN and ±∞ kept: they say what exists, which is public). */
function scramble(xs: Float32Array | Float64Array | Int32Array | Uint8Array, salt: number): void {
  for (let n = 0; n < xs.length; n++) {
    const v = xs[n] as number;
    if (!Number.isFinite(v)) continue;
    xs[n] = xs instanceof Uint8Array ? 1 - Math.min(1, v) : xs instanceof Int32Array ? v + 1 + (n % 3) : v + 3 * counterUniform(salt, n, 0, 0, 1) - 1.5;
  }
}

function features(env: BatchEnv): { state: Float32Array; tools: Float32Array } {
  const P = env.nTools + 3, prefs = new Float32Array(env.capacity * P);
  for (let i = 0; i < env.capacity; i++) { prefs[i * P + env.nTools] = 1; prefs[i * P + env.nTools + 1] = 0.5; prefs[i * P + env.nTools + 2] = 0.5; }
  const state = new Float32Array(env.capacity * STATE_DIM), tools = new Float32Array(env.capacity * env.nSlots * TOOL_DIM);
  const mask = new Uint8Array(env.capacity * env.nActions);
  env.writeMask(mask);
  encodeFeatures(env, catalogScales(env.catalog, env.slots), prefs, state, tools, mask);
  return { state, tools };
}

/** The greedy rule's decisions at three λ. */
async function decisions(env: BatchEnv): Promise<number[]> {
  const out: number[] = [];
  for (const lambda of [0.001, 0.02, 0.3]) {
    const mask = new Uint8Array(env.capacity * env.nActions), acts = new Int32Array(env.capacity);
    env.writeMask(mask);
    await greedyPolicy(catalog, lambda).act(env, mask, acts);
    out.push(...acts.slice(0, env.size));
  }
  return out;
}

describe('the observation', () => {
  it('two worlds with the same public record and history, and different hidden truth, give identical features and decisions', async () => {
    const a = played(5), b = played(5);
    expect(features(b)).toEqual(features(a)); // the same world, the same play
    // The truth only the world knows: item difficulties and logits, real finds and evidence, which steps
    // need a tool, which committed steps came out right, and the models' true skills.
    for (const [n, x] of [b.difficulty, b.needsTool, b.selfItem, b.answerItem, b.hitItem, b.writeItem, b.selfWriteItem,
      b.evidence, b.hits, b.stepCorrect].entries()) scramble(x, n);
    const other: Catalog = structuredClone(catalog);
    for (const t of other.tools) {
      if (t.kind === 'basic') continue;
      for (const k of Object.keys(t.skill) as (keyof typeof t.skill)[]) t.skill[k] = (t.skill[k] as number) + 2;
      for (const r of Object.keys(t.writes ?? {}) as ('query' | 'code')[]) if (t.writes) t.writes[r] = (t.writes[r] as number) - 1;
    }
    Object.defineProperty(b, 'catalog', { value: other });
    const fa = features(a), fb = features(b);
    expect(fb.state).toEqual(fa.state);
    expect(fb.tools).toEqual(fa.tools);
    expect(await decisions(b)).toEqual(await decisions(a));
    // And a change in what it does observe shows: another hint moves the features.
    const live = [...Array(b.size).keys()].find((i) => !b.done[i]) as number;
    const idx = live * MAX_STEPS + (b.unitRange(live)[0] as number);
    b.hint[idx] = (b.hint[idx] as number) + 1;
    expect(features(b).state).not.toEqual(fa.state);
  });

  it('reads a call\'s confidence by Bayes\' rule over the signal\'s two distributions (worked by hand)', () => {
    // k(auroc) = 1.5·Φ⁻¹(auroc)/√2; at auroc = Φ(1/√2) = 0.760250, k = 0.75 = noise/2.
    const auroc = 0.7602499389065233;
    // A signal at the right answers' centre: x = logit(s) − bias = k. Likelihoods: 1 and exp(−½(2k/1.5)²) = e^−½.
    const s = sigmoid(CONFIDENCE_BIAS + 0.75);
    expect(findPosterior(0.5, s, auroc)).toBeCloseTo(1 / (1 + Math.exp(-0.5)), 6);
    expect(findPosterior(0.2, s, auroc)).toBeCloseTo(0.2 / (0.2 + 0.8 * Math.exp(-0.5)), 6);
    // Halfway between the centres the signal says nothing; a signal with no skill (auroc 0.5) never does.
    expect(findPosterior(0.3, sigmoid(CONFIDENCE_BIAS), auroc)).toBeCloseTo(0.3, 9);
    expect(findPosterior(0.3, 0.99, 0.5)).toBeCloseTo(0.3, 9);
    expect(findPosterior(0.3, 0.99, auroc)).toBeGreaterThan(findPosterior(0.3, 0.5, auroc));
  });

  it('describes a model from its attempts: not its skill, the same every time; a basic tool as it is', () => {
    const gpt5 = catalog.tools.find((t) => t.id === 'gpt-5');
    const search = catalog.tools.find((t) => t.kind === 'basic');
    if (!gpt5 || !search) throw new Error('catalog');
    expect(describeModel(gpt5, DEFAULT_SIM)).toEqual(describeModel(gpt5, DEFAULT_SIM));
    expect(describeModel(search, DEFAULT_SIM).skill).toEqual(search.skill);
    const gaps = catalog.tools.filter((t) => t.kind !== 'basic').flatMap((t) => {
      const d = describeModel(t, DEFAULT_SIM);
      return Object.entries(t.skill).map(([k, v]) => (d.skill[k as keyof typeof d.skill] as number) - (v as number));
    });
    expect(gaps.every(Number.isFinite)).toBe(true);
    expect(gaps.filter((g) => Math.abs(g) > 0.05).length).toBeGreaterThan(gaps.length / 2); // a description is not the skill
    expect(DESCRIBED_TASKS).toBe(10);
  });
});
