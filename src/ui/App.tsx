import { useEffect } from 'react';
import { PRESET_NAMES } from '../core/sim/presets';
import { useLab } from '../store/labStore';
import type { BackendName } from '../worker/protocol';
import { BackendBadge } from './BackendBadge';
import { CatalogTable } from './CatalogTable';
import { DataBrowser } from './DataBrowser';

const BACKENDS: readonly string[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

function backendFromUrl(): BackendName | undefined {
  const b = new URLSearchParams(location.search).get('backend');
  return b && BACKENDS.includes(b) ? (b as BackendName) : undefined;
}

export function App() {
  const { backend, catalog, preset, error, boot, setPreset } = useLab();
  useEffect(() => {
    void boot(backendFromUrl());
  }, [boot]);
  return (
    <div className="app">
      <header className="topbar">
        <h1>Orchestra Lab</h1>
        <div role="status" aria-live="polite" className="status">
          <BackendBadge backend={backend} />
        </div>
        <label>
          Catalog preset{' '}
          <select value={preset} onChange={(e) => setPreset(e.target.value)}>
            {PRESET_NAMES.map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </label>
      </header>
      {error && <div role="alert" className="alert">{error}</div>}
      <main>
        <section className="panel" aria-label="tool catalog">
          <CatalogTable catalog={catalog} />
        </section>
        <DataBrowser />
      </main>
    </div>
  );
}
