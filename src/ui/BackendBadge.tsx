import { probeSummary } from '../core/bench/probeSize';
import { PROBE_BUDGET_MS, type BackendInfo } from '../worker/protocol';

type Probe = NonNullable<BackendInfo['probe']>;

/** The chosen backend's figure in the speed probe ("22 it/s", "≤ 0.2 it/s"), or null where it has none. */
function chosenSpeed(backend: BackendInfo): string | null {
  const r = backend.probe?.results.find((x) => x.label.split(' ')[0] === backend.name);
  if (!r || r.itPerS === undefined || (r.status !== 'measured' && r.status !== 'bound')) return null;
  const fig = r.itPerS >= 10 ? r.itPerS.toFixed(0) : r.itPerS.toFixed(1);
  return `${r.status === 'bound' ? '≤ ' : ''}${fig} it/s`;
}

/** Everything the badge leaves out: how the backend was chosen, every backend's probe figure, the adapter, notes. */
function details(backend: BackendInfo, probe: Probe | null): string {
  const how = backend.mode === 'forced' ? 'forced (the Backend selector or ?backend=)'
    : probe?.inconclusive ? `auto: no backend finished the ${PROBE_BUDGET_MS / 1000} s probe at this size`
      : 'auto: the fastest in the speed probe';
  const when = probe?.cached ? `measured ${probe.measuredAt.slice(0, 10)}, cached`
    : `measured in ${((probe?.totalMs ?? 0) / 1000).toFixed(1)} s`;
  const each = (probe?.results ?? [])
    .map((r) => `${r.label}: ${r.status}${r.detail ? ` — ${r.detail}` : ''} (${Math.round(r.ms)} ms)`);
  return [
    `${backend.name}, ${how}`,
    ...(probe ? [`speed probe: ${probeSummary(probe.results)} (${when})`] : []),
    `adapter: ${backend.adapter}${backend.name === 'webgpu' && backend.software ? ' (software adapter)' : ''}`,
    ...each,
    ...backend.notes,
  ].join('\n');
}

/**
 * The backend in use and its speed in the probe ("wasm · 22 it/s"); how it was chosen, every
 * backend's figure and the adapter are in its tooltip. While a backend starts or switches, what is
 * happening, at once.
 */
export function BackendBadge({ backend, pending, stopped, onRemeasure }: {
  backend: BackendInfo | null; pending: string | null; stopped: boolean; onRemeasure: () => void;
}) {
  // No worker runs (it stopped and could not be started again): no spinner, since nothing is starting.
  if (stopped) {
    const text = 'tfjs is not running: the training worker stopped';
    return <span className="badge warn" data-testid="backend-stopped">{text}</span>;
  }
  if (pending || !backend) {
    return (
      <span className="badge muted" data-testid="backend-pending">
        <span className="spinner" aria-hidden="true" />{pending ?? 'starting tfjs…'}
      </span>
    );
  }
  const probe = backend.probe ?? null;
  const speed = chosenSpeed(backend);
  const title = details(backend, probe);
  return (
    <span className="badge" title={title} data-backend={backend.name} data-mode={backend.mode}
      data-testid="backend-badge">
      <strong>{backend.name === 'webgpu' ? 'WebGPU' : backend.name}</strong>
      {backend.name === 'webgpu' && backend.software && <span className="warn">software</span>}
      <span className="small" data-testid="backend-probe">
        {speed ?? (backend.mode === 'forced' ? 'forced' : probe?.inconclusive ? 'speed not measured' : 'auto')}
      </span>
      {backend.mode === 'auto' && (
        <button type="button" className="link" onClick={onRemeasure}
          title="Run the backend speed probe again (≤ 2 s) and train on the fastest">Re-measure</button>
      )}
    </span>
  );
}
