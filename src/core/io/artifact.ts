// The trained policy as files: `orchestrator.json` (tfjs model.json layout — a weights manifest
// pointing at `orchestrator.weights.bin` — with the catalog, feature spec, policy and training
// configuration and final metrics in its metadata) and the raw float32 weights. The CLI and the
// lab write and read the same artifacts, and every read is validated before anything changes.

import * as tf from '@tensorflow/tfjs-core';
import type { Catalog } from '../sim/catalog';
import { parseCatalog } from '../sim/catalogSchema';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import { PolicyNetwork, weightShapes, type PolicyConfig } from '../policy/network';

export const ARTIFACT_FORMAT = 'orchestra-lab/orchestrator';
export const ARTIFACT_VERSION = 1;
export const WEIGHTS_FILE = 'orchestrator.weights.bin';
/**
 * The largest |weight| an import accepts. Trained policies here stay within ±10 (Glorot init is
 * ±0.3); past ±1e4 three layers of 64 units already push logits beyond float32 (3.4e38), so such
 * a file cannot be a usable policy.
 */
export const MAX_ABS_WEIGHT = 1e4;

export interface ArtifactMetadata {
  format: typeof ARTIFACT_FORMAT;
  version: number;
  catalog: Catalog;
  policy: PolicyConfig;
  features: { stateDim: number; toolDim: number; doc: string };
  training?: unknown;
  metrics?: unknown;
}

export interface ModelJson {
  format: string;
  generatedBy: string;
  convertedBy: null;
  modelTopology: { kind: 'orchestra-lab-policy'; width: number; depth: number; stateDim: number; toolDim: number };
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  userDefinedMetadata: ArtifactMetadata;
}

/** Encodes the network (and what it was trained on) as model.json + weights.bin. */
export async function exportArtifact(net: PolicyNetwork, catalog: Catalog, extra: { training?: unknown; metrics?: unknown } = {}): Promise<{ json: ModelJson; weights: Uint8Array }> {
  const named = net.names.map((name, i) => ({ name, tensor: net.vars[i] as tf.Tensor }));
  const { data, specs } = await tf.io.encodeWeights(named);
  const json: ModelJson = {
    format: ARTIFACT_FORMAT,
    generatedBy: 'Orchestra Lab',
    convertedBy: null,
    modelTopology: { kind: 'orchestra-lab-policy', width: net.config.width, depth: net.config.depth, stateDim: STATE_DIM, toolDim: TOOL_DIM },
    weightsManifest: [{ paths: [WEIGHTS_FILE], weights: specs }],
    userDefinedMetadata: {
      format: ARTIFACT_FORMAT,
      version: ARTIFACT_VERSION,
      catalog,
      policy: net.config,
      features: { stateDim: STATE_DIM, toolDim: TOOL_DIM, doc: 'src/core/policy/features.ts' },
      ...extra,
    },
  };
  return { json, weights: new Uint8Array(data as ArrayBuffer) };
}

export type Loaded = { ok: true; net: PolicyNetwork; catalog: Catalog; metadata: ArtifactMetadata } | { ok: false; error: string };

/** The name of the weight that float index i of the packed file falls in. */
function weightAt(shapes: ReturnType<typeof weightShapes>, i: number): string {
  let end = 0;
  for (const w of shapes) {
    end += w.shape.reduce((x, y) => x * y, 1);
    if (i < end) return w.name;
  }
  return '?';
}

/** Validates and loads an artifact; on any problem returns an error and creates nothing. */
export function importArtifact(jsonValue: unknown, weights: ArrayBuffer | Uint8Array): Loaded {
  const fail = (m: string): Loaded => ({ ok: false, error: `invalid orchestrator artifact: ${m}` });
  const j = jsonValue as Partial<ModelJson> | null;
  if (!j || typeof j !== 'object') return fail('orchestrator.json is not a JSON object');
  const meta = j.userDefinedMetadata;
  if (j.format !== ARTIFACT_FORMAT || !meta || meta.format !== ARTIFACT_FORMAT) return fail(`not an Orchestra Lab policy (format "${String(j.format)}")`);
  if (meta.version !== ARTIFACT_VERSION) return fail(`version ${String(meta.version)} is not supported (expected ${ARTIFACT_VERSION})`);
  if (meta.features?.stateDim !== STATE_DIM || meta.features?.toolDim !== TOOL_DIM) {
    return fail(`feature sizes ${meta.features?.stateDim}/${meta.features?.toolDim} do not match this lab's ${STATE_DIM}/${TOOL_DIM}`);
  }
  const cat = parseCatalog(meta.catalog);
  if (!cat.ok) return fail(cat.error);
  const cfg = meta.policy;
  if (!cfg || !Number.isInteger(cfg.width) || !Number.isInteger(cfg.depth) || cfg.width < 1 || cfg.depth < 1 || cfg.width > 1024 || cfg.depth > 16) return fail('policy width/depth missing or out of range');
  const specs = j.weightsManifest?.[0]?.weights;
  if (!Array.isArray(specs)) return fail('weightsManifest is missing');
  const expected = weightShapes(cfg);
  const extra = specs.find((x) => !expected.some((w) => w.name === x?.name));
  if (extra || specs.length !== expected.length) return fail(`the manifest lists ${specs.length} weights; a ${cfg.width}×${cfg.depth} policy has ${expected.length}${extra ? ` (unexpected "${String(extra?.name)}")` : ''}`);
  const bytes = weights instanceof Uint8Array ? weights : new Uint8Array(weights);
  const needBytes = expected.reduce((a, w) => a + 4 * w.shape.reduce((x, y) => x * y, 1), 0);
  if (bytes.byteLength !== needBytes) return fail(`orchestrator.weights.bin has ${bytes.byteLength} bytes, the manifest needs ${needBytes}`);
  for (const w of expected) {
    const s = specs.find((x) => x.name === w.name);
    if (!s) return fail(`weight "${w.name}" is missing from the manifest`);
    if (s.dtype !== 'float32' || s.shape.join('×') !== w.shape.join('×')) return fail(`weight "${w.name}" is ${s.dtype} ${s.shape.join('×')}, expected float32 ${w.shape.join('×')}`);
  }
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const floats = new Float32Array(buffer);
  for (let i = 0; i < floats.length; i++) {
    const x = floats[i] as number;
    if (!Number.isFinite(x)) return fail(`orchestrator.weights.bin holds a non-finite value at float ${i}`);
    if (Math.abs(x) > MAX_ABS_WEIGHT) return fail(`orchestrator.weights.bin holds ${x.toExponential(2)} at float ${i} (weight "${weightAt(expected, i)}"); a policy's weights must lie within ±${MAX_ABS_WEIGHT} (beyond it its logits overflow float32)`);
  }
  const tensors = tf.io.decodeWeights(buffer, specs);
  try {
    const net = new PolicyNetwork(cfg, tensors);
    return { ok: true, net, catalog: cat.value, metadata: meta };
  } catch (e) {
    return fail((e as Error).message);
  } finally {
    tf.dispose(Object.values(tensors));
  }
}
