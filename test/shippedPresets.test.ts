// The shipped policy (public/pretrained) follows the instruction presets on tasks it never trained on:
// the preset targets, read from `preferences` (300 tasks per suite, seed 1000, means over
// the three suites). Budget and Fast each weigh the other objective at a quarter (instructionPresets.ts):
// with it at 0, the policy shipped before made Fast slower than the default P.
import { describe, expect, it } from 'vitest';
import { cli } from './cliHelpers';

type Suite = { accuracy: number; meanCostUSD: number; meanLatencyS: number; apiShare: number };
type Row = { preset: string; bySuite: Record<'hle' | 'frames' | 'tau2', Suite> };

describe('the shipped policy follows the instruction presets', () => {
  it('Budget is cheap, Fast is the fastest, Avoid API calls avoids them', () => {
    const r = cli('preferences', '--policy', 'public/pretrained/orchestrator.json', '--count', '300', '--json');
    expect(r.code, r.err).toBe(0);
    const rows = (JSON.parse(r.out) as { rows: Row[] }).rows;
    const mean = (name: string, k: keyof Suite): number => {
      const row = rows.find((x) => x.preset.startsWith(name));
      if (!row) throw new Error(`no row "${name}"`);
      return (row.bySuite.hle[k] + row.bySuite.frames[k] + row.bySuite.tau2[k]) / 3;
    };
    const names = ['Default', 'Accuracy first', 'Budget', 'Fast', 'Avoid API calls'];
    expect(mean('Budget', 'meanCostUSD')).toBeLessThanOrEqual(0.7 * mean('Accuracy first', 'meanCostUSD'));
    for (const other of names.filter((n) => n !== 'Fast')) expect(mean('Fast', 'meanLatencyS'), other).toBeLessThan(mean(other, 'meanLatencyS'));
    expect(mean('Fast', 'meanLatencyS')).toBeLessThanOrEqual(0.8 * mean('Accuracy first', 'meanLatencyS'));
    expect(mean('Avoid API calls', 'apiShare')).toBeLessThanOrEqual(0.6 * mean('Default', 'apiShare'));
  }, 60_000);
});
