import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const TSX = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const cli = (...args: string[]) => {
  const r = spawnSync(TSX, ['src/cli/main.ts', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const dir = mkdtempSync(join(tmpdir(), 'orchestra-cli-'));

describe('command line', () => {
  it('catalog prints a preset that loads back as a catalog file', () => {
    const r = cli('catalog', '--preset', 'seed-004');
    expect(r.code).toBe(0);
    const file = join(dir, 'seed.json');
    writeFileSync(file, r.out);
    const e = cli('eval', '--policy', 'cheapest', '--catalog', file, '--count', '50', '--json');
    expect(e.code).toBe(0);
    expect(JSON.parse(e.out).catalog).toBe('seed-004');
  });

  it('generate writes JSONL that is byte-identical for the same seed', () => {
    const a = join(dir, 'a.jsonl'), b = join(dir, 'b.jsonl');
    expect(cli('generate', '--catalog', 'toolorchestra', '--seed', '5', '--count', '40', '--out', a).code).toBe(0);
    expect(cli('generate', '--catalog', 'toolorchestra', '--seed', '5', '--count', '40', '--out', b).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    expect(readFileSync(a, 'utf8').trim().split('\n')).toHaveLength(40);
  });

  it('eval prints one JSON object with the promised fields, and uses the preference file', () => {
    const pref = join(dir, 'p.json');
    writeFileSync(pref, JSON.stringify({ outcome: 1, cost: 0.5, latency: 0 }));
    const r = cli('eval', '--policy', 'tools+gpt-5', '--catalog', 'toolorchestra', '--seed', '11', '--count', '200', '--preference', pref, '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ policy: 'tools+gpt-5', n: 200 });
    for (const k of ['accuracy', 'meanCostUSD', 'meanLatencyS', 'score']) expect(typeof j[k]).toBe('number');
    expect(Object.keys(j.callsPerTask)).toContain('gpt-5');
  });

  it('bad arguments exit non-zero with one clear line and write nothing', () => {
    const out = join(dir, 'never.jsonl');
    const cases: [string[], RegExp][] = [
      [['generate', '--catalog', 'nope', '--out', out], /unknown catalog preset "nope"/],
      [['generate', '--catalog', join(dir, 'missing.json'), '--out', out], /cannot read catalog file .*ENOENT/],
      [['eval', '--policy', 'tools+gpt-9'], /no tool "gpt-9"/],
      [['eval', '--policy', 'cheapest', '--count', 'many'], /--count must be an integer/],
      [['eval', '--policy', 'cheapest', '--seeds', '3'], /unknown option --seeds/],
      [['frobnicate'], /unknown command "frobnicate"/],
    ];
    const badCatalog = join(dir, 'bad.json');
    writeFileSync(badCatalog, JSON.stringify({ name: 'x', currency: 'USD', tools: [] }));
    cases.push([['generate', '--catalog', badCatalog, '--out', out], /invalid catalog: orchestrator/]);
    for (const [args, msg] of cases) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.err.trim().split('\n')[0]).toMatch(msg);
      expect(r.err).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    }
    expect(existsSync(out)).toBe(false);
  });

  it('frontier prints every family with an AIQ', () => {
    const r = cli('frontier', '--count', '200', '--seed', '4', '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.families.map((f: { family: string }) => f.family)).toEqual(['random', 'cheapest', 'always', 'tools+model', 'cascade', 'oracle']);
    for (const f of j.families) expect(f.aiq).toBeGreaterThanOrEqual(0);
  });
});
