// P has one home, TrainConfig.preference: the link's `P` reads into it and is written from it as before
// (old links load), an exported policy keeps it under training.preference as before (old files load),
// and the lab trains on it only under a fixed P. No file merges a second P into a configuration.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readUrl, writeUrl } from '../src/store/urlState';
import type { LabSettings } from '../src/worker/protocol';
import { LabSession } from '../src/worker/session';
import { useCpu } from './tfSetup';

beforeAll(async () => { await useCpu(); });

const SRC = join(import.meta.dirname, '..', 'src');
const sources = (dir: string): string[] => readdirSync(dir).flatMap((f) => {
  const p = join(dir, f);
  return statSync(p).isDirectory() ? sources(p) : /\.tsx?$/.test(f) ? [p] : [];
});

/** Small settings from a link, so that the session builds quickly. */
function settings(search: string): LabSettings {
  const { config, invalid } = readUrl(search);
  expect(invalid).toEqual([]);
  const train = { ...config.train, poolSize: 40, policy: { ...config.train.policy, width: 8, depth: 1 } };
  return { catalog: config.catalog, train, delayMs: 0, evalTasks: 10, evalSuite: 'toolscale' };
}

describe('the preference vector P', () => {
  it('an old link\'s P lands in the training configuration and is written back in the same form', () => {
    const { config } = readUrl('?P=o1,c0,l0.25,gpt-5:0.5&mode=random');
    expect(config.train.preference).toEqual({ outcome: 1, cost: 0, latency: 0.25, tools: { 'gpt-5': 0.5 } });
    expect('preference' in config).toBe(false);
    // The link keeps its commas readable; URLSearchParams writes ":" as %3A.
    expect(writeUrl(config)).toBe('?P=o1,c0,l0.25,gpt-5%3A0.5&mode=random');
  });

  it('an exported policy records the sliders\' P under training.preference, as files did', async () => {
    const session = new LabSession();
    session.configure(settings('?P=o0.5,c1,l0&mode=fixed'));
    const { json } = await session.exportWeights();
    type Meta = { userDefinedMetadata: { training: Record<string, unknown> } };
    const training = (json as Meta).userDefinedMetadata.training;
    expect(training.preference).toEqual({ outcome: 0.5, cost: 1, latency: 0, tools: {} });
    expect(training.preferenceMode).toBe('fixed');
  });

  it('moving P reconfigures training under a fixed P only', () => {
    for (const [mode, expected] of [['fixed', ['settings']], ['random', []]] as const) {
      const session = new LabSession();
      session.configure(settings(`?P=o1,c0,l0&mode=${mode}`));
      expect(session.configure(settings(`?P=o1,c1,l0&mode=${mode}`)), mode).toEqual(expected);
    }
  });

  it('no source file merges a second P into a training configuration', () => {
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      expect(/\.\.\.\w+\.train, preference: \w+\.preference/.test(text), file).toBe(false);
      expect(/preference: (s|lab|accepted|get\(\))\.preference\b/.test(text), file).toBe(false);
    }
  });
});
