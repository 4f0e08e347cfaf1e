// A policy as the two files the worker's import reads (its JSON and its weights), built from what the page
// holds in memory: a shared link's decoded policy, the browser's saved copy, the backup before an import.

export const jsonBlob = (v: unknown): Blob => new Blob([JSON.stringify(v)], { type: 'application/json' });

/** A copy of the bytes (a view's own slice, never the buffer behind it). */
export const bytesBlob = (b: Uint8Array | ArrayBuffer): Blob => new Blob([b instanceof Uint8Array ? new Uint8Array(b) : b],
  { type: 'application/octet-stream' });
