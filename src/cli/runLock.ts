// One `train` at a time per folder. Two runs on the same --out once both "wrote" it (it held the
// second run only, and a reader saw a manifest naming weights the other run had removed). A run
// holds DIR/.orchestra-lab.lock (pid, host, start time, command) from before it checks the folder
// until it exits; a second run is refused naming the first. A lock left by a process that is gone
// (kill -9, a power cut) is taken over with a note, and that process's temporary files
// (.PID.tmp-N, io.ts) are removed: the next run cleans up after a killed one.

import { errorMessage } from '../core/errorMessage';
import { linkSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { CliError } from './args';

export const LOCK_FILE = '.orchestra-lab.lock';

interface LockInfo { pid: number; host: string; startedAt: string; command: string }

/** Whether a process with this pid runs on this machine (EPERM: it runs, under another user). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readLock(path: string): LockInfo | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockInfo>;
    if (typeof v.pid !== 'number' || typeof v.host !== 'string') return null;
    return { pid: v.pid, host: v.host, startedAt: String(v.startedAt), command: String(v.command) };
  } catch {
    return null;
  }
}

/** The temporaries of processes that are gone (.PID.tmp-N, .PID.tmp-probe): removed; returns how many. */
export function removeDeadTemporaries(dir: string): number {
  let removed = 0;
  let names: string[];
  try { names = readdirSync(dir); } catch { return 0; }
  for (const f of names) {
    const m = /^\.(\d+)\.tmp-[\w-]+$/.exec(f);
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1]))) {
      rmSync(join(dir, f), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Takes the folder's lock for this process (creating the folder if need be), or throws a CliError
 * that names the run holding it. The lock file appears whole or not at all (written aside, then
 * hard-linked into place, which fails if one is there). Returns its release: the lock file goes,
 * and the folder too if this run made it and left it empty (a refused run leaves nothing behind).
 */
export function lockRunFolder(dir: string, option: string, command: string, note: (line: string) => void): () => void {
  const first = mkdirSync(dir, { recursive: true }); // the topmost folder it made (undefined: none)
  const made: string[] = [];
  if (first !== undefined) {
    for (let d = resolve(dir); ; d = dirname(d)) {
      made.push(d);
      if (d === resolve(first) || dirname(d) === d) break;
    }
  }
  const path = join(dir, LOCK_FILE);
  const mine: LockInfo = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), command };
  const aside = join(dir, `.${process.pid}.tmp-lock`);
  writeFileSync(aside, JSON.stringify(mine) + '\n');
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(aside, path);
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST') throw new CliError(`${option}: cannot lock "${dir}": ${code ?? errorMessage(e)}`);
      }
      const held = readLock(path);
      if (held && (held.host !== mine.host || processAlive(held.pid))) {
        const where = held.host !== mine.host ? ` on ${held.host}` : '';
        throw new CliError(`${option} ${dir} is in use by another run: pid ${held.pid}${where}, `
          + `started ${held.startedAt}: "${held.command}" (its lock: ${path}). `
          + 'Wait for it to end, or give another folder; if no such run is going on, remove that lock file. '
          + 'Nothing was written');
      }
      if (attempt >= 2) {
        throw new CliError(`${option}: cannot lock "${dir}": another run keeps taking over its lock (${path}); `
          + 'nothing was written');
      }
      const who = held ? `pid ${held.pid}, started ${held.startedAt}: "${held.command}"` : 'unreadable';
      note(`notice: ${path} was left by a run that is no longer going on (${who}); this run takes it over`);
      // Removed only if it is still that stale lock (another run may have just taken it over).
      const again = readLock(path);
      if (JSON.stringify(again) === JSON.stringify(held)) rmSync(path, { force: true });
    }
  } finally {
    rmSync(aside, { force: true });
  }
  removeDeadTemporaries(dir);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    if (readLock(path)?.pid === process.pid) rmSync(path, { force: true });
    try { for (const d of made) rmdirSync(d); } catch { /* not empty: the run wrote into it */ }
  };
  process.once('exit', release); // also after process.exit (a second Ctrl-C)
  return release;
}
