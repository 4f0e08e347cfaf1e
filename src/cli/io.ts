// File input/output of the CLI: catalogs from a preset name or a file, JSON files, output
// locations checked before any work, and writes that never leave a half-written file or a mixed
// policy pair (temporary names, renames, content-named weights; temporaries removed on failure).

import { errorMessage } from '../core/errorMessage';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync,
  unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Catalog } from '../core/sim/catalog';
import { parseCatalogJson } from '../core/sim/catalogSchema';
import { WEIGHTS_FILE_NAME, weightsFingerprint } from '../core/io/artifactCheck';
import { PRESET_NAMES, presetByName, presetCatalog } from '../core/sim/presets';
import { parsePreference, type Preference } from '../core/preference';
import { CliError } from './args';

export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/^\uFEFF/, ''); // a byte-order mark (some editors write one) is no part of the JSON
  } catch (e) {
    throw new CliError(`cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`);
  }
}

export function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${what} "${path}" is not valid JSON: ${errorMessage(e)}`);
  }
}

/** A preset name, or a path to a catalog JSON file (validated). */
export function loadCatalog(spec: string): Catalog {
  if (presetByName(spec)) return presetCatalog(spec);
  if (!spec.includes('/') && !spec.endsWith('.json')) {
    throw new CliError(`unknown catalog preset "${spec}" (presets: ${PRESET_NAMES.join(', ')}; or give a path to a catalog .json file)`);
  }
  const parsed = parseCatalogJson(readText(spec, 'catalog file'));
  if (!parsed.ok) throw new CliError(`${spec}: ${parsed.error}`);
  return parsed.value;
}

export function loadPreference(path: string, catalog: Catalog): Preference {
  const parsed = parsePreference(readJson(path, 'preference file'), catalog);
  if (!parsed.ok) throw new CliError(`${path}: ${parsed.error}`);
  return parsed.value;
}

/**
 * Checks, before any work, that `path` can be written as a file: not a directory, and its folder
 * creatable and writable (probed by writing a file in it, or in the nearest folder above it that
 * exists: permission bits alone say nothing to root).
 */
export function checkOutputFile(path: string, option: string): void {
  const target = outputTarget(path, option);
  probeWritable(dirname(target) || '.', option);
}

/** What a file that is not a regular one is, for the message that refuses to replace it. */
function kindOf(st: Stats): string | null {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return null;
}

/**
 * Where a write to `path` goes: the path itself, or a symbolic link's target (written through:
 * the link stays a link). Refused: a directory, a named pipe, a socket or a device — a write
 * lands by renaming a temporary file onto its path, which would replace such a thing, not write
 * into it — and a link to nothing.
 */
function outputTarget(path: string, option: string): string {
  let st: Stats;
  try { st = lstatSync(path); } catch { return path; } // nothing there yet
  let target = path;
  if (st.isSymbolicLink()) {
    try { target = realpathSync(path); } catch { throw new CliError(`${option} "${path}" is a link to nothing; give a file name`); }
    st = statSync(target);
  }
  const kind = kindOf(st);
  if (kind) throw new CliError(`${option} "${path}" is ${kind}${target !== path ? ` ("${target}")` : ''}; give a file name (nothing was written)`);
  return target;
}

/** Checks, before any work, that `dir` is (or can be made) a writable directory. */
export function checkOutputDir(dir: string, option: string): void {
  if (existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`${option} "${dir}" is an existing file; give a directory`);
  probeWritable(dir, option);
}

/** Probed in the nearest folder on the path that exists: nothing is created before there is something to write (a refused command leaves no empty folders). */
function probeWritable(dir: string, option: string): void {
  let at = dir || '.';
  while (!existsSync(at)) {
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  try {
    if (!statSync(at).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
    const probe = join(at, `.${process.pid}.tmp-probe`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (e) {
    throw new CliError(`${option}: cannot write in "${dir}": ${(e as NodeJS.ErrnoException).code ?? errorMessage(e)}`);
  }
}

/**
 * Writes all files or none: each goes to a temporary sibling first (.PID.tmp-N: a killed run's are
 * removed by the next run in that folder, runLock.ts), then all are renamed. On a failure the
 * temporaries are removed and the message says what was replaced: nothing, unless a rename itself
 * failed after others had landed (a file that is new there is not counted as replaced).
 */
export function writeFilesAtomically(files: readonly { path: string; data: string | Uint8Array }[]): void {
  const temps: { tmp: string; path: string }[] = [];
  const replaced: string[] = [];
  try {
    for (const f of files) {
      const path = outputTarget(f.path, 'cannot write:');
      mkdirSync(dirname(path) || '.', { recursive: true });
      const tmp = join(dirname(path), `.${process.pid}.tmp-${tempCount++}`);
      temps.push({ tmp, path });
      writeFileSync(tmp, f.data);
    }
    for (const t of temps) {
      const existed = existsSync(t.path);
      renameSync(t.tmp, t.path);
      if (existed) replaced.push(t.path);
    }
  } catch (e) {
    for (const t of temps) rmSync(t.tmp, { force: true });
    if (e instanceof CliError) throw e;
    const quoted = (paths: readonly string[]) => paths.map((p) => `"${p}"`).join(', ');
    const what = replaced.length
      ? `only ${quoted(replaced)} ${replaced.length === 1 ? 'was' : 'were'} replaced`
      : 'nothing was replaced';
    const why = (e as NodeJS.ErrnoException).code ?? errorMessage(e);
    throw new CliError(`could not write ${quoted(files.map((f) => f.path))}: ${why}; ${what}`);
  }
}

/** Temporaries of this process so far: each gets a name of its own. */
let tempCount = 0;

/**
 * Writes a policy artifact into `dir` so that a reader sees the old pair or the new one, never a
 * mix: every file goes to a temporary first (a full disk fails there, with nothing replaced); the
 * weights land under a new name after their content (orchestrator.weights.<fp>.bin, never an
 * overwrite), the `extra` files (a run's metrics journal, runMetrics.ts) next, and then the manifest
 * that names the weights replaces orchestrator.json in one rename. Only then are weights files no manifest names any more
 * removed; if anything fails before, the new weights file is removed too (an orphan would block
 * reusing --out, and take the space the next try needs).
 */
export function writeArtifactPair(dir: string, json: { weightsManifest: { paths: string[] }[] }, weights: Uint8Array,
  extra: readonly { path: string; data: string | Uint8Array }[] = []): string {
  const name = `orchestrator.weights.${weightsFingerprint(weights)}.bin`;
  const manifest = { ...json, weightsManifest: json.weightsManifest.map((m, i) => (i === 0 ? { ...m, paths: [name] } : m)) };
  const weightsPath = join(dir, name);
  // The same weights as a pair already written (no update since): kept as they are, not written again.
  const existed = existsSync(weightsPath) && Buffer.from(weights).equals(readFileSync(weightsPath));
  try {
    writeFilesAtomically([
      ...(existed ? [] : [{ path: weightsPath, data: weights }]),
      ...extra,
      { path: join(dir, 'orchestrator.json'), data: JSON.stringify(manifest) },
    ]);
  } catch (e) {
    if (!existed && !manifestNames(dir, name)) rmSync(weightsPath, { force: true });
    throw e;
  }
  for (const f of readdirSync(dir)) {
    if (f !== name && WEIGHTS_FILE_NAME.test(f)) rmSync(join(dir, f), { force: true });
  }
  return name;
}

/** Whether DIR/orchestrator.json names `weights` (read back as it is on disk now). */
function manifestNames(dir: string, weights: string): boolean {
  try {
    type Names = { weightsManifest?: { paths?: unknown[] }[] } | null;
    const m = JSON.parse(readFileSync(join(dir, 'orchestrator.json'), 'utf8')) as Names;
    return m?.weightsManifest?.[0]?.paths?.[0] === weights;
  } catch {
    return false;
  }
}
