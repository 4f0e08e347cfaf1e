// No import cycle anywhere under src/, type-only imports included: a module that imports the
// store's state type must not be imported back by the store (labState.ts holds the type for that).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

function target(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** Every relative import or re-export of each file (static, dynamic and type-only). */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of files(ROOT)) {
    const src = readFileSync(f, 'utf8');
    const specs = [...src.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s+['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g)]
      .map((m) => m[1] ?? m[2] ?? '');
    g.set(f, specs.map((s) => target(f, s)).filter((t): t is string => t !== null));
  }
  return g;
}

function cycles(g: Map<string, string[]>): string[][] {
  const found: string[][] = [], state = new Map<string, 1 | 2>(), stack: string[] = [];
  const visit = (v: string) => {
    state.set(v, 1);
    stack.push(v);
    for (const w of g.get(v) ?? []) {
      if (state.get(w) === 1) found.push(stack.slice(stack.indexOf(w)).map((p) => relative(ROOT, p)));
      else if (!state.get(w)) visit(w);
    }
    stack.pop();
    state.set(v, 2);
  };
  for (const f of g.keys()) if (!state.get(f)) visit(f);
  return found;
}

describe('imports', () => {
  it('the detector finds a cycle where there is one (a ↔ b)', () => {
    const a = join(ROOT, 'a.ts'), b = join(ROOT, 'b.ts'), c = join(ROOT, 'c.ts');
    expect(cycles(new Map([[a, [b]], [b, [a]], [c, [a]]]))).toEqual([['a.ts', 'b.ts']]);
  });
  it('src/ has no import cycle', () => {
    const g = graph();
    expect(g.size).toBeGreaterThan(100);
    expect(cycles(g)).toEqual([]);
  });
});
