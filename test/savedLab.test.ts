// The check of a lab kept in this browser, before anything of it is used: this version's record with
// its bad curve points dropped and counted, a newer lab's record, and records the page cannot read,
// each with its reason. The points are written by hand here, not taken from the lab's own output.
import { describe, expect, it } from 'vitest';
import { goodPoints, readStoredLab } from '../src/store/savedLab';

/** A curve point with every field the page reads. */
const point = (iteration: number, extra: Record<string, unknown> = {}) => ({
  iteration, meanReward: 0.5, accuracy: 0.25, meanCostUSD: 0.01, meanLatencyS: 30, rewardStd: 0.1, meanAbsAdvantage: 0.7,
  kl: Number.NaN, entropy: 1.2, clipFrac: 0, filteredFrac: 0.25, loss: 0.01, gradNorm: 0.3, learningRate: 0.0015,
  meanTurns: 4, wallMs: 40, rolloutTurns: 9, callsPerTask: { 'gpt-5': 0.5 }, timings: { rolloutMs: 20, rewardMs: 1, updateMs: 19 },
  decisions: { rollout: 400, rolloutPairs: 3000, trained: 300, trainedPairs: 2200 }, ...extra,
});
const record = (extra: Record<string, unknown> = {}) => ({
  version: 1, savedAt: 1_765_000_000_000, query: '?B=4', iteration: 3, json: { format: 'layers-model' },
  weights: new ArrayBuffer(16), history: [point(1), point(2), point(3)], ...extra,
});

describe('a stored lab, checked', () => {
  it('a whole record is read as it is, with no point dropped', () => {
    const r = readStoredLab(record());
    expect(r.kind).toBe('lab');
    if (r.kind !== 'lab') return;
    expect(r.droppedPoints).toBe(0);
    expect(r.lab.history.map((p) => p.iteration)).toEqual([1, 2, 3]);
    expect(r.lab).toMatchObject({ iteration: 3, query: '?B=4' });
  });

  it('keeps every good point and counts the others: null, a wrong type, a missing field, out of order, past the record', () => {
    const history = [point(1), null, point(2, { accuracy: 'high' }), point(2), { ...point(3), timings: undefined },
      point(2), point(3), point(4), 'x', point(1.5)];
    expect(goodPoints(history, 3).map((p) => p.iteration)).toEqual([1, 2, 3]);
    const r = readStoredLab(record({ history }));
    expect(r).toMatchObject({ kind: 'lab', droppedPoints: 7 });
  });

  it('a record of a higher version is a newer lab\'s, with what it says of itself', () => {
    expect(readStoredLab({ version: 2, iteration: 7, savedAt: 5, anything: true }))
      .toEqual({ kind: 'newer', version: 2, iteration: 7, savedAt: 5 });
  });

  it('a record the page cannot read says why', () => {
    const cases: [unknown, string][] = [
      ['garbage', 'it is a string, not a saved lab'],
      [null, 'it is null, not a saved lab'],
      [[1, 2], 'it is a list, not a saved lab'],
      [record({ version: 0 }), 'its version is 0 (this page reads version 1)'],
      [record({ version: undefined }), 'its version is missing (this page reads version 1)'],
      [record({ savedAt: 'yesterday' }), 'its save time is missing'],
      [record({ query: 5 }), 'its settings are missing or too long'],
      [record({ iteration: 1e15 }), 'its iteration 1000000000000000 is not a whole number from 0 to 4294967295'],
      [record({ iteration: -1 }), 'its iteration -1 is not a whole number from 0 to 4294967295'],
      [record({ json: null }), 'its policy manifest is missing'],
      [record({ weights: new ArrayBuffer(6) }), 'its weights are missing or not whole float32 numbers'],
      [record({ weights: [1, 2] }), 'its weights are missing or not whole float32 numbers'],
      [record({ history: { 0: point(1) } }), 'its curves are not a list of iterations'],
    ];
    for (const [value, why] of cases) expect(readStoredLab(value), why).toMatchObject({ kind: 'unreadable', why });
  });
});
