// The trained policy as files: `orchestrator.json` (tfjs model.json layout — a weights manifest
// pointing at `orchestrator.weights.bin` — with the catalog, feature spec, policy and training
// configuration and final metrics in its metadata) and the raw float32 weights. The CLI and the
// lab write and read the same artifacts, and every read is validated before anything changes.

import { errorMessage } from '../errorMessage';
import * as tf from '@tensorflow/tfjs-core';
import type { Catalog } from '../sim/catalog';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import { PolicyNetwork } from '../policy/network';
import { ARTIFACT_FORMAT, ARTIFACT_VERSION, checkArtifact, type ArtifactMetadata } from './artifactCheck';

export { ARTIFACT_FORMAT, ARTIFACT_VERSION, MAX_ABS_WEIGHT, type ArtifactMetadata } from './artifactCheck';
export const WEIGHTS_FILE = 'orchestrator.weights.bin';

export interface ModelJson {
  format: string;
  generatedBy: string;
  convertedBy: null;
  modelTopology: { kind: 'orchestra-lab-policy'; width: number; depth: number; stateDim: number; toolDim: number };
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  userDefinedMetadata: ArtifactMetadata;
}

/** Encodes the network (and what it was trained on) as model.json + weights.bin. */
export async function exportArtifact(net: PolicyNetwork, catalog: Catalog,
  extra: { training?: unknown; metrics?: unknown } = {}): Promise<{ json: ModelJson; weights: Uint8Array }> {
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

/** Validates and loads an artifact; on any problem returns an error and creates nothing. */
export function importArtifact(jsonValue: unknown, weights: ArrayBuffer | Uint8Array): Loaded {
  const c = checkArtifact(jsonValue, weights);
  if (!c.ok) return c;
  const { buffer, specs, policy: cfg } = c;
  const tensors = tf.io.decodeWeights(buffer, specs as tf.io.WeightsManifestEntry[]); // checked: every dtype is float32
  try {
    const net = new PolicyNetwork(cfg, tensors);
    return { ok: true, net, catalog: c.catalog, metadata: c.metadata };
  } catch (e) {
    return { ok: false, error: `invalid orchestrator artifact: ${errorMessage(e)}` };
  } finally {
    tf.dispose(Object.values(tensors));
  }
}
