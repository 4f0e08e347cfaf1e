// Who does what, live: the paper's Table 15 by role for the policy on screen — per held-out task, how
// often each model writes a query, writes a program and answers, and GPT-5's share of the model calls,
// beside the share it had when this run's first view was measured. The numbers are the trade-off view's
// own evaluation at the sliders' P (core/eval/roles.ts, from its traced episodes); a table a room can read,
// where the stacked tool-usage chart needs a hover. It renders when that evaluation changes, no more.

import { memo, useRef } from 'react';
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
  /** GPT-5's share when this run's first view was measured (a new run starts its iteration count again). */
  const first = useRef<{ iteration: number; share: number } | null>(null);
  const roles = t?.current.roles;
  if (!t || !roles) {
    return (
      <figure className="chart-card routing-view" data-testid="routing-view" aria-label="Who does what">
        <figcaption><strong>Who does what</strong> <span className="muted">measured with the trade-off view…</span></figcaption>
      </figure>
    );
  }
  const share = shareOfModelCalls(roles, STRONG, driver);
  if (!first.current || t.iteration < first.current.iteration) first.current = { iteration: t.iteration, share };
  const was = first.current;
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
          {was.iteration !== t.iteration ? <> (<span>{pct(was.share)}</span> at iteration {was.iteration})</> : null}
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
