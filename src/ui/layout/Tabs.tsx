import type { ReactNode } from 'react';

/**
 * Tabs whose active tab is held by the caller (a lesson can open the tab it is about). Tabs the
 * classroom mode hides are simply not passed in.
 */
export function Tabs({ tabs, label, active, onSelect }: { tabs: { name: string; body: ReactNode }[]; label: string;
  active: string; onSelect: (name: string) => void }) {
  const current = tabs.find((t) => t.name === active) ?? tabs[0];
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label}>
        {tabs.map((t) => <button key={t.name} role="tab" type="button" aria-selected={t === current} onClick={() => onSelect(t.name)}>{t.name}</button>)}
      </div>
      <div role="tabpanel" aria-label={current?.name}>{current?.body}</div>
    </div>
  );
}
