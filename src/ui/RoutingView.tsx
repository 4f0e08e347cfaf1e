// Who does what, live: the paper's Table 15 by role for the policy on screen — per held-out task, how
// often each model writes a query, writes a program and answers, and GPT-5's share of the calls to
// models, beside its share at the first view of this policy's run at this P. The numbers are the
// trade-off view's own evaluation at the sliders' P (core/eval/roles.ts, from its traced episodes); a
// table a room can read, where the stacked tool-usage chart needs a hover. It renders when that
// evaluation changes, and its size never does: one row per model of the catalog (and the orchestrator)
// from the start, one line each for its title and its share, so the charts beside it never re-lay out.

import { memo, useEffect, useMemo, useState } from 'react';
import { ROLES, shareOfModelCalls, type Role } from '../core/eval/roles';
import { useLab } from '../store/labStore';

const ROLE_NAMES: Record<Role, string> = { search: 'writes queries', code: 'writes programs', answer: 'answers' };
const STRONG = 'gpt-5';
const calls = (x: number | undefined): string => (x === undefined ? '…' : x < 0.005 ? '·' : x.toFixed(2));
const pct = (x: number): string => `${Math.round(100 * x)}%`;

export const RoutingView = memo(function RoutingView() {
  const t = useLab((s) => s.tradeoff);
  const catalog = useLab((s) => s.catalog);
  const driver = catalog.orchestrator.id;
  const models = useMemo(() => [...catalog.tools.filter((x) => x.enabled && x.kind !== 'basic').map((x) => x.id), driver],
    [catalog, driver]);
  const hasStrong = models.includes(STRONG);
  /** The policy's run: a new policy (Reset, an import, a new network) starts a metric log of its own. */
  const run = useLab((s) => s.history);
  const roles = t?.current.roles;
  const share = roles ? shareOfModelCalls(roles, STRONG, driver) : 0;
  const at = t ? JSON.stringify(t.preference) : '';
  /** GPT-5's share at the first view of this policy's run at this P (another P, or another policy, starts it again). */
  const [first, setFirst] = useState<{ run: unknown; at: string; iteration: number; share: number } | null>(null);
  useEffect(() => {
    if (!t || !roles) return;
    if (!first || first.run !== run || first.at !== at) setFirst({ run, at, iteration: t.iteration, share });
  }, [t, roles, run, at, share, first]);
  const was = first && first.run === run && first.at === at && t && first.iteration !== t.iteration ? first : null;
  const line = !roles ? 'GPT-5’s share: measured with the trade-off view…'
    : `GPT-5 makes ${pct(share)} of the calls to models${was ? ` (${pct(was.share)} at iteration ${was.iteration}, at this P)` : ''}`;
  return (
    <figure className="chart-card routing-view" data-testid="routing-view" aria-label="Who does what">
      <figcaption className="one-line">
        <strong>Who does what</strong> <span className="muted">{t ? `iteration ${t.iteration}, at your P` : ''}</span>
      </figcaption>
      {hasStrong && <p className="routing-share one-line" data-testid="gpt5-share" title={line}>
        {roles ? <>GPT-5 makes <strong>{pct(share)}</strong> of the calls to models{was
          ? ` (${pct(was.share)} at iteration ${was.iteration}, at this P)` : ''}</> : line}
      </p>}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Who does what, by role (scrolls sideways on a narrow screen)">
      <table className="routing">
        <thead>
          <tr><th scope="col">model</th>{ROLES.map((r) => <th scope="col" key={r}>{ROLE_NAMES[r]}</th>)}<th scope="col">all</th></tr>
        </thead>
        <tbody>
          {models.map((id) => {
            const r = roles ? (roles[id] ?? { search: 0, code: 0, answer: 0 }) : undefined;
            return (
              <tr key={id} data-model={id}>
                <th scope="row">{id === driver ? 'the orchestrator itself' : id}</th>
                {ROLES.map((k) => <td key={k} className="num">{calls(r?.[k])}</td>)}
                <td className="num"><strong>{calls(r && r.search + r.code + r.answer)}</strong></td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </div>
      <p className="small muted">Calls per held-out task by role (the paper’s Table 15), from the trade-off view’s evaluation.</p>
    </figure>
  );
});
