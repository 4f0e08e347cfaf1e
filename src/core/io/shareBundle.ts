// Sharing a lab with its trained policy, in two carriers (pure: no DOM, no tfjs): the file
// `orchestra-lab-share.json` (settings link, artifact JSON, float32 weights in base64; lossless), and
// the link fragment `policy=2.<header>.<data>.<checksum>` (the artifact's JSON without its catalog,
// lz-string compressed, then int8 weights with one symmetric scale per kernel column and per bias,
// so |w − w'| ≤ max|w| / 254 plus float32 rounding: QUANT_BOUND_FACTOR). Every decoder validates what
// it reads and throws a ShareError that says what is wrong.

import { errorMessage } from '../errorMessage';
import LZString from 'lz-string';
import { checkArtifact, MAX_ABS_WEIGHT, weightsFingerprint } from './artifactCheck';

export const SHARE_FORMAT = 'orchestra-lab/share';
export const SHARE_VERSION = 1;
export const SHARE_FILE = 'orchestra-lab-share.json';
/** The fragment parameter that carries the weights. */
export const POLICY_PARAM = 'policy';
/** Version 2 ends in a checksum of the rest; version 1 (before it) is read with a notice that nothing checked it. */
export const POLICY_LINK_VERSION = '2';
const UNCHECKED_LINK_VERSION = '1';
/** A share file past this size is refused before it is parsed (a 512×8 policy, 3.7 M floats, takes ≈ 20 MB). */
export const MAX_SHARE_FILE_CHARS = 32_000_000;
/**
 * Weight tensors and floats a policy link or file may hold. The floats are those whose base64 fits
 * a share file (4 bytes each, 4 characters per 3 bytes): 6 M, so 512×8 (3.7 M) is shared and
 * 1024×8 (14.8 M) or 1024×16 (31.6 M, 69 tensors) is refused when the file is made, not when read.
 */
const MAX_TENSORS = 256;
export const MAX_FLOATS = Math.floor((MAX_SHARE_FILE_CHARS * 3) / 16);
/** |w − w'| ≤ max|w| · QUANT_BOUND_FACTOR per tensor: 1/254 from rounding, and a margin for float32 rounding of the scale and of q·scale. */
export const QUANT_BOUND_FACTOR = (1 / 254) * (1 + 2 ** -20) + 2 ** -22;

export class ShareError extends Error {}
const fail = (m: string): never => { throw new ShareError(m); };

export interface WeightSpec { name: string; shape: number[]; dtype: string }
/** What this module needs of an orchestrator.json (artifact.ts's ModelJson); checkArtifact checks the rest. */
export interface ArtifactLike { weightsManifest: { paths: string[]; weights: WeightSpec[] }[]; userDefinedMetadata: Record<string, unknown> }

// ---- base64 (standard for the file, url-safe without padding for the link) ----

export function toBase64(bytes: Uint8Array, url = false): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  const b = btoa(s);
  return url ? b.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : b;
}

export function fromBase64(text: string, what: string, url = false): Uint8Array {
  if (!(url ? /^[A-Za-z0-9_-]*$/ : /^[A-Za-z0-9+/]*={0,2}$/).test(text) || (!url && text.length % 4 !== 0) || (url && text.length % 4 === 1)) {
    fail(`${what} is not valid base64${url ? 'url' : ''} (${text.length} characters)`);
  }
  const b = atob(url ? text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4) : text);
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

// ---- the artifact's manifest ----

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The manifest's weight specs, checked: names, positive integer shapes, float32; returns each tensor's size. */
export function manifestSizes(artifact: unknown): { specs: WeightSpec[]; sizes: number[]; total: number } {
  if (!isObject(artifact)) return fail('the policy is not a JSON object');
  if (!isObject(artifact.userDefinedMetadata)) return fail('the policy has no userDefinedMetadata (not an Orchestra Lab orchestrator.json)');
  const manifest = artifact.weightsManifest;
  const specs: unknown = Array.isArray(manifest) && isObject(manifest[0]) ? manifest[0].weights : undefined;
  if (!Array.isArray(specs) || specs.length === 0) return fail('the policy has no weightsManifest');
  if (specs.length > MAX_TENSORS) fail(`the manifest lists ${specs.length} weight tensors (at most ${MAX_TENSORS})`);
  const sizes = specs.map((s: unknown, i) => {
    if (!isObject(s) || typeof s.name !== 'string' || !Array.isArray(s.shape)) return fail(`weight ${i} of the manifest has no name or shape`);
    if (s.dtype !== 'float32') fail(`weight "${s.name}" is ${String(s.dtype)}, expected float32`);
    if (!s.shape.every((d) => Number.isInteger(d) && d >= 1 && d <= MAX_FLOATS)) fail(`weight "${s.name}" has an invalid shape [${s.shape.join(', ')}]`);
    return (s.shape as number[]).reduce((a, b) => a * b, 1);
  });
  const total = sizes.reduce((a, b) => a + b, 0);
  if (total > MAX_FLOATS) fail(`the policy has ${total} weights: a share file or link holds at most ${MAX_FLOATS} ` +
    `(export the policy instead: orchestrator.json and its weights)`);
  return { specs: specs as WeightSpec[], sizes, total };
}

const floatsOf = (bytes: Uint8Array): Float32Array => new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));

// ---- int8 quantisation ----

type Shapes = readonly (readonly number[])[];

/**
 * Calls f once per scale: one per column of a kernel (its last dimension: one output unit), one per
 * vector (a bias). f gets the scale's index, its tensor's index, and the column's first float,
 * stride and length in the packed weights. Returns the number of scales.
 */
function eachColumn(shapes: Shapes, f: (scale: number, tensor: number, start: number, stride: number, count: number) => void): number {
  let at = 0, s = 0;
  shapes.forEach((shape, t) => {
    const n = shape.reduce((a, b) => a * b, 1);
    const cols = shape.length >= 2 ? (shape[shape.length - 1] as number) : 1;
    for (let c = 0; c < cols; c++) f(s++, t, at + c, cols, n / cols);
    at += n;
  });
  return s;
}

/** Symmetric int8 per column: scale = max|w| / 127 (float32) over the column, q = round(w / scale). */
export function quantise(floats: Float32Array, shapes: Shapes): { scales: Float32Array; q: Int8Array } {
  const scales = new Float32Array(eachColumn(shapes, () => {})), q = new Int8Array(floats.length);
  eachColumn(shapes, (s, _t, start, stride, count) => {
    let m = 0;
    for (let k = 0, i = start; k < count; k++, i += stride) m = Math.max(m, Math.abs(floats[i] as number));
    const scale = Math.fround(m / 127);
    scales[s] = scale;
    if (scale > 0) for (let k = 0, i = start; k < count; k++, i += stride) q[i] = Math.max(-127, Math.min(127, Math.round((floats[i] as number) / scale)));
  });
  return { scales, q };
}

export function dequantise(scales: Float32Array, q: Int8Array, shapes: Shapes): Float32Array {
  const out = new Float32Array(q.length);
  eachColumn(shapes, (s, _t, start, stride, count) => {
    const scale = scales[s] as number;
    for (let k = 0, i = start; k < count; k++, i += stride) out[i] = (q[i] as number) * scale;
  });
  return out;
}

/** Each weight's bound |w − w'| ≤ max|w| of its column × QUANT_BOUND_FACTOR (for tests and checks). */
export function quantisationBounds(floats: Float32Array, shapes: Shapes): Float64Array {
  const b = new Float64Array(floats.length);
  eachColumn(shapes, (_s, _t, start, stride, count) => {
    let m = 0;
    for (let k = 0, i = start; k < count; k++, i += stride) m = Math.max(m, Math.abs(floats[i] as number));
    for (let k = 0, i = start; k < count; k++, i += stride) b[i] = m * QUANT_BOUND_FACTOR;
  });
  return b;
}

// ---- the link's policy=… parameter ----

/** A lower bound on the characters of a policy link's weights: one int8 per float, in base64url (4 characters per 3 bytes). */
export function minPolicyParamChars(floats: number): number {
  return Math.ceil((4 * floats) / 3);
}

/** The value of `policy=` for an artifact and its float32 weights (the catalog is left to the link's settings). */
export function encodePolicyParam(artifact: unknown, weights: Uint8Array): string {
  const { specs, total } = manifestSizes(artifact);
  if (weights.byteLength !== 4 * total) fail(`the weights have ${weights.byteLength} bytes, the manifest needs ${4 * total}`);
  const a = artifact as ArtifactLike;
  const header = { ...a, userDefinedMetadata: { ...a.userDefinedMetadata, catalog: undefined } };
  const { scales, q } = quantise(floatsOf(weights), specs.map((x) => x.shape));
  const data = new Uint8Array(4 * scales.length + q.length);
  const view = new DataView(data.buffer);
  scales.forEach((s, i) => view.setFloat32(4 * i, s, true));
  data.set(new Uint8Array(q.buffer, q.byteOffset, q.byteLength), 4 * scales.length);
  const body = `${LZString.compressToEncodedURIComponent(JSON.stringify(header))}.${toBase64(data, true)}`;
  return `${POLICY_LINK_VERSION}.${body}.${linkChecksum(body)}`;
}

/**
 * FNV-1a of the link's header and weights as written (their characters are ASCII): one character
 * changed on the way changes it, so a damaged link is refused as a damaged file is, instead of
 * loading other weights within the int8 bound.
 */
export function linkChecksum(body: string): string {
  return weightsFingerprint(Uint8Array.from(body, (c) => c.charCodeAt(0) & 0xff));
}

/**
 * Reads `policy=` back into an artifact (with the link's catalog put back) and its dequantised
 * float32 weights; `unchecked` for a link of version 1, made before links carried a checksum.
 */
export function decodePolicyParam(value: string, catalog: unknown): {
  artifact: ArtifactLike; weights: Uint8Array; unchecked: boolean;
} {
  const parts = value.replace(/ /g, '+').split('.'); // a '+' of lz-string's alphabet may come back from a query parser as a space
  if (parts.length < 3) fail(`the link's policy is not "version.header.weights" (${parts.length} parts)`);
  const version = parts[0] as string;
  if (version !== POLICY_LINK_VERSION && version !== UNCHECKED_LINK_VERSION) {
    fail(`the link's policy has version "${version.slice(0, 8)}"; `
      + `this lab reads version ${POLICY_LINK_VERSION} (and ${UNCHECKED_LINK_VERSION}, without a checksum)`);
  }
  const unchecked = version === UNCHECKED_LINK_VERSION;
  if (parts.length !== (unchecked ? 3 : 4)) {
    fail(`the link's policy is not "version.header.weights${unchecked ? '' : '.checksum'}" (${parts.length} parts)`);
  }
  const [, head, body, sum] = parts as [string, string, string, string | undefined];
  if (!unchecked) {
    const computed = linkChecksum(`${head}.${body}`);
    if (sum !== computed) {
      fail(`the link's policy does not match its checksum (it says ${sum?.slice(0, 8)}, `
        + `its content gives ${computed}): `
        + 'the link was altered or damaged on the way; ask for it again, or for the share file');
    }
  }
  let header: unknown;
  try {
    header = JSON.parse(LZString.decompressFromEncodedURIComponent(head) || 'null');
  } catch {
    fail('the link\'s policy header is corrupted (it does not decompress to JSON)');
  }
  if (!isObject(header)) return fail('the link\'s policy header is corrupted (not a JSON object)');
  const { specs, total } = manifestSizes(header);
  const shapes = specs.map((x) => x.shape);
  const nScales = eachColumn(shapes, () => {});
  const data = fromBase64(body, 'the link\'s policy weights', true);
  const need = 4 * nScales + total;
  if (data.byteLength !== need) fail(`the link's policy weights have ${data.byteLength} bytes, its manifest needs ${need} (the link was cut short or altered)`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const scales = Float32Array.from({ length: nScales }, (_, i) => view.getFloat32(4 * i, true));
  eachColumn(shapes, (s, t) => {
    const x = scales[s] as number;
    if (!Number.isFinite(x) || x < 0 || x * 127 > MAX_ABS_WEIGHT) fail(`the link's scale ${s} (weight ` +
      `"${specs[t]?.name}") is ${x} (expected 0 … ${MAX_ABS_WEIGHT}/127)`);
  });
  const q = new Int8Array(data.buffer, data.byteOffset + 4 * nScales, total);
  if (q.some((x) => x === -128)) fail('the link\'s policy weights hold −128, which the int8 encoding never writes');
  const floats = dequantise(scales, q, shapes);
  const h = header as unknown as ArtifactLike;
  const artifact = { ...h, userDefinedMetadata: { ...h.userDefinedMetadata, catalog } };
  return { artifact, weights: new Uint8Array(floats.buffer), unchecked };
}

/** The raw `policy=` value of a fragment ("#a=1&policy=…"), or null. */
export function policyParamOf(hash: string): string | null {
  const part = hash.replace(/^#/, '').split('&').find((p) => p.startsWith(`${POLICY_PARAM}=`));
  if (part === undefined) return null;
  const raw = part.slice(POLICY_PARAM.length + 1);
  try { return decodeURIComponent(raw); } catch { return raw; }
}

/** The fragment without its `policy=` parameter (the other parameters kept byte for byte). */
export function withoutPolicyParam(hash: string): string {
  const rest = hash.replace(/^#/, '').split('&').filter((p) => p !== '' && !p.startsWith(`${POLICY_PARAM}=`));
  return rest.length ? `#${rest.join('&')}` : '';
}

/** A link with `policy=…` added to its fragment. */
export function withPolicyParam(link: string, value: string): string {
  return `${link}${link.includes('#') ? '&' : '#'}${POLICY_PARAM}=${value}`;
}

// ---- the share file ----

export interface ShareFile { format: typeof SHARE_FORMAT; version: number; about: string; settings: string; artifact: unknown; weights: string }

/** The file's text: settings ("?…#…" as writeUrl gives it), the artifact and its float32 weights (base64). */
export function encodeShareFile(settings: string, artifact: unknown, weights: Uint8Array): string {
  const { total } = manifestSizes(artifact);
  if (weights.byteLength !== 4 * total) fail(`the weights have ${weights.byteLength} bytes, the manifest needs ${4 * total}`);
  const file: ShareFile = {
    format: SHARE_FORMAT,
    version: SHARE_VERSION,
    about: 'Orchestra Lab: the settings of a lab (as in its link) and its trained policy (orchestrator.json, float32 ' +
      'weights in base64). Import it in Export / Import.',
    settings,
    artifact,
    weights: toBase64(weights),
  };
  return JSON.stringify(file);
}

/** Validates a share file's text; the settings string is left to the caller (urlState reads it). */
export function decodeShareFile(text: string): { settings: string; artifact: ArtifactLike; weights: Uint8Array } {
  if (text.length > MAX_SHARE_FILE_CHARS) fail(`the file has ${(text.length / 1e6).toFixed(1)} MB (a share file ` +
    `holds at most ${MAX_SHARE_FILE_CHARS / 1e6} MB)`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    fail(`the file is not valid JSON (${errorMessage(e)})`);
  }
  if (!isObject(v)) return fail('the file is not a JSON object');
  if (v.format !== SHARE_FORMAT) {
    return fail(v.format === 'orchestra-lab/orchestrator' ? 'this is an orchestrator.json: select it together with ' +
      'orchestrator.weights.bin' : v.format === undefined ? `not an Orchestra Lab share file (it has no "format" ` +
      `field; a share file says "format": "${SHARE_FORMAT}")` : `not an Orchestra Lab share file (format ` +
      `"${String(v.format)}", expected "${SHARE_FORMAT}")`);
  }
  if (v.version !== SHARE_VERSION) fail(`share file version ${String(v.version)} is not supported (expected ${SHARE_VERSION})`);
  if (typeof v.settings !== 'string' || v.settings.length > 64_000 || !/^(\?|#|$)/.test(v.settings)) {
    fail('the file\'s settings are not a link\'s "?…#…" part');
  }
  if (typeof v.weights !== 'string') fail('the file has no weights');
  const { total } = manifestSizes(v.artifact);
  const weights = fromBase64(v.weights as string, 'the file\'s weights');
  if (weights.byteLength !== 4 * total) fail(`the file's weights have ${weights.byteLength} bytes, its manifest needs ${4 * total}`);
  // The whole check the worker's import runs (format, features, catalog, shape, every weight): a file that passes here imports.
  const checked = checkArtifact(v.artifact, weights);
  if (!checked.ok) fail(checked.error);
  return { settings: v.settings as string, artifact: v.artifact as ArtifactLike, weights };
}
