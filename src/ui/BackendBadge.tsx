import type { BackendInfo } from '../worker/protocol';

/** The backend in use, its adapter, and a warning flag for software adapters. */
export function BackendBadge({ backend }: { backend: BackendInfo | null }) {
  if (!backend) return <span className="badge muted">starting tfjs…</span>;
  const title = [`adapter: ${backend.adapter}`, ...backend.notes].join('\n');
  return (
    <span className="badge" title={title} data-backend={backend.name}>
      <strong>{backend.name === 'webgpu' ? 'WebGPU' : backend.name}</strong>
      <span className="adapter">{backend.adapter}</span>
      {backend.name === 'webgpu' && backend.software && <span className="warn">software adapter</span>}
    </span>
  );
}
