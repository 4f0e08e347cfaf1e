// File input/output of the CLI: catalogs from a preset name or a file, JSON files, and writes
// that never leave a half-written file (write to a temporary name, then rename).

import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Catalog } from '../core/sim/catalog';
import { parseCatalogJson } from '../core/sim/catalogSchema';
import { PRESET_NAMES, PRESETS, presetCatalog } from '../core/sim/presets';
import { parsePreference, type Preference } from '../core/preference';
import { CliError } from './args';

export function readText(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new CliError(`cannot read ${what} "${path}": ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

export function readJson(path: string, what: string): unknown {
  const text = readText(path, what);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`${what} "${path}" is not valid JSON: ${(e as Error).message}`);
  }
}

/** A preset name, or a path to a catalog JSON file (validated). */
export function loadCatalog(spec: string): Catalog {
  if (PRESETS[spec]) return presetCatalog(spec);
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

/** Writes all files or none: each goes to a temporary sibling first, then all are renamed. */
export function writeFilesAtomically(files: readonly { path: string; data: string | Uint8Array }[]): void {
  const temps: { tmp: string; path: string }[] = [];
  for (const f of files) {
    mkdirSync(dirname(f.path) || '.', { recursive: true });
    const tmp = join(dirname(f.path), `.${process.pid}.tmp-${temps.length}`);
    writeFileSync(tmp, f.data);
    temps.push({ tmp, path: f.path });
  }
  for (const t of temps) renameSync(t.tmp, t.path);
}
