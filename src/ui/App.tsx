import { useEffect, useState, type ReactNode } from 'react';
import { useLab } from '../store/labStore';
import { AdvantageHistogram } from './charts/AdvantageHistogram';
import { TradeoffChart } from './charts/TradeoffChart';
import { TrainingCharts } from './charts/TrainingCharts';
import { CatalogEditor } from './CatalogEditor';
import { DataBrowser } from './DataBrowser';
import { ExportImport } from './ExportImport';
import { PaperVsLab } from './PaperVsLab';
import { GroupInspector } from './GroupInspector';
import { HyperparamsPanel } from './HyperparamsPanel';
import { Lessons } from './Lessons';
import { Notices } from './Notices';
import { PreferencePanel } from './PreferencePanel';
import { TopBar } from './TopBar';

function Tabs({ tabs, label }: { tabs: { name: string; body: ReactNode }[]; label: string }) {
  const [active, setActive] = useState(0);
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label}>
        {tabs.map((t, i) => <button key={t.name} role="tab" type="button" aria-selected={i === active} onClick={() => setActive(i)}>{t.name}</button>)}
      </div>
      <div role="tabpanel" aria-label={tabs[active]?.name}>{tabs[active]?.body}</div>
    </div>
  );
}

/** Space toggles Start / Pause unless the user is typing or on a control. */
function useSpaceToggle() {
  const toggle = useLab((s) => s.toggleRun);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (e.code !== 'Space' || (el && /^(INPUT|SELECT|TEXTAREA|BUTTON|SUMMARY)$/.test(el.tagName))) return;
      e.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [toggle]);
}

export function App() {
  const boot = useLab((s) => s.boot);
  useEffect(() => {
    void boot();
  }, [boot]);
  useSpaceToggle();
  return (
    <div className="app">
      <TopBar />
      <Notices />
      <main className="lab">
        <aside className="side">
          <PreferencePanel />
          <Tabs label="settings" tabs={[{ name: 'Training', body: <HyperparamsPanel /> }, { name: 'Tools', body: <CatalogEditor /> }]} />
        </aside>
        <section className="center">
          <TrainingCharts />
          <AdvantageHistogram />
        </section>
        <section className="right">
          <TradeoffChart />
        </section>
        <section className="bottom panel">
          <Tabs label="views" tabs={[
            { name: 'Inspector', body: <GroupInspector /> },
            { name: 'Data', body: <DataBrowser /> },
            { name: 'Lessons', body: <Lessons /> },
            { name: 'Paper vs lab', body: <PaperVsLab /> },
            { name: 'Export / Import', body: <ExportImport /> },
          ]} />
        </section>
      </main>
    </div>
  );
}
