// Loads a trained policy artifact (DIR/orchestrator.json + its weights file) for evaluation.

import { dirname, join } from 'node:path';
import { existsSync, readFileSync, statSync } from 'node:fs';
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
  const json = readJson(path, 'policy file') as { weightsManifest?: { paths?: string[] }[]; userDefinedMetadata?: { training?: { preferenceMode?: string; preference?: Preference } } };
  const file = json?.weightsManifest?.[0]?.paths?.[0];
  if (typeof file !== 'string') throw new CliError(`${path}: invalid orchestrator artifact: weightsManifest[0].paths is missing`);
  let weights: Buffer;
  try {
    weights = readFileSync(join(dirname(path), file));
  } catch (e) {
    throw new CliError(`cannot read weights file "${join(dirname(path), file)}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const loaded = importArtifact(json, new Uint8Array(weights));
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
  process.stderr.write(`warning: ${path} was trained with catalog "${trained.name}"; catalog "${used.name}" ${[added.length ? `adds ${list(added)}` : '', gone.length ? `lacks ${list(gone)}` : ''].filter(Boolean).join(' and ')}: tools it never saw are scored by extrapolation\n`);
}
