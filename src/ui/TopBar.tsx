import { useLab } from '../store/labStore';
import { activityText, keptText } from '../store/workerText';
import { useShallow } from 'zustand/react/shallow';
import { BACKEND_NAMES, type BackendName } from '../worker/protocol';
import { BackendBadge } from './BackendBadge';
import { NumberField } from './NumberField';
import { SharePanel } from './SharePanel';
import { ViewControls } from './layout/ViewControls';
import { useView } from '../store/viewStore';

const SPEEDS = [{ label: 'max', ms: 0 }, { label: 'fast', ms: 50 }, { label: 'slow', ms: 400 }, { label: 'very slow', ms: 1500 }];

/**
 * The backend, the iteration, the speed and what the worker does: the one part of the top bar that
 * changes on every push while training (so the buttons and fields beside it do not re-render). A
 * screen reader hears what changed of its state (paused, training, the worker's activity, the backend), not
 * every count (the counters are muted, and the region is not read whole on each change).
 */
function RunStatus() {
  const s = useLab(useShallow((x) => ({
    workerActivity: x.workerActivity, backendInfo: x.backendInfo, backendSwitch: x.backendSwitch, iteration: x.iteration,
    itPerS: x.itPerS, running: x.running, setBackend: x.setBackend,
  })));
  return (
    <div role="status" aria-live="polite" aria-atomic="false" className="status" aria-label="training status">
      <BackendBadge backend={s.backendInfo} pending={s.backendSwitch} stopped={s.workerActivity.code === 'stopped'}
        onRemeasure={() => void s.setBackend('auto', true)} />
      <span className="counter" aria-live="off">iteration <strong data-testid="iteration">{s.iteration}</strong></span>
      <span className="counter muted">{s.running
        ? (s.backendSwitch ? 'waits for the backend' : <span aria-live="off">{s.itPerS > 0 ? `${s.itPerS.toFixed(2)} it/s` : 'starting…'}</span>)
        : 'paused'}</span>
      <span className="counter muted small" data-testid="worker-activity"
        title="what the training worker is doing now">worker: {activityText(s.workerActivity)}</span>
    </div>
  );
}

/** Title, run status, run controls, seed, speed, backend, and Share (link, policy, QR code). */
export function TopBar() {
  const s = useLab(useShallow((x) => ({
    backendSwitch: x.backendSwitch, forcedBackend: x.backend, running: x.running, train: x.train, delayMs: x.delayMs,
    start: x.start, pause: x.pause, stepOnce: x.stepOnce, reset: x.reset, restoreBest: x.restoreBest, undo: x.undo,
      bestIteration: x.bestIteration, undoLabel: x.undoLabel, setTrain: x.setTrain, setDelay: x.setDelay,
      setBackend: x.setBackend,
  })));
  const shown = useView(useShallow((v) => Object.fromEntries(['backend', 'seed', 'speed', 'safety', 'share'].map((id) => [id,
    !(v.classroom && (v.hide as string[]).includes(id))]))));
  return (
    <header className="topbar">
      <h1>Orchestra Lab</h1>
      <RunStatus />
      <div className="controls">
        {s.running ? <button type="button" className="primary" onClick={s.pause}>Pause</button> : <button type="button"
          className="primary" onClick={s.start}>Start</button>}
        <button type="button" onClick={() => void s.stepOnce()} title="Run exactly one GRPO iteration">Step</button>
        <button type="button" onClick={() => void s.reset()}
          title="A fresh random policy from the seed (Undo brings the current one back)">Reset</button>
        {shown.safety && <button type="button" onClick={() => void s.undo()} disabled={!s.undoLabel} title={s.undoLabel
          ? `Bring back ${keptText(s.undoLabel)}`
          : 'Nothing to undo: a Reset, an import, a new network or Restore best can be undone once'}>Undo</button>}
        {shown.safety && 
        <button type="button" onClick={() => void s.restoreBest()} disabled={s.bestIteration === null}
          title={s.bestIteration === null ? 'No best policy kept yet'
          : `Put back the weights of iteration ${s.bestIteration}, this run's best smoothed reward`}>Restore best policy</button>}
        {shown.seed && <NumberField className="field inline" label="seed" value={s.train.seed} min={0} max={2 ** 31} step={1} integer applyOnCommit
          hint={'The seed of the policy\'s first weights and of the tasks: a new seed builds a new network ' +
            '(Undo brings the current one back); applied on Enter or when you leave the field'}
          onChange={(v) => s.setTrain({ seed: v, policy: { ...s.train.policy, seed: v } })} />}
        {shown.speed && <label>speed <select aria-label="Speed" value={s.delayMs}
          onChange={(e) => s.setDelay(Number(e.target.value))}>{SPEEDS.map((x) => <option key={x.ms}
          value={x.ms}>{x.label}</option>)}</select></label>}
        {shown.backend && <label>backend <select aria-label="Backend" value={s.forcedBackend ?? 'auto'}
          disabled={!!s.backendSwitch} onChange={(e) => void s.setBackend(e.target.value as BackendName | 'auto')}>
          <option value="auto">auto (fastest)</option>
          {BACKEND_NAMES.map((b) => <option key={b} value={b}>{b}</option>)}
        </select></label>}
        {shown.share && <SharePanel />}
        <ViewControls />
      </div>
    </header>
  );
}
