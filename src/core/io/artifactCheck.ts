// What makes an orchestrator artifact (orchestrator.json + its float32 weights) one this lab can
// load — format and version, feature sizes, catalog, policy shape, the manifest against that
// shape, byte count, every weight finite and within bound — checked without tfjs, so the page can
// refuse a bad share file before it changes anything, and the worker's import runs the same check.

import type { Catalog } from '../sim/catalog';
import { parseCatalog } from '../sim/catalogSchema';
import { STATE_DIM, TOOL_DIM } from '../policy/features';
import { weightShapes, type PolicyConfig } from '../policy/policyConfig';

export const ARTIFACT_FORMAT = 'orchestra-lab/orchestrator';
export const ARTIFACT_VERSION = 1;
/**
 * The largest |weight| an import accepts. Trained policies here stay within ±10 (Glorot init is
 * ±0.3); past ±1e4 three layers of 64 units already push logits beyond float32 (3.4e38), so such
 * a file cannot be a usable policy.
 */
export const MAX_ABS_WEIGHT = 1e4;

/** A weights file's name: orchestrator.weights.bin (the lab's export), or with its content's fingerprint (the CLI's), captured. */
export const WEIGHTS_FILE_NAME = /^orchestrator\.weights(?:\.([0-9a-f]{8}))?\.bin$/;

/** FNV-1a (32-bit) of the bytes as 8 hex digits: the CLI names a weights file after its content (orchestrator.weights.<fp>.bin). */
export function weightsFingerprint(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/**
 * Why a chosen weights file is not the one an orchestrator.json names, or null: both names carry a
 * fingerprint (the CLI's) and they differ, so the two files come from different runs or checkpoints.
 */
export function pairMismatch(manifestName: unknown, chosenName: string): string | null {
  const m = typeof manifestName === 'string' ? WEIGHTS_FILE_NAME.exec(manifestName) : null;
  const c = WEIGHTS_FILE_NAME.exec(chosenName.slice(chosenName.lastIndexOf('/') + 1));
  if (!m?.[1] || !c?.[1] || m[1] === c[1]) return null;
  return `orchestrator.json names its weights "${String(manifestName)}", `
    + `and the weights file chosen is "${chosenName}": the two files are not one pair `
    + '(they come from different runs or checkpoints); choose the weights file that orchestrator.json names';
}

/**
 * Why a weights file whose name carries a fingerprint does not hold the bytes that name records (changed or damaged
 * since), or null (it does, or its name carries none).
 */
export function fingerprintMismatch(fileName: string, bytes: Uint8Array): string | null {
  const m = WEIGHTS_FILE_NAME.exec(fileName.slice(fileName.lastIndexOf('/') + 1));
  if (!m?.[1]) return null;
  const fp = weightsFingerprint(bytes);
  return fp === m[1] ? null : `"${fileName}" does not hold the weights its name records (their fingerprint is ` +
    `${fp}): the file was changed or damaged after it was written`;
}

export interface ArtifactMetadata {
  format: typeof ARTIFACT_FORMAT;
  version: number;
  catalog: Catalog;
  policy: PolicyConfig;
  features: { stateDim: number; toolDim: number; doc: string };
  training?: unknown;
  metrics?: unknown;
}

/** A weight of the manifest, as tfjs writes it. */
export interface ManifestWeight { name: string; shape: number[]; dtype: string }

export type Checked =
  | { ok: true; policy: PolicyConfig; catalog: Catalog; metadata: ArtifactMetadata; specs: ManifestWeight[]; buffer: ArrayBuffer }
  | { ok: false; error: string };

/** The name of the weight that float index i of the packed file falls in. */
function weightAt(shapes: ReturnType<typeof weightShapes>, i: number): string {
  let end = 0;
  for (const w of shapes) {
    end += w.shape.reduce((x, y) => x * y, 1);
    if (i < end) return w.name;
  }
  return '?';
}

/** The manifest part of an artifact, checked: everything but the weights' bytes. */
export type CheckedManifest =
  | {
    ok: true; policy: PolicyConfig; catalog: Catalog; metadata: ArtifactMetadata; specs: ManifestWeight[];
    expected: ReturnType<typeof weightShapes>; needBytes: number; file: string;
  }
  | { ok: false; error: string };

/**
 * Checks an artifact's orchestrator.json without its weights (format, features, catalog, policy
 * shape, the manifest against that shape and order) and says how many bytes its weights must have:
 * the CLI checks a weights file's size against it before reading a byte (cli/policyFile.ts). With
 * `byteLength`, the weights' byte count is checked too (in the order checkArtifact always said it).
 */
export function checkManifest(jsonValue: unknown, byteLength?: number): CheckedManifest {
  const fail = (m: string): CheckedManifest => ({ ok: false, error: `invalid orchestrator artifact: ${m}` });
  const j = jsonValue as { format?: unknown; userDefinedMetadata?: Partial<ArtifactMetadata>;
    weightsManifest?: { weights?: ManifestWeight[]; paths?: unknown[] }[] } | null;
  if (!j || typeof j !== 'object') return fail('orchestrator.json is not a JSON object');
  const meta = j.userDefinedMetadata;
  if (j.format !== ARTIFACT_FORMAT || !meta || meta.format !== ARTIFACT_FORMAT) {
    return fail(j.format === ARTIFACT_FORMAT ? `not an Orchestra Lab policy: its userDefinedMetadata (catalog, ` +
      `features, policy, training) is missing or does not say format "${ARTIFACT_FORMAT}"` : `not an Orchestra Lab ` +
      `policy (format "${String(j.format)}", expected "${ARTIFACT_FORMAT}")`);
  }
  if (meta.version !== ARTIFACT_VERSION) return fail(`version ${String(meta.version)} is not supported (expected ${ARTIFACT_VERSION})`);
  if (meta.features?.stateDim !== STATE_DIM || meta.features?.toolDim !== TOOL_DIM) {
    return fail(`feature sizes ${meta.features?.stateDim}/${meta.features?.toolDim} do not match this lab's ${STATE_DIM}/${TOOL_DIM}`);
  }
  const cat = parseCatalog(meta.catalog);
  if (!cat.ok) return fail(cat.error);
  const cfg = meta.policy;
  if (!cfg || !Number.isInteger(cfg.width) || !Number.isInteger(cfg.depth) || cfg.width < 1 || cfg.depth < 1
    || cfg.width > 1024 || cfg.depth > 16) return fail('policy width/depth missing or out of range');
  const specs = j.weightsManifest?.[0]?.weights;
  if (!Array.isArray(specs)) return fail('weightsManifest is missing');
  const expected = weightShapes(cfg);
  const extra = specs.find((x) => !expected.some((w) => w.name === x?.name));
  if (extra || specs.length !== expected.length) {
    return fail(`the manifest lists ${specs.length} weights; a ${cfg.width}×${cfg.depth} policy has ${expected.length}` +
      `${extra ? ` (unexpected "${String(extra?.name)}")` : ''}`);
  }
  // The bytes are read in the manifest's order, so a manifest in any other order than the network's
  // would load each weight from another's bytes (two swapped entries once dropped accuracy from 58% to 18%, silently).
  const misplaced = specs.findIndex((x, i) => x?.name !== expected[i]?.name);
  if (misplaced >= 0) {
    return fail(`weightsManifest[0].weights[${misplaced}] is "${String(specs[misplaced]?.name)}", `
      + `where a policy's own order has "${expected[misplaced]?.name}": the weights are read in the manifest's order, `
      + 'so a reordered manifest would load each weight from another\'s bytes');
  }
  const named = j.weightsManifest?.[0]?.paths?.[0];
  const file = typeof named === 'string' && named ? named : 'the weights file'; // the CLI names it after its content (orchestrator.weights.<fp>.bin)
  const needBytes = expected.reduce((a, w) => a + 4 * w.shape.reduce((x, y) => x * y, 1), 0);
  if (byteLength !== undefined && byteLength !== needBytes) {
    return fail(`${file} has ${byteLength} bytes, the manifest needs ${needBytes}`);
  }
  for (const w of expected) {
    const s = specs.find((x) => x.name === w.name);
    if (!s) return fail(`weight "${w.name}" is missing from the manifest`);
    if (s.dtype !== 'float32' || s.shape.join('×') !== w.shape.join('×')) return fail(`weight "${w.name}" is ` +
      `${s.dtype} ${s.shape.join('×')}, expected float32 ${w.shape.join('×')}`);
  }
  const metadata = meta as ArtifactMetadata;
  return { ok: true, policy: cfg, catalog: cat.value, metadata, specs, expected, needBytes, file };
}

/** Checks an artifact; on any problem says what, in words. */
export function checkArtifact(jsonValue: unknown, weights: ArrayBuffer | Uint8Array): Checked {
  const fail = (m: string): Checked => ({ ok: false, error: `invalid orchestrator artifact: ${m}` });
  const bytes = weights instanceof Uint8Array ? weights : new Uint8Array(weights);
  const m = checkManifest(jsonValue, bytes.byteLength);
  if (!m.ok) return m;
  const { expected, file } = m;
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const floats = new Float32Array(buffer);
  for (let i = 0; i < floats.length; i++) {
    const x = floats[i] as number;
    if (!Number.isFinite(x)) return fail(`${file} holds a non-finite value at float ${i}`);
    if (Math.abs(x) > MAX_ABS_WEIGHT) return fail(`${file} holds ${x.toExponential(2)} at float ${i} (weight ` +
      `"${weightAt(expected, i)}"); a policy's weights must lie within ±${MAX_ABS_WEIGHT} (beyond it its logits ` +
      `overflow float32)`);
  }
  // Values that could be a policy, but not the ones a CLI-written file's name records: changed or damaged since.
  const changed = fingerprintMismatch(file, bytes);
  if (changed) return fail(changed);
  return { ok: true, policy: m.policy, catalog: m.catalog, metadata: m.metadata, specs: m.specs, buffer };
}
