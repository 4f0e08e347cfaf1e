import { beforeAll, describe, expect, it } from 'vitest';
import type * as TF from '@tensorflow/tfjs-core';
import { exportArtifact, importArtifact } from '../src/core/io/artifact';
import { weightsFingerprint } from '../src/core/io/artifactCheck';
import { probeProbabilities } from '../src/core/policy/probe';
import { PolicyNetwork } from '../src/core/policy/network';
import { presetCatalog } from '../src/core/sim/presets';
import { useCpu } from './tfSetup';

let tf: typeof TF;
beforeAll(async () => { tf = await useCpu(); });
const catalog = presetCatalog('toolorchestra');
const J = catalog.tools.length;

const probs = (net: PolicyNetwork) => probeProbabilities(net, J);

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
    const huge = new Uint8Array(new Float32Array(weights.length / 4).fill(3e38).buffer); // finite, but logits would overflow
    const big = weights.slice();
    new DataView(big.buffer).setFloat32(4 * (32 * 8 + 3), -2e4, true); // float 259: the fourth of scorer/l0/tool, after scorer/l0/state (32×8)
    const cases: [unknown, Uint8Array, RegExp][] = [
      [json, weights.slice(0, weights.length - 4), /has \d+ bytes, the manifest needs \d+/],
      [{ ...json, format: 'layers-model' }, weights, /not an Orchestra Lab policy/],
      [{ ...json, userDefinedMetadata: { ...json.userDefinedMetadata, policy: { width: 9, depth: 1, seed: 2 } } }, weights, /bytes, the manifest needs|expected float32/],
      [{ ...json, userDefinedMetadata: { ...json.userDefinedMetadata, catalog: { name: 'x' } } }, weights, /invalid catalog/],
      [json, nan, /non-finite value/],
      [json, huge, /holds 3\.00e\+38 at float 0 \(weight "scorer\/l0\/state"\); a policy's weights must lie within ±10000/],
      [json, big, /holds -2\.00e\+4 at float 259 \(weight "scorer\/l0\/tool"\)/],
      ['not an object', weights, /not a JSON object/],
      // The messages name the weights file the manifest names (the CLI's are content-named), and say what is missing.
      [{ ...json, weightsManifest: [{ ...json.weightsManifest[0], paths: ['orchestrator.weights.0123abcd.bin'] }] }, nan, /orchestrator\.weights\.0123abcd\.bin holds a non-finite value at float 2/],
      [{ ...json, userDefinedMetadata: undefined }, weights, /its userDefinedMetadata \(catalog, features, policy, training\) is missing/],
      // A name that records another fingerprint than its bytes' (FNV-1a, by hand below): changed or damaged since it was written.
      [{ ...json, weightsManifest: [{ ...json.weightsManifest[0], paths: ['orchestrator.weights.0123abcd.bin'] }] }, weights, /"orchestrator\.weights\.0123abcd\.bin" does not hold the weights its name records \(their fingerprint is [0-9a-f]{8}\)/],
    ];
    for (const [j, w, msg] of cases) {
      const r = importArtifact(j, w);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatch(msg);
    }
    expect(tf.memory().numTensors).toBe(before);
    // The name that records the bytes' own fingerprint imports.
    const named = (fp: string) => ({ ...json, weightsManifest: [{ ...json.weightsManifest[0], paths: [`orchestrator.weights.${fp}.bin`] }] });
    let h = 0x811c9dc5;
    for (const b of weights) h = Math.imul(h ^ b, 0x01000193) >>> 0; // FNV-1a, 32-bit, written out here
    const fp = h.toString(16).padStart(8, '0');
    expect(weightsFingerprint(weights)).toBe(fp);
    // The published FNV-1a test vectors (Fowler, Noll, Vo): "" → 811c9dc5, "a" → e40c292c, "foobar" → bf9cf968.
    expect(['', 'a', 'foobar'].map((t) => weightsFingerprint(new TextEncoder().encode(t)))).toEqual(['811c9dc5', 'e40c292c', 'bf9cf968']);
    const good = importArtifact(named(fp), weights);
    expect(good.ok).toBe(true);
    if (good.ok) good.net.dispose();
  });
});
