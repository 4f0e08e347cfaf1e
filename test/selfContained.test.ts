// A fresh clone has only the repository: nothing under src/, test/, e2e/, scripts/, docs/ (nor the
// README and the pages) may read or cite the team's folder beside it. The reference data the tests
// use lives in test/fixtures/ with its provenance; the design a reader needs lives in docs/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const team = 'sha' + 'red'; // spelt in two parts so that this file does not match itself
const patterns = [
  new RegExp(`\\.\\./${team}\\b`),
  new RegExp(`\\b${team}/(reference|seeds|hooks|DESIGN)`),
  new RegExp(`['"]\\.\\.['"]\\s*,\\s*['"]${team}['"]`),
];
const TEXT = /\.(ts|tsx|mjs|js|json|md|py|wat|html|css|sh)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'node_modules' ? [] : files(p);
    return TEXT.test(name) ? [p] : [];
  });
}

describe('the repository is self-contained', () => {
  it('no file reads or cites the folder beside the clone', () => {
    const scanned = [...['src', 'test', 'e2e', 'scripts', 'docs', 'public'].flatMap((d) => files(join(root, d))),
      ...['README.md', 'index.html', 'bench.html', 'package.json', 'vite.config.ts', 'playwright.config.ts'].map((f) => join(root, f))];
    expect(scanned.length).toBeGreaterThan(100);
    const hits = scanned.flatMap((p) => {
      const text = readFileSync(p, 'utf8');
      return text.split('\n').flatMap((line, i) => (patterns.some((re) => re.test(line)) ? [`${relative(root, p)}:${i + 1}: ${line.trim().slice(0, 120)}`] : []));
    });
    expect(hits).toEqual([]);
  });

  it('the patterns catch what they are meant to catch', () => {
    const cases = [`join(process.cwd(), '..', '${team}', 'reference', 'x.json')`, `see ../${team}/DESIGN.md`, `${team}/reference/verl-reference.json`];
    for (const c of cases) expect(patterns.some((re) => re.test(c)), c).toBe(true);
    expect(patterns.some((re) => re.test('a shared per-step factor; shared scorer'))).toBe(false);
  });
});
