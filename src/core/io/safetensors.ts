// The policy's weights as a safetensors file (Hugging Face's format: an 8-byte little-endian header
// length, a JSON header naming each tensor's dtype, shape and byte range, then the raw little-endian
// data), readable by `safetensors` in Python or Rust with no tfjs: the border a trained policy crosses
// to other tools. The header is padded with spaces to 8 bytes, as the reference writer does, and
// `__metadata__` holds string values only, as the format requires.

export interface NamedArray { name: string; shape: readonly number[]; data: Float32Array }

/** Encodes float32 tensors, in the given order, with string metadata. */
export function toSafetensors(tensors: readonly NamedArray[], metadata: Record<string, string> = {}): Uint8Array<ArrayBuffer> {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  for (const t of tensors) {
    const n = t.shape.reduce((a, b) => a * b, 1);
    if (n !== t.data.length) throw new Error(`${t.name}: shape ${t.shape.join('×')} holds ${n} values, not ${t.data.length}`);
    header[t.name] = { dtype: 'F32', shape: [...t.shape], data_offsets: [offset, offset + 4 * n] };
    offset += 4 * n;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - ((8 + new TextEncoder().encode(json).length) % 8)) % 8);
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const t of tensors) {
    for (let i = 0; i < t.data.length; i++, at += 4) view.setFloat32(at, t.data[i] as number, true);
  }
  return out;
}

/** Decodes a safetensors file of float32 tensors (what toSafetensors writes); throws naming what is wrong. */
export function fromSafetensors(bytes: Uint8Array): { tensors: NamedArray[]; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new Error('not a safetensors file: shorter than its 8-byte header length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = Number(view.getBigUint64(0, true));
  if (8 + n > bytes.length) throw new Error(`not a safetensors file: its header says ${n} bytes, the file has ${bytes.length - 8}`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
  const { __metadata__: metadata = {}, ...entries } = header as { __metadata__?: Record<string, string> };
  const start = 8 + n;
  const tensors = Object.entries(entries).map(([name, e]) => {
    const { dtype, shape, data_offsets: [a, b] } = e as { dtype: string; shape: number[]; data_offsets: [number, number] };
    if (dtype !== 'F32') throw new Error(`${name}: dtype ${dtype}, only F32 is read`);
    if (start + b > bytes.length || b - a !== 4 * shape.reduce((x, y) => x * y, 1)) throw new Error(`${name}: its byte range does not fit its shape or the file`);
    const data = new Float32Array((b - a) / 4);
    for (let i = 0; i < data.length; i++) data[i] = view.getFloat32(start + a + 4 * i, true);
    return { name, shape, data };
  });
  return { tensors, metadata };
}
