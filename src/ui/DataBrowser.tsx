import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { Catalog } from '../core/sim/catalog';
import { harnessSchemas, taskMessages, tasksToJsonl } from '../core/sim/render';
import type { Task } from '../core/sim/tasks';
import { useLab } from '../store/labStore';
import { useShallow } from 'zustand/react/shallow';
import { saveFile } from '../store/saveFile';
import { CatalogTable } from './CatalogTable';

function TaskDetail({ task, catalog }: { task: Task; catalog: Catalog }) {
  return (
    <article className="task-detail" aria-label={`task ${task.id}`}>
      <h3>
        <span className={`domain ${task.domain}`}>{task.domain}</span> {task.question}
      </h3>
      <table>
        <thead>
          <tr><th>#</th><th>step</th><th>type</th><th>difficulty</th><th>hint (seen)</th><th>needs a tool</th><th>golden calls</th></tr>
        </thead>
        <tbody>
          {task.steps.map((s, k) => (
            <tr key={k}>
              <td>{k + 1}</td>
              <td>{s.text}</td>
              <td><code>{s.type}</code></td>
              <td className="num">{s.difficulty.toFixed(2)}</td>
              <td className="num">{s.hint.toFixed(2)}</td>
              <td>{s.needsTool ? 'yes' : ''}</td>
              <td>{task.golden.path.filter((g) => g.step === k).map((g) => <code key={g.slot}
                className="chip">{g.slot === 'submit' ? `${catalog.orchestrator.id} (itself)`
                : g.slot} p {g.p.toFixed(2)}</code>)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="small">
        {task.commits === 'task' ? 'One final answer' : 'Each step committed in turn'} · golden path succeeds with
        p = {task.golden.successProbability.toFixed(3)} · context {task.promptTokens} tokens{task.maxTurns
          ? ` · ${task.maxTurns} turns` : ''} · available tools:{' '}
        {task.available.map((id) => <code key={id} className="chip">{id}</code>)}
      </p>
      {task.store && (
        <details open>
          <summary>Record store (judged by final DB state)</summary>
          <div className="stores">
            <pre>{JSON.stringify(task.store, null, 1)}</pre>
            <pre>{JSON.stringify(task.golden.store, null, 1)}</pre>
          </div>
        </details>
      )}
      <details>
        <summary>Golden trajectory as chat messages (OpenAI function calls)</summary>
        <pre>{JSON.stringify(taskMessages(task, catalog), null, 2)}</pre>
      </details>
    </article>
  );
}

/** ToolScale-lite: the generated tasks, one in detail, the tool schemas, JSONL download. */
export function DataBrowser() {
  const { tasks, stats, selected, catalog, dataSeed, select, setDataSeed } = useLab(
    useShallow((s) => ({ tasks: s.tasks, stats: s.stats, selected: s.selected, catalog: s.catalog, dataSeed: s.dataSeed,
      select: s.select, setDataSeed: s.setDataSeed })),
  );
  const task = tasks[selected];
  const list = useRef<HTMLUListElement>(null);
  /** The listbox's keys (WAI-ARIA): arrows move the selection, Page Up/Down by ten, Home and End to the ends. */
  const onKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const last = tasks.length - 1;
    const to = { ArrowDown: selected + 1, ArrowUp: selected - 1, PageDown: selected + 10, PageUp: selected - 10, Home: 0, End: last }[e.key];
    if (to === undefined || last < 0) return;
    e.preventDefault();
    select(Math.max(0, Math.min(last, to)));
  };
  // The selected task stays in the list's view (the list scrolls, never the page).
  useEffect(() => {
    const box = list.current, item = box?.children[selected];
    if (!box || !item) return;
    const b = box.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < b.top) box.scrollTop -= b.top - r.top;
    else if (r.bottom > b.bottom) box.scrollTop += r.bottom - b.bottom;
  }, [selected]);
  return (
    <section className="panel data-browser" aria-label="ToolScale-lite data">
      <header className="panel-head">
        <h2>ToolScale-lite tasks</h2>
        <label>
          data seed <input type="number" aria-label="Data seed" value={dataSeed} min={0}
            onChange={(e) => setDataSeed(Math.max(0, Math.floor(Number(e.target.value) || 0)))} />
        </label>
        <button type="button" disabled={tasks.length === 0} onClick={() => saveFile(`toolscale-lite-${catalog.name}-seed${dataSeed}.jsonl`,
          tasksToJsonl(tasks, catalog), 'application/jsonl')}>
          Download JSONL
        </button>
        {stats && (
          <span className="small muted" data-testid="gen-stats">
            {stats.kept} kept of {stats.generated} generated · dropped {stats.droppedUnsolvable} unsolvable, {stats.droppedNoTool} solvable without tools
          </span>
        )}
      </header>
      <div className="browser">
        <ul className="task-list" role="listbox" aria-label="tasks" tabIndex={0} ref={list} onKeyDown={onKey}
          aria-activedescendant={task ? `task-option-${selected}` : undefined}>
          {tasks.map((t, i) => (
            <li key={t.id} id={`task-option-${i}`} role="option" aria-selected={i === selected} onClick={() => select(i)}
              className={i === selected ? 'sel' : ''}>
              <span className={`domain ${t.domain}`}>{t.domain}</span>
              <span className="q">{t.question}</span>
              <span className="small muted">{t.steps.length} {t.steps.length === 1 ? 'step' : 'steps'}</span>
            </li>
          ))}
        </ul>
        {task ? <TaskDetail task={task} catalog={catalog} /> : <p className="muted">No tasks yet.</p>}
      </div>
      <CatalogTable catalog={catalog} />
      <details>
        <summary>Tool schemas (OpenAI function calling)</summary>
        <pre>{JSON.stringify(harnessSchemas(catalog), null, 2)}</pre>
      </details>
    </section>
  );
}
