// What a finished comparison shows, computed from its runs (core/lab/seedSpread.ts): per metric,
// each side's mean over seeds of a final value, the paired difference as mean ± sd over seeds,
// and whether it is within the noise by a paired t-test's 95% rule, which is stated on screen.
// Nothing here is written in advance: every number and verdict comes from the seeds' series.

import type { PairedSummary } from '../core/lab/seedSpread';
import type { Catalog } from '../core/sim/catalog';
import { conclusionLines, signed, type Metric } from '../store/compareConclusion';
import type { CompareRunSeries } from '../store/compareStore';

/** One metric's verdict and the numbers behind it. */
function MetricLine({ m, s, labels }: { m: Metric; s: PairedSummary; labels: readonly [string, string] }) {
  const ahead = s.meanDiff >= 0 ? labels[0] : labels[1];
  const verdict = s.withinNoise === null ? 'no spread to judge by'
    : s.withinNoise ? 'within the noise' : `higher with ${ahead}, beyond the noise`;
  const bound = `${s.t.toFixed(2)} × ${m.diff(s.sdDiff)}/√${s.seeds}`;
  const test = `|${m.diff(Math.abs(s.meanDiff))}| ${s.withinNoise ? '≤' : '>'} ${bound}`;
  const rule = s.withinNoise === null ? ''
    : ` ${s.withinNoise ? 'Within the noise' : 'Beyond the noise'}: ${test} = ${m.diff(s.margin)}${m.unit}.`;
  return (
    <li data-metric={m.key} data-within-noise={s.withinNoise === null ? undefined : String(s.withinNoise)}>
      <strong>{m.name}: {verdict}.</strong>{' '}
      {labels[0]} {m.value(s.meanA)} vs {labels[1]} {m.value(s.meanB)}; difference{' '}
      <span data-testid={`diff-${m.key}`}>{signed(s.meanDiff, m.diff)} ± {m.diff(s.sdDiff)}{m.unit}</span>{' '}
      (mean ± sd of the {s.seeds} per-seed paired differences:{' '}
      <span data-testid={`seed-diffs-${m.key}`}>{s.diffs.map((d) => signed(d, m.diff)).join(', ')}</span>).{rule}
    </li>
  );
}

/**
 * The conclusion of a comparison: accuracy and cost per task, the first side against the second seed by seed,
 * over the iterations every seed reached; then the rule it was judged by.
 */
export function CompareConclusion({ runs, seeds, catalog }: {
  runs: readonly CompareRunSeries[];
  seeds: readonly number[];
  catalog: Pick<Catalog, 'currency'>;
}) {
  const [a, b] = runs;
  if (!a || !b) return null;
  const labels = [a.label, b.label] as const;
  const lines = conclusionLines(a, b, catalog);
  const first = lines[0]?.s;
  if (!first || first.iterations === 0) return null;
  return (
    <section className="compare-conclusion" data-testid="compare-conclusion" aria-label="What these runs show">
      <p className="small">
        <strong>What these runs show.</strong> Each difference is {labels[0]} minus {labels[1]}.
      </p>
      <ul className="small">
        {lines.map(({ m, s }) => <MetricLine key={m.key} m={m} s={s} labels={labels} />)}
      </ul>
      <p className="small muted" data-testid="compare-rule">
        Each seed’s value is the mean of its last {first.window} of {first.iterations} iterations; seeds{' '}
        {seeds.join(', ')}, the same on both sides. A difference is within the noise when |mean| ≤ t × sd/√n,
        n = {first.seeds} seeds: then the 95% interval of a paired t-test holds 0, and the spread between seeds alone
        could make the gap (t = {first.t.toFixed(2)} for n − 1 = {first.seeds - 1} degrees of freedom).
      </p>
    </section>
  );
}
