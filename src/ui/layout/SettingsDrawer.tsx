import { useEffect, useRef, useState } from 'react';
import { useView } from '../../store/viewStore';
import { CatalogEditor } from '../CatalogEditor';
import { HyperparamsPanel } from '../HyperparamsPanel';
import { Tabs } from './Tabs';

/**
 * The hyperparameters and the catalog editor, one click away from the first screen: a drawer that
 * slides over the right side (Escape or ✕ closes it; the lab keeps running underneath).
 */
export function SettingsDrawer() {
  const open = useView((s) => s.drawer);
  const setDrawer = useView((s) => s.setDrawer);
  const [tab, setTab] = useState('Training');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    ref.current?.focus();
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') setDrawer(false); };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, setDrawer]);
  if (!open) return null;
  return (
    <aside className="drawer" aria-label="Settings" ref={ref} tabIndex={-1}>
      <div className="drawer-head">
        <h2>Settings</h2>
        <button type="button" onClick={() => setDrawer(false)} aria-label="Close settings">✕</button>
      </div>
      <Tabs label="settings" active={tab} onSelect={setTab} tabs={[{ name: 'Training', body: <HyperparamsPanel /> }, { name: 'Tools', body: <CatalogEditor /> }]} />
    </aside>
  );
}
