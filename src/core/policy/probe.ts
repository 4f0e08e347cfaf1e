// A fixed batch of synthetic states (seeded) and the policy's action probabilities on it: the
// fingerprint used to check that a policy survives export → import, a backend switch, or the
// trip between the browser and Node.

import * as tf from '@tensorflow/tfjs-core';
import { SeqRng } from '../sim/rng';
import { STATE_DIM, TOOL_DIM } from './features';
import type { PolicyNetwork } from './network';
import { packPairs, policyInput } from './pairs';

export const PROBE_STATES = 16;

export async function probeProbabilities(net: PolicyNetwork, nTools: number): Promise<number[]> {
  const r = new SeqRng(8);
  const rand = (n: number) => Float32Array.from({ length: n }, () => r.next() * 2 - 1);
  const n = PROBE_STATES;
  const pairs = packPairs({ state: rand(n * STATE_DIM), tools: rand(n * nTools * TOOL_DIM), bias: new Float32Array(n * (nTools + 1)) }, nTools, null);
  const p = tf.tidy(() => tf.softmax(net.logits(policyInput(pairs))));
  const d = await p.data();
  p.dispose();
  return Array.from(d);
}

/** Null when the policy gives finite probabilities on the probe batch, else what went wrong (checked before a policy replaces another). */
export async function probeFinite(net: PolicyNetwork, nTools: number): Promise<string | null> {
  const p = await probeProbabilities(net, nTools);
  const bad = p.findIndex((x) => !Number.isFinite(x));
  return bad < 0 ? null : `its action probabilities on the probe batch are not finite (${p[bad]} at ${bad})`;
}
