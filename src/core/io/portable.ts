// A trained policy for other tools: its weights as safetensors and what they mean as an input spec,
// made from the lab's own artifact (orchestrator.json's manifest and the float32 weights it names),
// so the CLI (`export`) and the page's Export tab write the same files, with public/forward.py, the
// forward pass in plain Python, beside them. Pure: no tfjs.

import type { Catalog } from '../sim/catalog';
import type { PolicyConfig } from '../policy/policyConfig';
import { inputSpec } from './inputSpec';
import { toSafetensors, type NamedArray } from './safetensors';

export const SAFETENSORS_FILE = 'orchestrator.safetensors';
export const INPUT_SPEC_FILE = 'input-spec.json';
export const FORWARD_PY = 'forward.py';

interface ArtifactLike {
  weightsManifest: { weights: { name: string; shape: number[]; dtype?: string }[] }[];
  userDefinedMetadata: { catalog: Catalog; policy: PolicyConfig };
}

/** The safetensors bytes and the input spec of an exported policy (its manifest and weights). */
export function portableFiles(json: ArtifactLike, weights: Uint8Array): { safetensors: Uint8Array<ArrayBuffer>; spec: ReturnType<typeof inputSpec> } {
  const view = new DataView(weights.buffer, weights.byteOffset, weights.byteLength);
  const tensors: NamedArray[] = [];
  let at = 0;
  for (const w of json.weightsManifest[0]?.weights ?? []) {
    if ((w.dtype ?? 'float32') !== 'float32') throw new Error(`${w.name}: dtype ${w.dtype}, only float32 is exported`);
    const n = w.shape.reduce((a, b) => a * b, 1);
    if (at + 4 * n > weights.byteLength) throw new Error(`${w.name}: the weights file ends before it`);
    const data = new Float32Array(n);
    for (let i = 0; i < n; i++, at += 4) data[i] = view.getFloat32(at, true);
    tensors.push({ name: w.name, shape: w.shape, data });
  }
  if (at !== weights.byteLength) throw new Error(`the weights file holds ${weights.byteLength - at} bytes more than its manifest names`);
  const { catalog, policy } = json.userDefinedMetadata;
  const safetensors = toSafetensors(tensors, { format: 'orchestra-lab-policy', catalog: catalog.name,
    width: String(policy.width), depth: String(policy.depth), spec: INPUT_SPEC_FILE });
  return { safetensors, spec: inputSpec(catalog, policy) };
}
