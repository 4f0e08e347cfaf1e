// One decision for every slot of the batched env: encode features, one batched forward, ONE small
// readback of the live slots' logits, and Gumbel-max sampling on the CPU with the seeded
// uniforms (greedy without): a 13-wide argmax and log-sum-exp per slot cost less there than the
// dozen device kernels they were (finished episodes are left out of the forward).
// Used by the trainer's rollouts and by evaluation.

import * as tf from '@tensorflow/tfjs-core';
import type { Catalog } from '../sim/catalog';
import { slotsOf } from '../sim/slots';
import type { BatchEnv } from '../sim/env';
import type { SeqRng } from '../sim/rng';
import type { BatchPolicy } from '../eval/policy';
import { preferenceVector, type Preference } from '../preference';
import { catalogScales, encodeFeatures, maskBias, STATE_DIM, TOOL_DIM, type CatalogScales } from './features';
import { PAIR_BUCKET_ROWS, packPairs, policyInput } from './pairs';
import type { PolicyNetwork } from './network';
import { bucketSize } from './buckets';

/** Input buffers of one turn (views into the trainer's history, or the evaluator's own). */
export interface TurnBuffers {
  state: Float32Array;
  tools: Float32Array;
  bias: Float32Array;
}

/** Buffers for one turn of `capacity` decisions over `nSlots` scored actions (+ submit). */
export function allocTurnBuffers(capacity: number, nSlots: number): TurnBuffers {
  return {
    state: new Float32Array(capacity * STATE_DIM),
    tools: new Float32Array(capacity * nSlots * TOOL_DIM),
    bias: new Float32Array(capacity * (nSlots + 1)),
  };
}

/**
 * Fills `gumbel` with −ln(−ln u), u uniform from `rng`; with `live` (and the row width), only the rows
 * of live slots. With `live.mask`, a masked action still takes its u (the stream, and so every later
 * draw, stays the same) but gets noise 0 without the two logarithms: its logit is −1e9, so no noise
 * could make it win.
 */
export function fillGumbel(rng: SeqRng, gumbel: Float32Array, live?: { valid: Uint8Array; width: number; mask?: Uint8Array }): void {
  const draw = () => -Math.log(-Math.log(Math.min(1 - 1e-7, Math.max(1e-7, rng.next()))));
  if (!live) {
    for (let i = 0; i < gumbel.length; i++) gumbel[i] = draw();
    return;
  }
  const W = live.width, mask = live.mask;
  for (let n = 0; n < live.valid.length; n++) {
    if (!live.valid[n]) continue;
    for (let c = n * W; c < (n + 1) * W; c++) {
      if (mask && !mask[c]) { rng.next(); gumbel[c] = 0; } else gumbel[c] = draw();
    }
  }
}

/** Rows per bucket step of a turn's forward: only the live slots are computed, padded to a multiple of this. */
export const LIVE_BUCKET_ROWS = 16;

/**
 * Decides for all env.capacity slots. `gumbel` null = greedy (argmax). Writes actions into `out`
 * and, if given, their log-probabilities into `logp` (finished slots: submit, log π = 0). The forward runs
 * on the live slots only, gathered into a bucket of LIVE_BUCKET_ROWS-multiple rows.
 */
export async function decide(
  net: PolicyNetwork, env: BatchEnv, scales: CatalogScales, prefs: Float32Array, mask: Uint8Array,
  buf: TurnBuffers, gumbel: Float32Array | null, out: Int32Array, logp?: Float32Array,
): Promise<void> {
  const N = env.capacity, J = env.nSlots, A = env.nActions;
  encodeFeatures(env, scales, prefs, buf.state, buf.tools, mask);
  maskBias(env, mask, buf.bias);
  const live: number[] = [];
  for (let i = 0; i < env.size; i++) if (!env.done[i]) live.push(i);
  const R = Math.min(N, bucketSize(live.length, LIVE_BUCKET_ROWS));
  const rows = R === N && live.length === N ? null : live; // all live: every row as it is
  // Pairs padded to a multiple of min(64, R): a lone decision (evaluation one episode at a time) gets no padding pairs.
  const pairs = packPairs(buf, J, rows, { M: R, pairBucket: Math.min(PAIR_BUCKET_ROWS, R) });
  const out0 = tf.tidy(() => net.logits(policyInput(pairs)));
  const logits = await out0.data();
  out0.dispose();
  out.fill(env.submitAction); // a finished slot's only allowed action, with probability 1 (log π = 0)
  logp?.fill(0);
  for (let r = 0; r < live.length; r++) {
    const i = rows ? (rows[r] as number) : r;
    const { action: a, logp: lp } = sampleRow(logits, r * A, A, gumbel, i * A);
    // A live slot must get an allowed action with a finite log-probability; NaN/∞ logits give neither.
    if (!Number.isFinite(lp) || !mask[i * A + a]) throw new NonFiniteError(`the policy's action probabilities are not finite (slot ${i}: log π = ${lp})`);
    out[i] = a;
    if (logp) logp[i] = lp;
  }
}

/**
 * Gumbel-max over one row of logits (`A` values from `at`): the first action with the largest
 * logit + noise (greedy when `noise` is null), and its log-probability, log-sum-exp in float64. The
 * same draw as argMax(logits + noise) on the device up to float32 rounding of the sum (a near-tie
 * may resolve the other way), with no kernel per step of it.
 */
export function sampleRow(logits: ArrayLike<number>, at: number, A: number, noise: Float32Array | null, noiseAt: number): { action: number; logp: number } {
  let action = 0, best = -Infinity, max = -Infinity;
  for (let c = 0; c < A; c++) {
    const l = logits[at + c] as number;
    const score = noise ? l + (noise[noiseAt + c] as number) : l;
    if (score > best || Number.isNaN(score)) { best = score; action = c; if (Number.isNaN(score)) break; }
    if (l > max) max = l;
  }
  let sum = 0;
  for (let c = 0; c < A; c++) sum += Math.exp((logits[at + c] as number) - max);
  return { action, logp: (logits[at + action] as number) - max - Math.log(sum) };
}

/** The policy produced NaN/±∞ where a probability was needed: training must stop. */
export class NonFiniteError extends Error {}

/**
 * The learned policy as a BatchPolicy for evaluation: greedy (temperature 0, as the paper
 * evaluates). One P for every slot, or a list of P for consecutive blocks of `block` slots
 * (the copies of evaluateReplicas).
 */
export function learnedPolicy(net: PolicyNetwork, catalog: Catalog, preference: Preference | readonly Preference[],
  name = 'orchestrator', block = 1): BatchPolicy {
  const scales = catalogScales(catalog, slotsOf(catalog));
  const list = Array.isArray(preference) ? (preference as readonly Preference[]) : [preference as Preference];
  let buf: TurnBuffers | null = null;
  let prefs: Float32Array | null = null;
  return {
    name,
    async act(env, mask, out) {
      if (!buf || buf.bias.length !== env.capacity * env.nActions) {
        buf = allocTurnBuffers(env.capacity, env.nSlots);
        const P = env.nTools + 3;
        prefs = new Float32Array(env.capacity * P);
        for (let i = 0; i < env.capacity; i++) prefs.set(preferenceVector(list[Math.min(list.length - 1, Math.floor(i / block))] as Preference,
          catalog), i * P);
      }
      await decide(net, env, scales, prefs as Float32Array, mask, buf, null, out);
    },
  };
}
