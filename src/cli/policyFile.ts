// Loads a trained policy artifact (DIR/orchestrator.json + its weights file) for evaluation.

import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { importArtifact } from '../core/io/artifact';
import type { PolicyNetwork } from '../core/policy/network';
import { storedPreferenceError, type Preference } from '../core/preference';
import { CliError } from './args';
import { readJson } from './io';

export function loadPolicyFile(path: string): { net: PolicyNetwork; trainedPreference: Preference | null } {
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
  return { net: loaded.net, trainedPreference: t?.preferenceMode === 'fixed' && t.preference ? t.preference : null };
}
