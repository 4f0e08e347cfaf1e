// The policy across the border: safetensors bytes worked by hand and read back; the input spec names
// every input; and public/forward.py, plain Python on the exported files, gives the probabilities tfjs
// gives on the probe batch (the shipped policy).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { exportArtifact } from '../src/core/io/artifact';
import { portableFiles } from '../src/core/io/portable';
import { fromSafetensors, toSafetensors } from '../src/core/io/safetensors';
import { STATE_DIM, TOOL_DIM } from '../src/core/policy/features';
import { SLOT_FEATURES, STATE_FEATURES } from '../src/core/policy/featureNames';
import { PROBE_STATES, probeProbabilities } from '../src/core/policy/probe';
import { SeqRng } from '../src/core/sim/rng';
import { slotsOf } from '../src/core/sim/slots';
import { loadPolicyFile } from '../src/cli/policyFile';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

describe('safetensors', () => {
  it('writes the format byte for byte (worked by hand) and reads it back', () => {
    const bytes = toSafetensors([{ name: 'w', shape: [2], data: Float32Array.of(1, -2) }], { k: 'v' });
    const header = '{"__metadata__":{"k":"v"},"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}';
    // 79 bytes of JSON, padded with 1 space so that the data starts at 8 + 80 = 88, a multiple of 8.
    expect(header.length).toBe(79);
    const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
    expect(n).toBe(80);
    expect(new TextDecoder().decode(bytes.subarray(8, 8 + n))).toBe(`${header} `);
    // 1.0f = 0x3f800000 and −2.0f = 0xc0000000, little-endian.
    expect([...bytes.subarray(88)]).toEqual([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]);
    const back = fromSafetensors(bytes);
    expect(back.metadata).toEqual({ k: 'v' });
    expect(back.tensors).toEqual([{ name: 'w', shape: [2], data: Float32Array.of(1, -2) }]);
    expect(() => fromSafetensors(bytes.subarray(0, 50))).toThrow(/its header says 80 bytes/);
  });

  it('the input spec names every input: as many feature names as the network takes', () => {
    expect(STATE_FEATURES).toHaveLength(STATE_DIM);
    expect(SLOT_FEATURES).toHaveLength(TOOL_DIM);
  });

  it('forward.py, in plain Python on the exported files, gives tfjs\'s probabilities on the probe batch', async () => {
    const { net, catalog } = loadPolicyFile('public/pretrained/orchestrator.json');
    const nSlots = slotsOf(catalog).length;
    const want = await probeProbabilities(net, nSlots);
    const { json, weights } = await exportArtifact(net, catalog);
    net.dispose();
    const { safetensors, spec } = portableFiles(json, weights);
    expect(spec.actions).toHaveLength(nSlots + 1);
    // The probe batch, drawn as probe.ts draws it: every state, then every slot descriptor; every action allowed.
    const r = new SeqRng(8);
    const rand = (n: number) => Array.from({ length: n }, () => r.next() * 2 - 1);
    const states = rand(PROBE_STATES * STATE_DIM), slots = rand(PROBE_STATES * nSlots * TOOL_DIM);
    const decisions = Array.from({ length: PROBE_STATES }, (_, i) => ({
      state: states.slice(i * STATE_DIM, (i + 1) * STATE_DIM),
      slots: Array.from({ length: nSlots }, (_, s) => slots.slice((i * nSlots + s) * TOOL_DIM, (i * nSlots + s + 1) * TOOL_DIM)),
    }));
    const dir = mkdtempSync(join(tmpdir(), 'orchestra-portable-'));
    writeFileSync(join(dir, 'w.safetensors'), safetensors);
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec));
    writeFileSync(join(dir, 'decisions.json'), JSON.stringify({ decisions }));
    const out = JSON.parse(execFileSync('python3', ['public/forward.py', join(dir, 'w.safetensors'), join(dir, 'spec.json'),
      join(dir, 'decisions.json')], { encoding: 'utf8' })) as { probabilities: number[][] };
    const got = out.probabilities.flat();
    expect(got).toHaveLength(want.length);
    got.forEach((p, k) => expect(Math.abs(p - want[k]!)).toBeLessThan(1e-5));
    // A masked action (null) gets no probability.
    writeFileSync(join(dir, 'masked.json'), JSON.stringify({ decisions: [{ ...decisions[0], slots: decisions[0]!.slots.map((x, s) => (s === 0 ? null : x)) }] }));
    const masked = JSON.parse(execFileSync('python3', ['public/forward.py', join(dir, 'w.safetensors'), join(dir, 'spec.json'),
      join(dir, 'masked.json')], { encoding: 'utf8' })) as { probabilities: number[][] };
    expect(masked.probabilities[0]![0]).toBe(0);
  });

  it('an artifact whose weights file is longer than its manifest is refused', async () => {
    const { net, catalog } = loadPolicyFile('public/pretrained/orchestrator.json');
    const { json, weights } = await exportArtifact(net, catalog);
    net.dispose();
    const longer = new Uint8Array(weights.length + 4);
    longer.set(weights);
    expect(() => portableFiles(json, longer)).toThrow(/holds 4 bytes more than its manifest names/);
  });
});
