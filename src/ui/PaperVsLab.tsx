import { useEffect } from 'react';
import { DEPARTURES, PAPER_TABLE1 } from '../core/eval/paperTable1';
import { useLab } from '../store/labStore';

const COLUMNS: readonly { key: string; label: string }[] = [
  { key: 'hle', label: 'HLE %' },
  { key: 'frames', label: 'FRAMES %' },
  { key: 'tau2', label: 'τ² %' },
  { key: 'costCents', label: 'cost ¢' },
  { key: 'latencyMin', label: 'latency min' },
];
const show = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : String(x));

/**
 * The paper's Table 1 beside the lab's numbers, computed live in the worker from the current
 * policy at the sliders' P and from the calibrated baselines, on the three benchmark suites.
 */
export function PaperVsLab() {
  const paper = useLab((s) => s.paper);
  const busy = useLab((s) => s.paperBusy);
  const compute = useLab((s) => s.computePaper);
  const iteration = useLab((s) => s.iteration);
  // Computed when the tab opens and again whenever the policy is replaced (import, pretrained, reset clear it).
  useEffect(() => { if (!paper && !busy) void compute(); }, [paper, busy, compute]);
  return (
    <div className="paper-vs-lab" data-testid="paper-vs-lab">
      <p className="small">
        ToolOrchestra’s Table 1 (accuracy on HLE / FRAMES / τ²-Bench; cost in cents and latency in minutes over HLE and FRAMES) beside
        the lab’s: the current policy at the sliders’ P and the baselines calibrated to the paper, on the three held-out suites.
        The paper’s absolute cost and latency come from up to 50 turns per query; the lab’s tasks take at most 12, so compare ratios.
        Every table (unseen tools, preferences, pricing, calls per tool, turn budgets): <code>npm run cli -- reproduce</code>.
      </p>
      <details className="small" data-testid="departures">
        <summary>Where the lab departs from the paper (in every number here)</summary>
        <ul>{DEPARTURES.map((d) => <li key={d}>{d}</li>)}</ul>
      </details>
      <p className="small">
        <button type="button" onClick={() => void compute()} disabled={busy}>{busy ? 'Computing…' : 'Recompute'}</button>{' '}
        {paper ? <span className="muted">policy at iteration {paper.iteration}, {paper.count} tasks per suite{paper.iteration !== iteration
          ? ' (the policy has trained since)' : ''}</span> : null}
      </p>
      {paper && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Paper against lab (scrolls)">
          <table className="paper">
            <thead>
              <tr><th>system</th>{COLUMNS.map((c) => <th key={c.key} colSpan={2}>{c.label}</th>)}</tr>
              <tr><th /> {COLUMNS.map((c) => [<th key={`${c.key}-lab`} className="num">lab</th>,
                <th key={`${c.key}-paper`} className="num muted">paper</th>])}</tr>
            </thead>
            <tbody>
              {paper.rows.map((r) => (
                <tr key={r.name}>
                  <td><code>{r.name}</code>{r.name === 'orchestrator' ? ' (this policy)' : ''}<span className="muted small"> {PAPER_TABLE1
                    .find((p) => p.policy === r.name)?.label ?? ''}</span></td>
                  {COLUMNS.map((c) => [<td key={`${c.key}-lab`} className="num">{show(r.lab[c.key])}</td>,
                    <td key={`${c.key}-paper`} className="num muted">{show(r.paper[c.key])}</td>])}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
