// What a thrown value says, in one place for the worker, the page and the CLI: its `message` when it
// carries a non-empty one (an Error, or an error's copy that crossed postMessage without its class),
// else the value itself as a string.

/** The message of anything thrown. */
export function errorMessage(e: unknown): string {
  const m = (e as { message?: unknown } | null | undefined)?.message;
  return typeof m === 'string' && m !== '' ? m : String(e);
}
