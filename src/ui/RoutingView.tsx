// Who does what, live: the paper's Table 15 by role for the policy on screen — per held-out task, how
// often each model writes a query, writes a program and answers, and GPT-5's share of the model calls,
// beside the share it had when this run's first view was measured. The numbers are the trade-off view's
// own evaluation at the sliders' P (core/eval/roles.ts, from its traced episodes); a table a room can read,
// where the stacked tool-usage chart needs a hover. It renders when that evaluation changes, no more.

import { memo, useEffect, useState } from 'react';
import { ROLES, shareOfModelCalls, type Role } from '../core/eval/roles';
import { useLab } from '../store/labStore';

const ROLE_NAMES: Record<Role, string> = { search: 'writes queries', code: 'writes programs', answer: 'answers' };
const STRONG = 'gpt-5';
const calls = (x: number): string => (x < 0.005 ? '·' : x.toFixed(2));
const pct = (x: number): string => `${Math.round(100 * x)}%`;

export const RoutingView = memo(function RoutingView() {
  const t = useLab((s) => s.tradeoff);
  const driver = useLab((s) => s.catalog.orchestrator.id);
  const hasStrong = useLab((s) => s.catalog.tools.some((x) => x.id === STRONG && x.enabled));
  /** The policy's run: a new policy (Reset, an import, a new network) starts a metric log of its own. */
  const run = useLab((s) => s.history);
  const roles = t?.current.roles;
  const share = roles ? shareOfModelCalls(roles, STRONG, driver) : 0;
  const at = t ? `${JSON.stringify(t.preference)}` : '';
  /** GPT-5's share at the first view of this policy's run at this P (another P, or another policy, starts it again). */
  const [first, setFirst] = useState<{ run: unknown; at: string; iteration: number; share: number } | null>(null);
  useEffect(() => {
    if (!t || !roles) return;
    if (!first || first.run !== run || first.at !== at) setFirst({ run, at, iteration: t.iteration, share });
  }, [t, roles, run, at, share, first]);
  if (!t || !roles) {
    return (
      <figure className="chart-card routing-view" data-testid="routing-view" aria-label="Who does what">
        <figcaption><strong>Who does what</strong> <span className="muted">measured with the trade-off view…</span></figcaption>
      </figure>
    );
  }
  const was = first && first.run === run && first.at === at ? first : null;
  const rows = Object.entries(roles).map(([id, r]) => ({ id, r, total: r.search + r.code + r.answer }))
    .filter((x) => x.total >= 0.005).sort((a, b) => b.total - a.total || a.id.localeCompare(b.id));
  return (
    <figure className="chart-card routing-view" data-testid="routing-view" aria-label="Who does what">
      <figcaption>
        <strong>Who does what</strong>{' '}
        <span className="muted">calls per held-out task at your P, iteration {t.iteration} (the paper's Table 15, by role)</span>
      </figcaption>
      {hasStrong && (
        <p className="routing-share" data-testid="gpt5-share">
          GPT-5 makes <strong>{pct(share)}</strong> of the calls to models
          {was && was.iteration !== t.iteration ? <> ({pct(was.share)} at iteration {was.iteration}, at this P)</> : null}
        </p>
      )}
      <table className="routing">
        <thead>
          <tr><th scope="col">model</th>{ROLES.map((r) => <th scope="col" key={r}>{ROLE_NAMES[r]}</th>)}<th scope="col">all</th></tr>
        </thead>
        <tbody>
          {rows.map((x) => (
            <tr key={x.id} data-model={x.id}>
              <th scope="row">{x.id === driver ? 'the orchestrator itself' : x.id}</th>
              {ROLES.map((r) => <td key={r} className="num">{calls(x.r[r])}</td>)}
              <td className="num"><strong>{calls(x.total)}</strong></td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
});
