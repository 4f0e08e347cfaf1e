import { useEffect, useMemo } from 'react';
import { useLab } from '../store/labStore';
import { useHidden, useView } from '../store/viewStore';
import { AdvantageHistogram } from './charts/AdvantageHistogram';
import { TradeoffChart } from './charts/TradeoffChart';
import { DiagnosticsCharts, KeyCurves } from './charts/TrainingCharts';
import { CompareRuns } from './CompareRuns';
import { DataBrowser } from './DataBrowser';
import { ExportImport } from './ExportImport';
import { FirstScreen } from './FirstScreen';
import { GroupInspector } from './GroupInspector';
import { RecipeLine } from './RecipeLine';
import { RunHealthLine } from './RunHealthLine';
import { RoutingView } from './RoutingView';
import { SettingsDrawer } from './layout/SettingsDrawer';
import { Tabs } from './layout/Tabs';
import { LessonDock, Lessons, useLessonWatcher } from './lessons/Lessons';
import { FormulaPanel } from './math/FormulaPanel';
import { formulasFor } from './math/formulas';
import { useSymbolLinking } from './math/symbolLinking';
import { Notices } from './Notices';
import { PaperVsLab } from './PaperVsLab';
import { PreferencePanel } from './PreferencePanel';
import { SlowMotion } from './SlowMotion';
import { TopBar } from './TopBar';
import { useFormulaValues, useShownFormulaMode } from './useFormulaValues';

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

/** The theme and classroom mode as attributes of <html>, where the style sheet reads them. */
function useDocumentView() {
  const theme = useView((s) => s.theme);
  const classroom = useView((s) => s.classroom);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.style.colorScheme = theme;
  }, [theme]);
  useEffect(() => {
    if (classroom) document.documentElement.dataset.classroom = '1';
    else delete document.documentElement.dataset.classroom;
  }, [classroom]);
}

/** Slow motion beside the formulas it computes: hovering a symbol lights its value in the phases, and back. */
function SlowMotionWithFormulas() {
  const values = useFormulaValues();
  const { reward, normalizeStd } = useShownFormulaMode();
  const formulas = useMemo(() => formulasFor({ reward, normalizeStd }), [reward, normalizeStd]);
  return (
    <div className="slowmo-split">
      <SlowMotion />
      <section className="formulas" aria-label="Formulas" data-region="formulas">
        <FormulaPanel values={values} formulas={formulas} />
      </section>
    </div>
  );
}

/**
 * The page, in reading order: the question and its answer with the three things to do, the
 * trade-off view that shows the answer, the curves that show it being learned; then slow motion,
 * lessons and the researcher's views below; settings in a drawer; the running lesson docked.
 */
export function App() {
  const boot = useLab((s) => s.boot);
  useEffect(() => {
    void boot();
  }, [boot]);
  useSpaceToggle();
  useSymbolLinking();
  useDocumentView();
  const hint = useLessonWatcher();
  const tab = useView((s) => s.tab);
  const showTab = useView((s) => s.showTab);
  const spotlight = useView((s) => s.spotlight);
  const hideDiagnostics = useHidden('diagnostics');
  const hideResearch = useHidden('research');
  const tabs = [
    { name: 'Slow motion', body: <SlowMotionWithFormulas /> },
    { name: 'Lessons', body: <Lessons /> },
    { name: 'Compare runs', body: <div data-region="compare"><CompareRuns /></div> },
    ...(hideDiagnostics ? [] : [{ name: 'Diagnostics', body: <div className="diagnostics"><DiagnosticsCharts /><AdvantageHistogram /></div> }]),
    { name: 'Inspector', body: <GroupInspector /> },
    ...(hideResearch ? [] : [
      { name: 'Data', body: <DataBrowser /> },
      { name: 'Paper vs lab', body: <PaperVsLab /> },
      { name: 'Export / Import', body: <ExportImport /> },
    ]),
  ];
  return (
    <div className="app" data-spotlight={spotlight ?? undefined}>
      <TopBar />
      <Notices />
      <main className="lab">
        <div className="intro">
          <FirstScreen />
          <PreferencePanel />
        </div>
        <section className="tradeoff-area" data-region="tradeoff" aria-label="trade-off view">
          <TradeoffChart />
        </section>
        <section className="curves-area" aria-label="training curves">
          <RecipeLine />
          <RunHealthLine />
          <KeyCurves />
          <RoutingView />
        </section>
        <section className="bottom panel" data-region="bottom">
          <Tabs label="views" active={tab} onSelect={showTab} tabs={tabs} />
        </section>
      </main>
      <LessonDock hint={hint} />
      <SettingsDrawer />
    </div>
  );
}
