import { useState } from 'react';
import type { Catalog, ToolSpec } from '../core/sim/catalog';
import { STEP_TYPE_MEANING, STEP_TYPES, type StepType } from '../core/sim/stepTypes';
import { WRITER_ROLES, type WriterRole } from '../core/sim/catalog';
import { LIBRARY_IDS, libraryTool } from '../core/sim/modelLibrary';
import { PRESET_NAMES, presetByName } from '../core/sim/presets';
import { parseDecimal } from '../core/decimal';
import { useLab } from '../store/labStore';
import { CATALOG_FIELD_LABELS } from '../store/catalogErrorText';
import { useShallow } from 'zustand/react/shallow';

type Edit = (t: ToolSpec, v: number) => ToolSpec;
const L = CATALOG_FIELD_LABELS; // one name per field, shared with the messages of a refused edit
const COLUMNS: { label: string; get: (t: ToolSpec) => number; set: Edit; step: number }[] = [
  { label: L['pricing.inputPerM'], get: (t) => t.pricing.inputPerM, set: (t, v) => ({ ...t, pricing: { ...t.pricing, inputPerM: v } }), step: 0.05 },
  { label: L['pricing.outputPerM'], get: (t) => t.pricing.outputPerM, set: (t, v) => ({ ...t, pricing: { ...t.pricing, outputPerM: v } }), step: 0.05 },
  { label: L['pricing.perCall'], get: (t) => t.pricing.perCall, set: (t, v) => ({ ...t, pricing: { ...t.pricing, perCall: v } }), step: 0.001 },
  { label: L['latency.fixedMs'], get: (t) => t.latency.fixedMs, set: (t, v) => ({ ...t, latency: { ...t.latency, fixedMs: v } }), step: 100 },
  { label: L['latency.tokensPerSecond'], get: (t) => t.latency.tokensPerSecond,
    set: (t, v) => ({ ...t, latency: { ...t.latency, tokensPerSecond: v } }), step: 5 },
  { label: L.calibration, get: (t) => t.calibration, set: (t, v) => ({ ...t, calibration: v }), step: 0.05 },
];

/** Edit prices, latency, skills and availability of every tool, add a tool, switch preset. Invalid edits are refused with the validator's message. */
export function CatalogEditor() {
  const { catalog, preset, setCatalog, setPreset, notify } = useLab(useShallow((s) => ({ catalog: s.catalog,
    preset: s.preset, setCatalog: s.setCatalog, setPreset: s.setPreset, notify: s.notify })));
  const [newId, setNewId] = useState('my-model');
  const update = (j: number, next: ToolSpec): boolean => setCatalog({ ...catalog, tools: catalog.tools.map((t, k) => (k === j ? next : t)) } satisfies Catalog);
  const setSkill = (j: number, s: StepType, raw: string): boolean => {
    const t = catalog.tools[j] as ToolSpec;
    const skill: Record<string, number> = { ...t.skill };
    if (raw.trim() === '') delete skill[s];
    // Decimal only (0x10 is no skill of 16): anything else is NaN, which the catalog's check refuses.
    else skill[s] = parseDecimal(raw);
    return update(j, { ...t, skill });
  };
  /** A model's writing ability for a role (blank: it fills no writer slot of that role). */
  const setWrites = (j: number, r: WriterRole, raw: string): boolean => {
    const t = catalog.tools[j] as ToolSpec;
    const writes: Record<string, number> = { ...t.writes };
    if (raw.trim() === '') delete writes[r];
    else writes[r] = parseDecimal(raw);
    const { writes: _old, ...rest } = t;
    return update(j, Object.keys(writes).length ? { ...rest, writes } : rest);
  };
  const [libraryId, setLibraryId] = useState<string>('claude-opus-4.1');
  const inCatalog = new Set(catalog.tools.map((t) => t.id));
  /** A model of the library (the paper's baselines' and its Table 2's), as it is there, enabled. */
  const addFromLibrary = () => {
    const t = libraryTool(libraryId);
    if (t) setCatalog({ ...catalog, tools: [...catalog.tools, t] });
  };
  /**
   * A new tool starts as the catalog's first generalist as its preset defines it (not as edited: a disabled row or a
   * zeroed price would make the new one look dead), and enabled.
   */
  const addTool = () => {
    const base = catalog.tools.find((t) => t.kind === 'generalist') ?? catalog.tools[0];
    if (!base) return;
    const template = presetByName(preset)?.tools.find((t) => t.id === base.id) ?? base;
    setCatalog({ ...catalog, tools: [...catalog.tools, { ...structuredClone(template), enabled: true, id: newId.trim(),
      description: `${newId.trim()} (added in the lab)` }] });
  };
  return (
    <section className="panel catalog-editor" aria-label="tool catalog editor">
      <header className="panel-head">
        <h2>Tools</h2>
        <label>Catalog preset <select aria-label="Catalog preset" value={preset}
          onChange={(e) => setPreset(e.target.value)}>{PRESET_NAMES.map((n) => <option key={n}
          value={n}>{n}</option>)}</select></label>
        <span className="small muted">edits apply at once; the policy scores any catalog, so it keeps running</span>
      </header>
      <div className="table-wrap">
        <table className="editor">
          <thead>
            <tr><th>on</th><th>tool</th>{COLUMNS.map((c) => <th
              key={c.label}>{c.label}</th>)}{WRITER_ROLES.map((r) => <th key={r}
              title={`a model’s ability as a writer of ${r === 'query' ? 'search queries'
              : 'programs'} (blank = it fills no such slot; a basic tool runs what is written)`}>writes {r}</th>)}{STEP_TYPES.map((s) => <th
              key={s} title={`skill on “${STEP_TYPE_MEANING[s]}” (blank = cannot)`}>{s}</th>)}</tr>
          </thead>
          <tbody>
            {catalog.tools.map((t, j) => (
              <tr key={t.id}>
                <td><input type="checkbox" aria-label={`enable ${t.id}`} checked={t.enabled}
                  onChange={(e) => update(j, { ...t, enabled: e.target.checked })} /></td>
                <td title={t.description}><code>{t.id}</code></td>
                {COLUMNS.map((c) => (
                  <td key={c.label}><input type="number" aria-label={`${t.id} ${c.label}`} step={c.step}
                    defaultValue={c.get(t)} key={`${t.id}-${c.label}-${c.get(t)}`}
                    onBlur={(e) => {
                      // An empty field, or one the browser could not read as a finite number (1e999), is refused — never read as 0.
                      const raw = e.target.value;
                      if (raw.trim() === '' || !Number.isFinite(Number(raw))) {
                        notify('error', `${t.id} ${c.label}: ${raw.trim() === '' ? 'empty or not a finite number'
                          : `"${raw}" is not a finite number`} — refused; it stays ${c.get(t)}.`, 'catalog');
                        e.target.value = String(c.get(t));
                        return;
                      }
                      const v = Number(raw);
                      if (v !== c.get(t) && !update(j, c.set(t, v))) e.target.value = String(c.get(t));
                    }} /></td>
                ))}
                {WRITER_ROLES.map((r) => (
                  <td key={r}>{t.kind === 'basic' ? <span
                    className="muted small">{t.runs === r ? 'runs' : ''}</span> : <input type="text" inputMode="decimal"
                    className="skill" aria-label={`${t.id} writes ${r}`} defaultValue={t.writes?.[r] ?? ''}
                    key={`${t.id}-w${r}-${t.writes?.[r] ?? ''}`}
                    onBlur={(e) => { if (e.target.value !== String(t.writes?.[r] ?? '')
                      && !setWrites(j, r, e.target.value)) e.target.value = String(t.writes?.[r] ?? ''); }} />}</td>
                ))}
                {STEP_TYPES.map((s) => (
                  <td key={s}><input type="text" inputMode="decimal" className="skill" aria-label={`${t.id} skill ` +
                    `${s}`} defaultValue={t.skill[s] ?? ''} key={`${t.id}-${s}-${t.skill[s] ?? ''}`}
                    onBlur={(e) => { if (e.target.value !== String(t.skill[s] ?? '')
                      && !setSkill(j, s, e.target.value)) e.target.value = String(t.skill[s] ?? ''); }} /></td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="add-tool">
        <input aria-label="New tool id" value={newId} onChange={(e) => setNewId(e.target.value)} />
        <button type="button" onClick={addTool}>Add tool</button>
        <span className="small muted">starts as a copy of the first generalist; edit its prices and skills</span>
      </div>
      <div className="add-tool">
        <label>Add a model from the library <select aria-label="Model from the library" value={libraryId} onChange={(e) => setLibraryId(e.target.value)}>
          {LIBRARY_IDS.filter((id) => !inCatalog.has(id)).map((id) => <option key={id} value={id}>{id}</option>)}
        </select></label>
        <button type="button" onClick={addFromLibrary} disabled={inCatalog.has(libraryId)}>Add model</button>
        <span className="small muted">e.g. Claude Opus 4.1, a baseline in the paper and not one of its orchestrator’s tools</span>
      </div>
    </section>
  );
}
