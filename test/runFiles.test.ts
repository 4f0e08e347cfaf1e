// A run's files when the disk fills up (issue 33, case 9): a checkpoint that cannot be written
// replaces nothing and says so truly, leaves no orphan weights file and no temporaries, so --out can
// be used again and --resume goes on. The failure is injected into the writes (node:fs mocked), and
// tried for real on a 64 KB filesystem where this machine lets a test mount one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync as realWrite } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cli, scratchDir } from './cliHelpers';

/** The next write of a file whose name matches `which` fails with ENOSPC (after writing part of it, as a full disk does). */
const failing: { which: RegExp | null } = { which: null };
vi.mock('node:fs', async (original) => {
  const fs = await original<typeof import('node:fs')>();
  const writeFileSync = ((path: Parameters<typeof fs.writeFileSync>[0], data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
    if (failing.which && typeof path === 'string' && failing.which.test(path)) {
      failing.which = null;
      fs.writeFileSync(path, typeof data === 'string' ? data.slice(0, 10) : new Uint8Array(data.buffer, data.byteOffset, 10));
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
/** Fails the n-th temporary written from now on (a pair's are written weights, metrics.jsonl, orchestrator.json, in that order). */
const failTemporary = (n: number) => {
  let k = 0;
  failing.which = { test: (p: string) => /\.tmp-\d+$/.test(p) && k++ === n } as RegExp;
};

afterEach(() => { failing.which = null; });

describe('a checkpoint on a full disk', () => {
  it('the first checkpoint: nothing is replaced (metrics.jsonl included), no orphan weights file, no temporaries', () => {
    for (const [n, which] of ['weights', 'metrics', 'manifest'].entries()) {
      const out = join(dir, `first-${which}`);
      mkdirSync(out);
      realWrite(join(out, 'metrics.jsonl'), 'before\n'); // what the folder held before
      failTemporary(n);
      expect(() => writeArtifactPair(out, manifest('new'), weightsOf(1), [{ path: join(out, 'metrics.jsonl'), data: 'after\n' }]))
        .toThrow(/ENOSPC; nothing was replaced$/);
      expect(readdirSync(out), which).toEqual(['metrics.jsonl']);
      expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8')).toBe('before\n');
    }
  });

  it('a later checkpoint: the pair before it stays whole and named, the new weights file is removed', () => {
    const out = join(dir, 'later');
    mkdirSync(out);
    const first = writeArtifactPair(out, manifest('one'), weightsOf(1), [{ path: join(out, 'metrics.jsonl'), data: 'one\n' }]);
    failTemporary(2); // the manifest's: the new weights are written by then
    expect(() => writeArtifactPair(out, manifest('two'), weightsOf(2), [{ path: join(out, 'metrics.jsonl'), data: 'one\ntwo\n' }])).toThrow(/nothing was replaced$/);
    expect(readdirSync(out).sort()).toEqual(['metrics.jsonl', 'orchestrator.json', first].sort());
    const m = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(m.tag).toBe('one');
    expect(m.weightsManifest[0].paths).toEqual([first]);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8')).toBe('one\n');
    // The next checkpoint, with room again, writes its pair and removes the old weights.
    const third = writeArtifactPair(out, manifest('three'), weightsOf(3), [{ path: join(out, 'metrics.jsonl'), data: 'one\ntwo\nthree\n' }]);
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
  it.skipIf(!tiny)('a checkpoint that does not fit leaves the one before whole and no orphan; once space is freed, --resume goes on', () => {
    try {
      // A pair takes 68 KB in 4 KB pages (weights 52,744 bytes, orchestrator.json ≈ 9 KB, metrics ≈ 1 KB).
      // With 16 KB taken, the first checkpoint fits, and the second's weights do but not its manifest:
      // 68 + 16 + 4 + 52 = 140 KB ≤ 144, + 12 > 144.
      const filler = join(tiny as string, 'filler');
      realWrite(filler, new Uint8Array(16 * 1024));
      const out = join(tiny as string, 'run');
      // Seed 3: iteration 1 updates nothing (every group filtered), iteration 2 does, so the final pair's weights are new.
      const r = cli('train', '--iterations', '2', '--batch', '4', '--group', '4', '--pool', '100', '--seed', '3', '--checkpoint-every', '1', '--out', out);
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/ENOSPC; nothing was replaced\n$/);
      const m = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
      expect(readdirSync(out).sort()).toEqual(['metrics.jsonl', 'orchestrator.json', m.weightsManifest[0].paths[0]].sort()); // no orphan, no temporaries, no lock
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
