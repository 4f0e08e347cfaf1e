// The core as a library: examples/train-and-export.ts runs through the package's own exports
// (`orchestra-lab/core`, as another project would import it), under 25 lines, and the policy it writes
// is one the CLI evaluates.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchDir, TSX } from './cliHelpers';

const EXAMPLE = 'examples/train-and-export.ts';

describe('the core as a library', () => {
  it('package.json exports the core with its types', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(pkg.exports['./core']).toEqual({ types: './src/core/index.ts', default: './src/core/index.ts' });
  });

  it('the example, under 25 lines and importing only through the exports, trains 200 iterations, evaluates and exports', () => {
    const source = readFileSync(EXAMPLE, 'utf8');
    expect(source.trimEnd().split('\n').length).toBeLessThan(25);
    expect(source).toContain("from 'orchestra-lab/core'");
    expect(source).not.toMatch(/from '\.\.?\//); // nothing from the repository's own paths
    const out = join(scratchDir(), 'policy');
    const r = spawnSync(TSX, [EXAMPLE, out], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const accuracy = Number(/HLE after 200 iterations: ([\d.]+)% at \$[\d.]+ a task/.exec(r.stdout)?.[1]);
    expect(accuracy).toBeGreaterThan(0);
    expect(existsSync(join(out, 'orchestrator.weights.bin'))).toBe(true);
    // The files are a policy the lab's own tools load: eval scores it on the same tasks and finds the same accuracy.
    const e = cli('eval', '--policy', out, '--suite', 'hle', '--count', '300', '--seed', '1000', '--json');
    expect(e.code, e.err).toBe(0);
    expect(100 * JSON.parse(e.out).accuracy).toBeCloseTo(accuracy, 1);
  }, 120_000);
});
