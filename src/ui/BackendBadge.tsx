import { probeSummary } from '../core/bench/probeSize';
import { PROBE_BUDGET_MS, type BackendInfo } from '../worker/protocol';

/**
 * The backend in use: how it was chosen (measured or forced), its adapter, a flag for software
 * adapters, and the speed probe's figures for every backend ("wasm: 7.1 it/s · webgpu …").
 * While a backend starts or switches, what is happening, at once.
 */
export function BackendBadge({ backend, pending, stopped, onRemeasure }: {
  backend: BackendInfo | null; pending: string | null; stopped: boolean; onRemeasure: () => void;
}) {
  // No worker runs (it stopped and could not be started again): no spinner, since nothing is starting.
  if (stopped) {
    const text = 'tfjs is not running: the training worker stopped';
    return <span className="badge warn" data-testid="backend-stopped">{text}</span>;
  }
  if (pending || !backend) return <span className="badge muted" data-testid="backend-pending"><span className="spinner"
    aria-hidden="true" />{pending ?? 'starting tfjs…'}</span>;
  const probe = backend.probe;
  const title = [`adapter: ${backend.adapter}`,
    ...(probe ? probe.results.map((r) => `${r.label}: ${r.status}${r.detail ? ` — ${r.detail}` : ''} (${Math.round(r.ms)} ms)`) : []),
    ...backend.notes].join('\n');
  return (
    <span className="badge" title={title} data-backend={backend.name} data-mode={backend.mode}>
      <strong>{backend.name === 'webgpu' ? 'WebGPU' : backend.name}</strong>
      <span className="muted small">{backend.mode === 'forced' ? 'forced' : probe?.inconclusive ? `auto · no backend ` +
        `finished the ${PROBE_BUDGET_MS / 1000} s probe at this size` : 'auto · fastest measured'}</span>
      {backend.adapter !== backend.name && <span className="adapter">{backend.adapter}</span>}
      {backend.name === 'webgpu' && backend.software && <span className="warn">software adapter</span>}
      {probe && (
        <span className="small probe-line" data-testid="backend-probe">
          {probeSummary(probe.results)}
          <span className="muted"> ({probe.cached ? `measured ${probe.measuredAt.slice(0, 10)}, cached` : `measured ` +
            `in ${(probe.totalMs / 1000).toFixed(1)} s`})</span>
        </span>
      )}
      {backend.mode === 'auto' && <button type="button" className="link" onClick={onRemeasure}
        title="Run the backend speed probe again (≤ 2 s) and train on the fastest">Re-measure</button>}
    </span>
  );
}
