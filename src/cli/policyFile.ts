// Loads a trained policy artifact (DIR/orchestrator.json + its weights file) for evaluation. The
// weights file is what the manifest names, and a manifest is a file anyone may have edited: only a
// plain file name in the manifest's own folder is read, only a regular file, and only when its size
// is the byte count the manifest's weights need (checked before a byte is read: "../../dev/zero"
// once grew to 3 GB, a named pipe hung, and "../../etc/passwd" told any file's size).

import { errorMessage } from '../core/errorMessage';
import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import { closeSync, constants, existsSync, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { checkManifest } from '../core/io/artifactCheck';
import { importArtifact } from '../core/io/artifact';
import type { Catalog } from '../core/sim/catalog';
import type { PolicyNetwork } from '../core/policy/network';
import { storedPreferenceError, type Preference } from '../core/preference';
import { CliError } from './args';
import { readJson } from './io';

/**
 * The policy file a --policy value names: a .json path as it is, or a run folder's orchestrator.json
 * (`--policy runs/cost`); null for anything else (a baseline's name).
 */
export function policyPath(spec: string): string | null {
  if (existsSync(spec) && statSync(spec).isDirectory()) {
    const inside = join(spec, 'orchestrator.json');
    if (!existsSync(inside)) throw new CliError(`--policy ${spec} is a folder without orchestrator.json (a run folder holds one)`);
    return inside;
  }
  return spec.endsWith('.json') ? spec : null;
}

/**
 * Loads a policy; with `against` (the catalog it will act in), warns on stderr when that catalog's
 * tools are not the ones it was trained with. The scorer reads each tool's descriptor, so any
 * catalog works, but tools it never saw are scored by extrapolation: figures from such a run are
 * not the trained policy's.
 */
export function loadPolicyFile(spec: string, against?: Catalog): { net: PolicyNetwork; trainedPreference: Preference | null; catalog: Catalog } {
  const path = policyPath(spec) ?? spec;
  const json = readJson(path, 'policy file') as {
    weightsManifest?: { paths?: string[]; weights?: unknown }[];
    userDefinedMetadata?: { training?: { preferenceMode?: string; preference?: Preference } };
  };
  const file = json?.weightsManifest?.[0]?.paths?.[0];
  if (typeof file !== 'string') throw new CliError(`${path}: invalid orchestrator artifact: weightsManifest[0].paths is missing`);
  // The manifest first (shape, order, byte count), so the file's size is checked against it before a byte is read.
  const manifest = checkManifest(json);
  if (!manifest.ok) throw new CliError(`${path}: ${manifest.error}`);
  const weights = readWeightsFile(path, file, manifest.needBytes);
  const loaded = importArtifact(json, weights);
  if (!loaded.ok) throw new CliError(`${path}: ${loaded.error}`);
  const t = json.userDefinedMetadata?.training;
  if (t?.preferenceMode === 'fixed' && t.preference !== undefined) {
    const bad = storedPreferenceError(t.preference);
    if (bad) throw new CliError(`${path}: invalid orchestrator artifact: userDefinedMetadata.training.preference: ${bad}`);
  }
  if (against) warnOnOtherTools(path, loaded.catalog, against);
  return { net: loaded.net, trainedPreference: t?.preferenceMode === 'fixed' && t.preference ? t.preference : null, catalog: loaded.catalog };
}

function warnOnOtherTools(path: string, trained: Catalog, used: Catalog): void {
  const before = new Set(trained.tools.filter((t) => t.enabled).map((t) => t.id));
  const now = new Set(used.tools.filter((t) => t.enabled).map((t) => t.id));
  const added = [...now].filter((id) => !before.has(id));
  const gone = [...before].filter((id) => !now.has(id));
  if (!added.length && !gone.length) return;
  const list = (xs: string[]) => (xs.length > 4 ? `${xs.slice(0, 4).join(', ')} and ${xs.length - 4} more` : xs.join(', '));
  process.stderr.write(`warning: ${path} was trained with catalog "${trained.name}"; catalog "${used.name}" ${[added.length ? `adds ${list(added)}` : '',
    gone.length ? `lacks ${list(gone)}` : ''].filter(Boolean).join(' and ')}: tools it never saw are scored by extrapolation\n`);
}

/**
 * The weights file `name` beside the manifest at `manifestPath`: a plain file name (no folder, no
 * "..") of a regular file inside that folder (a link is followed only to a file in the same
 * folder) whose size is `need` bytes. Opened without blocking (a pipe never holds the command up)
 * and checked again on the open file before reading.
 */
export function readWeightsFile(manifestPath: string, name: string, need: number): Uint8Array {
  const dir = dirname(manifestPath), full = join(dir, name);
  const refuse = (why: string) =>
    new CliError(`${manifestPath}: the weights file it names, "${name}", ${why}; nothing was read`);
  const plain = name !== '' && name === basename(name) && name !== '.' && name !== '..'
    && !name.includes('\\') && !name.includes('\0');
  if (!plain) throw refuse('is not a plain file name in the folder of orchestrator.json (its weights lie beside it)');
  let real: string;
  try {
    real = realpathSync(full);
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code ?? errorMessage(e);
    throw new CliError(`cannot read weights file "${full}": ${why}`);
  }
  const fromDir = relative(realpathSync(dir), real);
  if (fromDir !== basename(real) || isAbsolute(fromDir)) throw refuse('is a link to a file outside that folder');
  if (!statSync(real).isFile()) throw refuse('is not a regular file');
  const fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw refuse('is not a regular file');
    if (st.size !== need) {
      throw new CliError(`${manifestPath}: invalid orchestrator artifact: ${name} has ${st.size} bytes, `
        + `the manifest needs ${need}`);
    }
    const bytes = new Uint8Array(need);
    for (let at = 0; at < need;) {
      const n = readSync(fd, bytes, at, need - at, at);
      if (n === 0) throw new CliError(`${manifestPath}: ${name} ended after ${at} of its ${need} bytes (it changed)`);
      at += n;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}
