import { useEffect, useRef, useState } from 'react';
import { useView } from '../../store/viewStore';
import { CatalogEditor } from '../CatalogEditor';
import { HyperparamsPanel } from '../HyperparamsPanel';
import { Tabs } from './Tabs';

/**
 * The hyperparameters and the catalog editor, one click away from the first screen: a drawer over
 * the right side, under the top bar (Escape, ✕ or Settings again closes it; the lab keeps running).
 */
export function SettingsDrawer() {
  const open = useView((s) => s.drawer);
  const setDrawer = useView((s) => s.setDrawer);
  const [tab, setTab] = useState('Training');
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    // Below the top bar while it is on screen, so its controls (Share, Settings, the theme) stay reachable.
    const bar = document.querySelector('.topbar')?.getBoundingClientRect().bottom ?? 0;
    if (ref.current) ref.current.style.top = `${Math.max(0, bar)}px`;
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
      <Tabs label="settings" active={tab} onSelect={setTab}
        tabs={[{ name: 'Training', body: <HyperparamsPanel /> }, { name: 'Tools', body: <CatalogEditor /> }]} />
    </aside>
  );
}
