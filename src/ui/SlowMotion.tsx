import { useShallow } from 'zustand/react/shallow';
import { PHASE_NAMES } from '../core/grpo/phaseNames';
import { useLab } from '../store/labStore';
import type { PhaseReport } from '../worker/protocol';
import { divergedText } from '../store/workerText';
import { SymValue } from './math/SymValue';
import { useFit } from './layout/useFit';

function Bars({ bars }: { bars: NonNullable<PhaseReport['bars']> }) {
  return (
    <figure className="prob-bars" aria-label={bars.caption}>
      <figcaption className="small muted">{bars.caption}</figcaption>
      {bars.items.map((b) => (
        <div key={b.label} className="prob-row">
          <span className="prob-label">{b.label}</span>
          <span className="prob-track" aria-hidden="true">
            <span className="prob-before" style={{ width: `${100 * b.before}%` }} />
            <span className="prob-after" style={{ width: `${100 * b.after}%` }} />
          </span>
          <span className="num">{(100 * b.before).toFixed(1)}% → <strong>{(100 * b.after).toFixed(1)}%</strong></span>
        </div>
      ))}
    </figure>
  );
}

/** A cell of a number (or a range of numbers) with its unit: such columns align right on one line; text columns align left and wrap. */
const NUMBER_CELL = /^(—|[−+-]?\$?[\d.,]+(e[−+-]?\d+)?\s*(%|¢|s|ms|u|×)?)( … (—|[−+-]?\$?[\d.,]+(e[−+-]?\d+)?\s*(%|¢|s|ms|u|×)?))?$/;
const columnKinds = (t: PhaseReport['tables'][number]): ('num' | 'text' | '')[] =>
  t.columns.map((_, i) => (i === 0 ? '' : t.rows.every((row) => NUMBER_CELL.test((row[i] ?? '').trim())) ? 'num' : 'text'));

type Table = PhaseReport['tables'][number];

/** A phase's table; transposed (one row per column) when it is wider than its box, then a cue to scroll. */
function PhaseTable({ t }: { t: Table }) {
  const { box, level, overflow } = useFit(1);
  const kinds = columnKinds(t);
  const cell = (v: string, i: number, key: number) => {
    const sym = t.symbols?.[i];
    return <td key={key} className={kinds[i]}>{sym ? <SymValue sym={sym}>{v}</SymValue> : v}</td>;
  };
  const across = t.columns.slice(1).map((_, j) => j + 1);
  return (
    <div ref={box} className={`table-wrap${overflow ? ' overflowing' : ''}`} data-transposed={level > 0 || undefined}
      {...(overflow ? { tabIndex: 0, role: 'region', 'aria-label': `${t.caption} (scrolls sideways)` } : {})}>
      {overflow && <p className="scroll-cue small">Wider than its box: scroll sideways →</p>}
      <table className="phase-table">
        <caption>{t.caption}</caption>
        {level === 0 ? (
          <>
            <thead><tr>{t.columns.map((c, i) => <th key={`${c}${i}`} className={kinds[i]}>{c}</th>)}</tr></thead>
            <tbody>{t.rows.map((row, k) => <tr key={k}>{row.map((v, i) => cell(v, i, i))}</tr>)}</tbody>
          </>
        ) : (
          <>
            <thead><tr><th>{t.columns[0]}</th>{t.rows.map((row, k) => <th key={k} className="num">{row[0]}</th>)}</tr></thead>
            <tbody>{across.map((i) => (
              <tr key={i}><th scope="row">{t.columns[i]}</th>{t.rows.map((row, k) => cell(row[i] ?? '', i, k))}</tr>
            ))}</tbody>
          </>
        )}
      </table>
    </div>
  );
}

function Phase({ r, current }: { r: PhaseReport; current: boolean }) {
  return (
    <section className={`phase${current ? ' current' : ''}`} aria-label={`phase ${r.index}`} data-testid={`phase-${r.index}`}>
      <h3><span className="phase-num" aria-hidden="true">{r.index}</span>{r.name}</h3>
      <p>{r.summary}{r.diverged && ` ${divergedText(r.diverged)}`}</p>
      {r.tables.map((t) => <PhaseTable key={t.caption} t={t} />)}
      {r.bars && <Bars bars={r.bars} />}
    </section>
  );
}

/**
 * GRPO in slow motion: one iteration, phase by phase, with the numbers the worker's trainer
 * computed in each (core/grpo/phases.ts, phaseReport.ts). Each phase stays on screen under the
 * next, so a student can scroll back from the update to the group it came from.
 */
export function SlowMotion() {
  const s = useLab(useShallow((x) => ({ phases: x.phases, busy: x.phaseBusy, nextPhase: x.nextPhase,
    closePhases: x.closePhases, iteration: x.iteration, backend: x.backendInfo?.name })));
  const n = s.phases.length;
  const done = n >= PHASE_NAMES.length;
  const latest = s.phases[n - 1];
  return (
    <div className="slowmo" data-region="slowmo">
      <div className="slowmo-head">
        <button type="button" className="primary" onClick={() => void s.nextPhase()} disabled={s.busy}>
          {n === 0 || done ? 'Slow motion' : 'Next phase'}
        </button>
        {n > 0 && !done && <button type="button" onClick={() => void s.closePhases()} disabled={s.busy}
          title="Leave slow motion: an iteration that has updated is finished and charted; one that has not is dropped, weights untouched">Leave</button>}
        <span className="phase-counter" data-testid="phase-counter" aria-live="polite">
          {n === 0 ? `One GRPO iteration, phase by phase, with its real numbers (${s.backend ?? '…'} backend).`
            : done ? `Iteration ${latest?.iteration} done: all 8 phases. Press Slow motion for the next one.`
              : `Phase ${n} of 8 · iteration ${latest?.iteration} in progress (${s.iteration} done, as the top bar counts)${s.busy ? ' · computing…' : ''}`}
        </span>
      </div>
      <ol className="phase-steps" aria-label="the eight phases">
        {PHASE_NAMES.map((name, i) => <li key={name} className={i < n ? (i === n - 1 ? 'now' : 'past') : ''}>{name}</li>)}
      </ol>
      {/* The latest phase first, the earlier ones under it. */}
      {[...s.phases].reverse().map((r) => <Phase key={`${r.iteration}-${r.index}`} r={r} current={r === latest} />)}
    </div>
  );
}
