import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { exportArtifact, importArtifact } from '../src/core/io/artifact';
import { STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { PolicyNetwork } from '../src/core/policy/network';
import { presetCatalog } from '../src/core/sim/presets';
import { SeqRng } from '../src/core/sim/rng';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });
const catalog = presetCatalog('toolorchestra');
const J = catalog.tools.length;

/** Action probabilities of a network on a fixed batch of 16 random states. */
async function probs(net: PolicyNetwork): Promise<Float32Array> {
  const r = new SeqRng(8);
  const rand = (n: number) => Float32Array.from({ length: n }, () => r.next() * 2 - 1);
  const p = tf.tidy(() => tf.softmax(net.logits(tf.tensor2d(rand(16 * STATE_DIM), [16, STATE_DIM]), tf.tensor3d(rand(16 * J * TOOL_DIM), [16, J, TOOL_DIM]), tf.zeros([16, J + 1]))));
  const d = (await p.data()) as Float32Array;
  p.dispose();
  return d;
}

describe('orchestrator artifacts', () => {
  it('round-trip: the imported policy gives the same action probabilities', async () => {
    const net = new PolicyNetwork({ width: 16, depth: 2, seed: 11 });
    const { json, weights } = await exportArtifact(net, catalog, { training: { note: 'test' } });
    expect(json.weightsManifest[0]?.paths).toEqual(['orchestrator.weights.bin']);
    expect(json.userDefinedMetadata.catalog.name).toBe('toolorchestra');
    const loaded = importArtifact(JSON.parse(JSON.stringify(json)), weights);
    if (!loaded.ok) throw new Error(loaded.error);
    expect(Array.from(await probs(loaded.net))).toEqual(Array.from(await probs(net)));
    loaded.net.dispose();
    net.dispose();
  });

  it('refuses corrupt or mismatched files with a message, creating nothing', async () => {
    const net = new PolicyNetwork({ width: 8, depth: 1, seed: 2 });
    const { json, weights } = await exportArtifact(net, catalog);
    net.dispose();
    const before = tf.memory().numTensors;
    const nan = weights.slice();
    new DataView(nan.buffer).setFloat32(8, Number.NaN, true);
    const cases: [unknown, Uint8Array, RegExp][] = [
      [json, weights.slice(0, weights.length - 4), /has \d+ bytes, the manifest needs \d+/],
      [{ ...json, format: 'layers-model' }, weights, /not an Orchestra Lab policy/],
      [{ ...json, userDefinedMetadata: { ...json.userDefinedMetadata, policy: { width: 9, depth: 1, seed: 2 } } }, weights, /bytes, the manifest needs|expected float32/],
      [{ ...json, userDefinedMetadata: { ...json.userDefinedMetadata, catalog: { name: 'x' } } }, weights, /invalid catalog/],
      [json, nan, /non-finite value/],
      ['not an object', weights, /not a JSON object/],
    ];
    for (const [j, w, msg] of cases) {
      const r = importArtifact(j, w);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(msg);
    }
    expect(tf.memory().numTensors).toBe(before);
  });
});
