// tfjs must never load on the page: its URL-flag parser would read the page's query (a stray "%"
// in a link stops the page). The page's module graph, from src/ui/main.tsx along every value
// import (type-only imports and Web Workers excluded), must not reach @tensorflow.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) if (existsSync(candidate) && !candidate.endsWith('/')) {
    try { readFileSync(candidate); return candidate; } catch { /* a folder */ }
  }
  return null;
}

/**
 * Every bare package the page's value imports reach, with one path to it; the modules walked; relative imports not
 * found. `dynamic`: import() counts too (a chunk fetched later); without it, only what loads with the page.
 */
function pagePackages(entry: string, dynamic = true): { packages: Map<string, string[]>; seen: Set<string>; unresolved: string[] } {
  const seen = new Set<string>(), packages = new Map<string, string[]>(), unresolved: string[] = [];
  const walk = (file: string, path: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(IMPORT)) {
      if (!dynamic && m[1] === undefined) continue;
      const spec = (m[1] ?? m[2]) as string;
      // `import { x, type Y } from` is a value import; `import type { … }` is skipped by the pattern.
      if (spec.startsWith('.')) {
        const next = resolveModule(file, spec.replace(/\?.*$/, ''));
        if (!next) unresolved.push(`${spec} from ${file}`);
        else if (/\.(ts|tsx)$/.test(next)) walk(next, [...path, next]);
      } else if (!packages.has(spec)) packages.set(spec, path);
    }
  };
  walk(resolve(entry), [resolve(entry)]);
  return { packages, seen, unresolved };
}

describe('the page does not load tfjs', () => {
  it('no value import from src/ui/main.tsx reaches @tensorflow (workers are separate bundles)', () => {
    const { packages, seen, unresolved } = pagePackages('src/ui/main.tsx');
    expect(unresolved).toEqual([]); // every relative import was followed
    expect([...seen].some((f) => f.endsWith('src/core/grpo/phaseNames.ts'))).toBe(true); // the walk reaches the core
    const tf = [...packages.entries()].filter(([p]) => p.startsWith('@tensorflow'));
    expect(tf.map(([p, path]) => `${p} via ${path.map((f) => f.replace(/^.*\/src\//, 'src/')).join(' → ')}`)).toEqual([]);
    // The walk itself works: the page's own libraries are found.
    expect(packages.has('react')).toBe(true);
    expect(packages.has('zustand')).toBe(true);
    expect(packages.has('katex')).toBe(true);
  });

  it('KaTeX is not part of the page\'s first load: the first formula shown fetches it (a chunk of its own)', () => {
    const first = pagePackages('src/ui/main.tsx', false).packages;
    expect([...first.keys()].filter((p) => p.startsWith('katex'))).toEqual([]);
    expect(first.has('react')).toBe(true);
  });
});
