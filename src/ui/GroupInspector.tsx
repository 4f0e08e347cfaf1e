import { Fragment, useState } from 'react';
import { formatCost, type Catalog } from '../core/sim/catalog';
import { renderCall, renderResult } from '../core/sim/render';
import type { GroupSample, GroupTrajectory } from '../core/grpo/metrics';
import { ADV_EPS } from '../core/grpo/advantage';
import { REWARD_MODE_INFO, rewardWithNumbers } from '../core/grpo/rewardModes';
import { useLab, type LabState } from '../store/labStore';
import { useStaggered } from './charts/useStaggered';
import { useFit } from './layout/useFit';

const f3 = (x: number) => (Number.isInteger(x) ? String(x) : Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));

/** A as the trainer computed it (the core sends A before and after the clip): the page only writes the numbers in. */
function advantageFormula(g: GroupSample, t: GroupTrajectory): string {
  if (g.filtered) return 'A = 0 (group filtered: reward std below the threshold)';
  const shown = g.normalizeStd ? `(${t.reward.toFixed(3)} − ${g.mean.toFixed(3)})/(${g.std.toFixed(3)} + ` +
    `${ADV_EPS})` : `${t.reward.toFixed(3)} − ${g.mean.toFixed(3)}`;
  const clipped = t.advantageRaw !== t.advantage;
  return `A = ${shown} = ${t.advantageRaw.toFixed(3)}${clipped ? ` → clipped to ${t.advantage.toFixed(3)}` : ''}`;
}

function Turns({ t, g, catalog }: { t: GroupTrajectory; g: GroupSample; catalog: Catalog }) {
  return (
    <ol className="turns">
      {t.trace.map((e, k) => {
        const step = g.task.steps[e.step];
        if (!step) return null;
        return (
          <li key={k} className={e.action}>
            <span className="muted">turn {e.turn + 1} · {e.action === 'search' || e.action === 'code' ? `for step ` +
              `${e.step + 1} (${step.type})` : g.task.commits === 'task' ? 'the answer' : `step ${e.step + 1} ` +
              `(${step.type})`} · {formatCost(catalog, e.cost)} · {(e.latencyMs / 1000).toFixed(1)} s</span>
            {e.slot && (e.action === 'search' || e.action === 'code') ? (
              <>
                <code className="call">{JSON.stringify(renderCall(catalog, e.slot, step, `call_${k}`).function)}</code>
                <span className={e.success ? 'good' : 'bad'}>→ {renderResult(step, !!e.success, e.signal ?? 0)}</span>
              </>
            ) : (
              <span>{e.action === 'answer' ? <><code className="call">{JSON.stringify(renderCall(catalog, e.slot ?? '',
                step, `call_${k}`, g.task.commits === 'task' ? g.task.question : step.text).function)}</code> → </>
                : 'submit: the orchestrator answers itself → '}
                <span
                  className={e.committedCorrect ? 'good' : 'bad'}>{e.committedCorrect ? 'right' : 'wrong'}</span>{e.missingEvidence
                  ? ' (a step that needed a tool had no result)' : ''}</span>
            )}
          </li>
        );
      })}
    </ol>
  );
}

const selectGroup = (s: LabState) => s.group;

/** The G trajectories of one task from the latest iteration: calls, M raw → normalised, R and A with the numbers substituted. */
export function GroupInspector() {
  // A table to read, not an animation: at most every 2 s while training.
  const g = useStaggered(selectGroup, 8, 2000);
  const catalog = useLab((s) => s.catalog);
  const [open, setOpen] = useState<number | null>(0);
  // Wider than its box: raw over normalised in each cell (level 1), then a cue to scroll.
  const { box, level: fitLevel, overflow } = useFit(1);
  if (!g) return <p className="muted">Run an iteration (Step) to inspect one group of trajectories.</p>;
  const used = g.dims.map((_, k) => g.trajectories.some((t) => (t.mRaw[k] ?? 0) !== 0) || k >= g.dims.length - 3);
  return (
    <div className="inspector" aria-label="group inspector">
      <p>
        <span className={`domain ${g.task.domain}`}>{g.task.domain}</span> <strong>{g.task.question}</strong>
        <span
          className="muted small"> · G = {g.trajectories.length} · P = [{g.preference
            .map((x, k) => (x ? `${g.dims[k]} ${x}` : null)).filter(Boolean).join(', ') || 'all 0'}]</span>
      </p>
      <p className="small formula">
        M(τ) = [{REWARD_MODE_INFO[g.reward].measures}…, outcome, −cost, −latency], each dimension min–max normalised
        over the group (0 where constant).{' '}
        {g.normalizeStd ? <>A = (R − mean)/(std + 10⁻⁶) = (R − {g.mean.toFixed(3)})/({g.std.toFixed(3)} + 10⁻⁶)</>
          : <>A = R − mean = R − {g.mean.toFixed(3)} (no std division)</>}{g.filtered
          ? ' — this group was filtered (std < threshold): A = 0, not trained on' : ''}.
      </p>
      <div ref={box} className={`table-wrap${overflow ? ' overflowing' : ''}`} data-stacked={fitLevel > 0 || undefined}
        {...(overflow ? { tabIndex: 0, role: 'region', 'aria-label': 'The group\'s trajectories (scrolls sideways)' } : {})}>
        {overflow && <p className="scroll-cue small">Wider than its box: scroll sideways →</p>}
        <table className="group">
          <thead>
            <tr><th>#</th><th>solved</th><th>cost</th><th>latency</th>{g.dims.map((d, k) => used[k] && <th
              key={d}>{d}<br /><span className="muted">raw → norm</span></th>)}<th>R</th><th>A</th></tr>
          </thead>
          <tbody>
            {g.trajectories.map((t, i) => (
              <Fragment key={i}>
                <tr className={open === i ? 'sel' : ''} onClick={() => setOpen(open === i ? null : i)}>
                  {/* The row opens on a click anywhere; its number is the button the keyboard reaches (its click bubbles to the row). */}
                  <td><button type="button" className="row-open" aria-expanded={open === i}
                    aria-label={`Trajectory ${i + 1}: ${open === i ? 'hide' : 'show'} its turns`}>{i + 1}</button></td>
                  <td className={t.outcome ? 'good' : 'bad'}>{t.outcome ? '✓' : '✗'}</td>
                  <td className="num">{formatCost(catalog, t.costUSD)}</td>
                  <td className="num">{t.latencyS.toFixed(1)} s</td>
                  {g.dims.map((d, k) => used[k] && <td key={d}
                    className="num">{f3(t.mRaw[k] as number)}{fitLevel > 0 ? <br /> : ' '}→ {(t.mNorm[k] as number).toFixed(2)}</td>)}
                  <td className="num"><strong>{t.reward.toFixed(3)}</strong></td>
                  <td className="num"><strong>{t.advantage.toFixed(3)}</strong></td>
                </tr>
                {open === i && (
                  <tr className="detail"><td colSpan={99}>
                    <p className="small formula">{rewardWithNumbers(g.reward, t, g.preference, g.dims)} · {advantageFormula(g, t)}</p>
                    <Turns t={t} g={g} catalog={catalog} />
                  </td></tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
