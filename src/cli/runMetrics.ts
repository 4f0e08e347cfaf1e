// A run's metrics.jsonl (one JSON line per iteration): appended at each checkpoint, never rebuilt, so
// a checkpoint costs the same at iteration 100,000 as at 1,000 and the file grows past any string's
// length. The new lines land first as a journal, metrics.pending.jsonl, in the same all-or-nothing
// write as the policy pair (io.ts), before the manifest that commits it; only then are they appended.
// So a reader of metrics.jsonl never sees an iteration the weights do not hold, and a run killed or
// stopped by a full disk between the two steps loses no line: --resume appends the journal's lines
// the manifest holds, and first cuts metrics.jsonl back to its whole lines of iterations 1…done.

import { appendFileSync, closeSync, existsSync, openSync, readFileSync, readSync, renameSync, rmSync, statSync,
  truncateSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const METRICS_FILE = 'metrics.jsonl';
export const PENDING_FILE = 'metrics.pending.jsonl';

/** The journal a checkpoint writes with its pair: the lines of the iterations since the last checkpoint. */
export const pendingFile = (dir: string, lines: readonly string[]): { path: string; data: string } =>
  ({ path: join(dir, PENDING_FILE), data: lines.length ? `${lines.join('\n')}\n` : '' });

/** After the pair has landed: the journal's lines are appended to metrics.jsonl, then the journal goes. */
export function appendPending(dir: string): void {
  const pending = join(dir, PENDING_FILE);
  if (!existsSync(pending)) return;
  const data = readFileSync(pending);
  if (data.length) appendFileSync(join(dir, METRICS_FILE), data);
  rmSync(pending, { force: true });
}

/** The iteration of a metrics line, or null when it is no whole line of one. */
function iterationOf(line: string): number | null {
  try {
    const it = (JSON.parse(line) as { iteration?: unknown } | null)?.iteration;
    return typeof it === 'number' && Number.isInteger(it) ? it : null;
  } catch {
    return null;
  }
}

const CHUNK = 1 << 20;

/** Calls `f(line, endOffset)` for each line of `path` (the last one too when it has no newline), reading a chunk at a time. */
function eachLine(path: string, f: (line: string, end: number, whole: boolean) => void): void {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(CHUNK);
    let carry: Buffer = Buffer.alloc(0), offset = 0, n: number;
    while ((n = readSync(fd, buf, 0, CHUNK, null)) > 0) {
      const data = Buffer.concat([carry, buf.subarray(0, n)]);
      let start = 0, nl: number;
      while ((nl = data.indexOf(10, start)) !== -1) {
        f(data.toString('utf8', start, nl), offset + nl + 1, true);
        start = nl + 1;
      }
      offset += start;
      carry = Buffer.from(data.subarray(start));
    }
    if (carry.length) f(carry.toString('utf8'), offset + carry.length, false);
  } finally {
    closeSync(fd);
  }
}

/**
 * Before a resumed run goes on: metrics.jsonl is made to hold its readable lines of iterations 1…done
 * in order, and the journal's lines the manifest holds are appended. Usually that is a cut at the end
 * (a torn last line, or lines past `done`); damage in the middle rewrites the file, a line at a time.
 * Returns how many iterations' lines it holds.
 */
export function recoverMetrics(dir: string, done: number): number {
  const path = join(dir, METRICS_FILE);
  let kept = 0, last = 0, cleanEnd = 0, clean = true, rewrite = false;
  const good = (line: string): boolean => {
    const it = iterationOf(line);
    if (it === null || it <= last || it > done) return false;
    last = it;
    return true;
  };
  if (existsSync(path)) {
    eachLine(path, (line, end, whole) => {
      if (!line.trim()) return;
      if (whole && good(line)) {
        kept++;
        if (clean) cleanEnd = end;
        else rewrite = true;
      } else clean = false;
    });
    if (rewrite) rewriteGoodLines(path, done);
    else if (statSync(path).size > cleanEnd) truncateSync(path, cleanEnd);
  }
  const pending = join(dir, PENDING_FILE);
  if (existsSync(pending)) {
    const lines = readFileSync(pending, 'utf8').split('\n').filter((l) => l.trim() && good(l));
    if (lines.length) appendFileSync(path, `${lines.join('\n')}\n`);
    kept += lines.length;
    rmSync(pending, { force: true });
  }
  return kept;
}

/** metrics.jsonl with only its good lines (as recoverMetrics counts them), written beside it and renamed over it. */
function rewriteGoodLines(path: string, done: number): void {
  const tmp = join(dirname(path), `.${process.pid}.tmp-metrics`); // a killed run's is removed by the next (runLock.ts)
  const fd = openSync(tmp, 'w');
  let last = 0;
  try {
    eachLine(path, (line, _end, whole) => {
      const it = whole ? iterationOf(line) : null;
      if (it === null || it <= last || it > done) return;
      last = it;
      writeSync(fd, `${line}\n`);
    });
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}
