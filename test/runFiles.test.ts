// A run's files when the disk fills up (issue 33, case 9): a checkpoint that cannot be written
// replaces nothing and says so truly, leaves no orphan weights file and no temporaries, so --out can
// be used again and --resume goes on. The failure is injected into the writes (node:fs mocked), and
// tried for real on a 64 KB filesystem where this machine lets a test mount one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync as realWrite } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli, scratchDir } from './cliHelpers';

/** The next write of a file whose name matches `which` fails with ENOSPC (after part of it, as a full disk does). */
const failing: { which: RegExp | null } = { which: null };
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  type Path = Parameters<typeof fs.writeFileSync>[0];
  const writeFileSync = ((path: Path, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (failing.which && typeof path === 'string' && failing.which.test(path)) {
      failing.which = null;
      const part = typeof data === 'string' ? data.slice(0, 10) : new Uint8Array(data.buffer, data.byteOffset, 10);
      fs.writeFileSync(path, part);
      throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    }
    return (fs.writeFileSync as (...a: unknown[]) => void)(path, data, ...rest);
  }) as typeof fs.writeFileSync;
  return { ...fs, writeFileSync, default: { ...fs, writeFileSync } };
});

const { writeArtifactPair } = await import('../src/cli/io');

const dir = scratchDir();
const manifest = (tag: string) => ({ weightsManifest: [{ paths: ['orchestrator.weights.bin'], weights: [] }], tag });
const weightsOf = (x: number) => new Uint8Array(new Float32Array(16).fill(x).buffer);
/** Fails the n-th temporary written from now on (a pair writes weights, metrics.jsonl, orchestrator.json). */
const failTemporary = (n: number) => {
  let k = 0;
  failing.which = { test: (p: string) => /\.tmp-\d+$/.test(p) && k++ === n } as RegExp;
};

afterEach(() => { failing.which = null; });

describe('a checkpoint on a full disk', () => {
  it('the first checkpoint: nothing is replaced (metrics.jsonl included), no orphan weights, no temporaries', () => {
    for (const [n, which] of ['weights', 'metrics', 'manifest'].entries()) {
      const out = join(dir, `first-${which}`);
      mkdirSync(out);
      realWrite(join(out, 'metrics.jsonl'), 'before\n'); // what the folder held before
      failTemporary(n);
      const metrics = [{ path: join(out, 'metrics.jsonl'), data: 'after\n' }];
      expect(() => writeArtifactPair(out, manifest('new'), weightsOf(1), metrics))
        .toThrow(/ENOSPC; nothing was replaced$/);
      expect(readdirSync(out), which).toEqual(['metrics.jsonl']);
      expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8')).toBe('before\n');
    }
  });

  it('a later checkpoint: the pair before it stays whole and named, the new weights file is removed', () => {
    const out = join(dir, 'later');
    mkdirSync(out);
    const metrics = (data: string) => [{ path: join(out, 'metrics.jsonl'), data }];
    const first = writeArtifactPair(out, manifest('one'), weightsOf(1), metrics('one\n'));
    failTemporary(2); // the manifest's: the new weights are written by then
    expect(() => writeArtifactPair(out, manifest('two'), weightsOf(2), metrics('one\ntwo\n')))
      .toThrow(/nothing was replaced$/);
    expect(readdirSync(out).sort()).toEqual(['metrics.jsonl', 'orchestrator.json', first].sort());
    const m = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(m.tag).toBe('one');
    expect(m.weightsManifest[0].paths).toEqual([first]);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8')).toBe('one\n');
    // The next checkpoint, with room again, writes its pair and removes the old weights.
    const third = writeArtifactPair(out, manifest('three'), weightsOf(3), metrics('one\ntwo\nthree\n'));
    expect(readdirSync(out).sort()).toEqual(['metrics.jsonl', 'orchestrator.json', third].sort());
  });
});

/** A 144 KB tmpfs, where this machine lets a test mount one (root), else null. */
function tinyFilesystem(): string | null {
  const at = join(dir, 'tiny');
  mkdirSync(at, { recursive: true });
  return spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=144k', 'tmpfs', at]).status === 0 ? at : null;
}

describe('on a real 144 KB filesystem', () => {
  const tiny = tinyFilesystem();
  it.skipIf(!tiny)('a checkpoint that does not fit leaves the one before and no orphan; --resume goes on', () => {
    try {
      // A pair takes 72 KB in 4 KB pages (weights 56,072 bytes, orchestrator.json ≈ 9 KB, metrics ≈ 1 KB).
      // With 8 KB taken, the first checkpoint fits, and the second's weights do but not its manifest:
      // 72 + 8 + 4 + 56 = 140 KB ≤ 144, + 12 > 144.
      const filler = join(tiny as string, 'filler');
      realWrite(filler, new Uint8Array(8 * 1024));
      const out = join(tiny as string, 'run');
      // Seed 1: iteration 2 updates the policy, so the final pair's weights are new.
      const sizes = ['--batch', '4', '--group', '4', '--pool', '100', '--seed', '1'];
      const r = cli('train', '--iterations', '2', ...sizes, '--checkpoint-every', '1', '--out', out);
      expect(r.code, r.err).toBe(2);
      // It says what the folder kept, what was lost and how to go on, as Ctrl-C does.
      expect(r.err).toMatch(/ENOSPC; nothing was replaced\. \S+\/run keeps iteration 1 \(iteration 2 is lost\); go on with: npm run cli -- train --resume \S+\/run --iterations 2\n$/);
      const m = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
      // No orphan, no temporaries, no lock.
      const pair = ['metrics.jsonl', 'orchestrator.json', m.weightsManifest[0].paths[0]];
      expect(readdirSync(out).sort()).toEqual(pair.sort());
      expect(m.userDefinedMetadata.training.iterations).toBe(1);
      expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
      rmSync(filler);
      const resumed = cli('train', '--resume', out, '--iterations', '3');
      expect(resumed.code, resumed.err).toBe(0);
    } finally {
      spawnSync('umount', [tiny as string]);
    }
  });
});
