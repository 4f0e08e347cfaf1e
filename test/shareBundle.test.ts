// Sharing a lab with its policy (src/core/io/shareBundle.ts): the int8 link encoding's error bound
// (worked by hand), round trips through the link and the file, the size of the default policy's
// link, and clear errors for corrupted, oversized or wrong-version input.

import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { importArtifact, MAX_ABS_WEIGHT } from '../src/core/io/artifact';
import {
  decodePolicyParam, decodeShareFile, dequantise, encodePolicyParam, encodeShareFile, MAX_FLOATS, MAX_SHARE_FILE_CHARS, minPolicyParamChars,
  policyParamOf, quantisationBounds, quantise, QUANT_BOUND_FACTOR, toBase64, withoutPolicyParam, withPolicyParam, type ArtifactLike,
} from '../src/core/io/shareBundle';
import { probeProbabilities } from '../src/core/policy/probe';
import { DEFAULT_POLICY } from '../src/core/policy/policyConfig';
import { MAX_FRAGMENT_CHARS, readUrl } from '../src/store/urlState';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

/** The shipped pretrained policy: the default 64×2 shape, trained (its weights are not Glorot's). */
const pretrained = {
  json: JSON.parse(readFileSync('public/pretrained/orchestrator.json', 'utf8')) as ArtifactLike & { userDefinedMetadata: { catalog: unknown } },
  weights: new Uint8Array(readFileSync('public/pretrained/orchestrator.weights.bin')),
};
const floats = (b: Uint8Array) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
const catalog = pretrained.json.userDefinedMetadata.catalog;

describe('int8 quantisation (symmetric, a scale per kernel column and per bias vector)', () => {
  it('worked by hand: |w − w\'| ≤ max|w| / 254 over each column', () => {
    // A vector with max|w| = 127: scale = 1 and q = round(w): 127 → 127, −3.4 → −3 (error 0.4),
    // 0.5 → 1 and 2.5 → 3 (round half up: error 0.5, the bound 127/254 reached exactly), −0.49 → 0.
    // A 2×2 kernel [[1.27, 0.005], [−0.5, −0.02]] (row-major, [in, out]): column 0 has max 1.27, so
    // scale 0.01 and q = 127, −50; column 1 has max 0.02, so scale 0.02/127 ≈ 1.575e-4 and
    // 0.005 → round(31.75) = 32 (w' ≈ 0.0050394, error 3.9e-5 ≤ 0.02/254 ≈ 7.9e-5), −0.02 → −127.
    // (One scale for the whole kernel would be 0.01: 0.005 → round(0.5) = 1, w' = 0.01, error 0.005.)
    // A zero vector: scale 0, every q 0, nothing lost.
    const w = Float32Array.from([127, -3.4, 0.5, 2.5, -0.49, 1.27, 0.005, -0.5, -0.02, 0, 0]);
    const shapes = [[5], [2, 2], [2]];
    const { scales, q } = quantise(w, shapes);
    expect(Array.from(scales)).toEqual([1, Math.fround(0.01), Math.fround(0.02 / 127), 0]);
    expect(Array.from(q)).toEqual([127, -3, 1, 3, 0, 127, 32, -50, -127, 0, 0]);
    const back = dequantise(scales, q, shapes);
    expect(Array.from(back.subarray(0, 5))).toEqual([127, -3, 1, 3, 0]);
    expect(back[5]).toBeCloseTo(1.27, 6);
    expect(back[6]).toBeCloseTo(0.0050394, 7);
    expect(back[7]).toBeCloseTo(-0.5, 6);
    expect(back[8]).toBeCloseTo(-0.02, 7);
    expect(Array.from(back.subarray(9))).toEqual([0, 0]);
    const err = (i: number) => Math.abs((w[i] as number) - (back[i] as number));
    expect(Math.max(...[0, 1, 2, 3, 4].map(err))).toBeLessThanOrEqual(127 * QUANT_BOUND_FACTOR);
    expect(err(2)).toBe(0.5); // the bound is tight
    expect(Math.max(err(5), err(7))).toBeLessThanOrEqual(1.27 * QUANT_BOUND_FACTOR);
    expect(Math.max(err(6), err(8))).toBeLessThanOrEqual(0.02 * QUANT_BOUND_FACTOR);
    expect(err(6)).toBeCloseTo(3.94e-5, 6);
    expect(Array.from(quantisationBounds(w, shapes))).toEqual([...Array(5).fill(127), 1.27, 0.02, 1.27, 0.02, 0, 0].map((m) => Math.fround(m) * QUANT_BOUND_FACTOR));
  });
});

describe('the link: policy=…', () => {
  it('the default 64×2 policy fits the lab\'s link limit; every weight comes back within its tensor\'s bound; it imports and predicts alike', async () => {
    expect([pretrained.json.userDefinedMetadata as unknown as { policy: { width: number; depth: number } }].map((m) => [m.policy.width, m.policy.depth])[0]).toEqual([DEFAULT_POLICY.width, DEFAULT_POLICY.depth]);
    const value = encodePolicyParam(pretrained.json, pretrained.weights);
    const link = withPolicyParam('https://example.org/orchestra-lab/', value);
    const fragment = link.slice(link.indexOf('#'));
    console.log(`default policy: ${floats(pretrained.weights).length} weights, float32 ${pretrained.weights.length} B; link fragment ${fragment.length} characters (header ${value.split('.')[1]?.length}, int8 data ${value.split('.')[2]?.length}); limit ${MAX_FRAGMENT_CHARS}`);
    expect(fragment.length).toBeLessThan(MAX_FRAGMENT_CHARS);
    expect(fragment.length).toBeLessThan(23_000); // ≈ 17.6 K of int8 + 1.7 K of scales in base64, ≈ 2.4 K of header
    // The bound the worker uses to skip the link of a policy too large for one: never above the real length.
    const n = floats(pretrained.weights).length;
    expect([3, 4, 5].map(minPolicyParamChars)).toEqual([4, 6, 7]); // unpadded base64url of 3, 4, 5 bytes: 4, 6, 7 characters
    expect(minPolicyParamChars(n)).toBeLessThanOrEqual(value.split('.')[2]?.length as number);

    const { artifact, weights } = decodePolicyParam(policyParamOf(fragment) as string, catalog);
    expect(artifact).toEqual(pretrained.json); // the catalog the link left out is put back
    const a = floats(pretrained.weights), b = floats(weights);
    const bounds = quantisationBounds(a, pretrained.json.weightsManifest[0]?.weights.map((x) => x.shape) ?? []);
    const over = a.findIndex((x, i) => !(Math.abs(x - (b[i] as number)) <= (bounds[i] as number)));
    expect(over).toBe(-1);
    expect(Math.max(...bounds)).toBeLessThan(0.006); // max|w| ≈ 1.48 here: 1.48 / 254 ≈ 0.0058

    const original = importArtifact(pretrained.json, pretrained.weights);
    const shared = importArtifact(artifact, weights);
    if (!original.ok || !shared.ok) throw new Error('import failed');
    const J = original.catalog.tools.length;
    const p = await probeProbabilities(original.net, J), p2 = await probeProbabilities(shared.net, J);
    const worst = Math.max(...p.map((x, i) => Math.abs(x - (p2[i] as number))));
    console.log(`probe probabilities after the int8 round trip: max |Δp| = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(0.01);
    original.net.dispose();
    shared.net.dispose();
  });

  it('the fragment helpers take the policy out and leave the settings byte for byte', () => {
    const hash = '#catalog=N4Ig+x$&policy=1.abc.def&P=o1';
    expect(policyParamOf(hash)).toBe('1.abc.def');
    expect(withoutPolicyParam(hash)).toBe('#catalog=N4Ig+x$&P=o1');
    expect(withoutPolicyParam('#policy=1.a.b')).toBe('');
    expect(policyParamOf('#catalog=x')).toBeNull();
    expect(withPolicyParam('/?B=4', 'v')).toBe('/?B=4#policy=v');
    expect(withPolicyParam('/?B=4#catalog=x', 'v')).toBe('/?B=4#catalog=x&policy=v');
    expect(readUrl('?B=4', withoutPolicyParam('#policy=1.a.b')).invalid).toEqual([]);
  });

  it('refuses corrupted, cut or wrong-version links with a clear message', () => {
    // Version 1 (no checksum, still read) lets the damage reach the decoder's own checks; version 2's
    // checksum comes first (hardened.test.ts).
    const value = encodePolicyParam(pretrained.json, pretrained.weights);
    const [, head, body] = value.split('.') as [string, string, string];
    const data = Uint8Array.from(atob(body.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (body.length % 4)) % 4)), (c) => c.charCodeAt(0));
    const nanScale = data.slice();
    new DataView(nanScale.buffer).setFloat32(0, Number.NaN, true);
    const minus128 = data.slice();
    minus128[data.length - 1] = 0x80;
    const cases: [string, RegExp][] = [
      [`3.${head}.${body}`, /version "3"; this lab reads version 2 \(and 1, without a checksum\)/],
      [`1.${head}`, /not "version.header.weights" \(2 parts\)/],
      [`1.${head.slice(0, 40)}.${body}`, /header is corrupted/],
      [`1.${head}.${body.slice(0, -8)}`, /have \d+ bytes, its manifest needs \d+ \(the link was cut short or altered\)/],
      [`1.${head}.${body.slice(0, -1)}!`, /not valid base64url/],
      [`1.${head}.${toBase64(nanScale, true)}`, /scale 0 \(weight "scorer\/l0\/state"\) is NaN/],
      [`1.${head}.${toBase64(minus128, true)}`, /−128/],
      ['', /parts/],
    ];
    for (const [v, message] of cases) expect(() => decodePolicyParam(v, catalog), v.slice(0, 20)).toThrow(message);
  });
});

describe('the file: orchestra-lab-share.json', () => {
  it('round trip: settings, artifact and weights come back exactly', () => {
    const text = encodeShareFile('?B=4#P=o1', pretrained.json, pretrained.weights);
    const back = decodeShareFile(text);
    expect(back.settings).toBe('?B=4#P=o1');
    expect(back.artifact).toEqual(pretrained.json);
    expect(Array.from(back.weights)).toEqual(Array.from(pretrained.weights));
    expect(JSON.parse(text)).toMatchObject({ format: 'orchestra-lab/share', version: 1 });
  });

  it('is refused when it is made for a policy whose weights would not fit the file (6 M floats: 512×8 fits, 1024×8 does not)', () => {
    // A policy of width H, depth d has 76·H + 2 + 2·(d − 1)·(H² + H) weights: 3,716,098 at 512×8, 14,772,226 at 1024×8.
    expect(MAX_FLOATS).toBe(6_000_000); // 32 M characters of base64 = 24 MB = 6 M float32
    const manifest = (H: number, d: number) => {
      const specs: { name: string; shape: number[]; dtype: string }[] = [{ name: 'all', shape: [76 * H + 2], dtype: 'float32' }];
      for (let l = 1; l < d; l++) specs.push({ name: `s${l}`, shape: [H, H + 1], dtype: 'float32' }, { name: `t${l}`, shape: [H, H + 1], dtype: 'float32' });
      return { ...pretrained.json, weightsManifest: [{ paths: ['x.bin'], weights: specs }] };
    };
    // 512×8: the manifest passes, so only the (deliberately empty) weights are wrong.
    expect(() => encodeShareFile('?', manifest(512, 8), new Uint8Array(0))).toThrow(/the weights have 0 bytes, the manifest needs 14864392/);
    expect(() => encodeShareFile('?', manifest(1024, 8), new Uint8Array(0))).toThrow(/the policy has 14772226 weights: a share file or link holds at most 6000000/);
  });

  it('refuses wrong formats, versions, sizes and corrupted weights with a clear message', () => {
    const good = JSON.parse(encodeShareFile('?B=4', pretrained.json, pretrained.weights)) as Record<string, unknown>;
    const withFloat = (i: number, x: number) => {
      const w = pretrained.weights.slice();
      new DataView(w.buffer).setFloat32(4 * i, x, true);
      return JSON.stringify({ ...good, weights: toBase64(w) });
    };
    const manifest = structuredClone(pretrained.json);
    (manifest.weightsManifest[0]?.weights[0] as { dtype: string }).dtype = 'int32';
    const cases: [string, RegExp][] = [
      ['{"format": "orchestra-lab/share", ', /not valid JSON/],
      ['[1, 2]', /not a JSON object/],
      [JSON.stringify({ ...good, format: 'something-else' }), /not an Orchestra Lab share file \(format "something-else"/],
      [JSON.stringify({ hello: 'world' }), /not an Orchestra Lab share file \(it has no "format" field; a share file says "format": "orchestra-lab\/share/],
      [JSON.stringify(pretrained.json), /this is an orchestrator.json: select it together with orchestrator.weights.bin/],
      [JSON.stringify({ ...good, version: 2 }), /share file version 2 is not supported \(expected 1\)/],
      [JSON.stringify({ ...good, settings: 42 }), /settings are not a link's/],
      [JSON.stringify({ ...good, weights: 'AAAA!' }), /the file's weights is not valid base64/],
      [JSON.stringify({ ...good, weights: toBase64(pretrained.weights.subarray(0, 100)) }), /weights have 100 bytes, its manifest needs 56072/], // 64×2: scorer 32·64 + 21·64 + 64 + 64·64 + 64 + 64 + 1, submit 32·64 + 64 + 64·64 + 64 + 64 + 1 = 14018 floats
      [JSON.stringify({ ...good, artifact: manifest }), /weight "scorer\/l0\/state" is int32, expected float32/],
      [JSON.stringify({ ...good, artifact: { ...pretrained.json, weightsManifest: [] } }), /no weightsManifest/],
      // The worker's own import check, run on the page before anything changes: the weights, and what the old pre-check missed.
      [withFloat(5, Number.NaN), /holds a non-finite value at float 5/],
      [withFloat(13_000, 2e4), new RegExp(`holds 2.00e\\+4 at float 13000 \\(weight "submit/l1/kernel"\\); a policy's weights must lie within ±${MAX_ABS_WEIGHT}`)],
      [JSON.stringify({ ...good, artifact: { ...pretrained.json, userDefinedMetadata: { ...pretrained.json.userDefinedMetadata, features: { stateDim: 27, toolDim: 16 } } } }), /feature sizes 27\/16 do not match this lab's 32\/21/],
      [JSON.stringify({ ...good, artifact: { ...pretrained.json, userDefinedMetadata: { ...pretrained.json.userDefinedMetadata, catalog: { name: 'x' } } } }), /invalid orchestrator artifact: /],
      ['x'.repeat(MAX_SHARE_FILE_CHARS + 1), /the file has 32.0 MB \(a share file holds at most 32 MB\)/],
    ];
    for (const [text, message] of cases) expect(() => decodeShareFile(text), text.slice(0, 30)).toThrow(message);
  });
});
