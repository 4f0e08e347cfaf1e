// Preference following (the paper's Table 3): one policy evaluated on each suite at the default
// preference and at every instruction preset, with its accuracy, cost, latency and where its
// calls went — the share to paid APIs (closed models, web search) against local tools and open
// models. A policy follows a preset when its calls move the way the preset asks while its
// accuracy stays close to the default's. Each result also says how its failures came about
// (failures.ts), so a preset that loses accuracy shows how.

import { INSTRUCTION_PRESETS, isApi } from '../instructionPresets';
import { DEFAULT_PREFERENCE, DEFAULT_PREFERENCE_LABEL, type Preference } from '../preference';
import { formatCost, type Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import type { Task } from '../sim/tasks';
import { evaluatePolicy, type EvalResult } from './evaluate';
import { PAPER_SUITES, type PaperSuite } from './paperTable1';
import type { BatchPolicy } from './policy';

/**
 * ToolOrchestra Table 3 (HLE / FRAMES / τ²): not accuracies but the preference-aware reward of its
 * appendix (tool calls normalised against a Qwen3-8B run, R = M·P when the answer is right, averaged),
 * with the lab's policy that stands for each row.
 */
export const PAPER_TABLE3: readonly { label: string; policy: string; hle: number; frames: number; tau2: number }[] = [
  { label: 'Orchestrator-8B', policy: 'orchestrator', hle: 46.7, frames: 68.4, tau2: 79.5 },
  { label: 'GPT-5', policy: 'tools+gpt-5', hle: 34.6, frames: 62.3, tau2: 70.3 },
  { label: 'Claude Opus 4.1', policy: 'prompted:claude-opus-4.1', hle: 40.2, frames: 63.4, tau2: 73.5 },
  { label: 'Qwen3-8B', policy: 'prompted:qwen3-8b', hle: 25.3, frames: 43.2, tau2: 55.7 },
];


export interface PreferenceRow {
  preset: string;
  preference: Preference;
  bySuite: Record<PaperSuite, EvalResult & { apiShare: number }>;
}

/** Share of a result's calls that went to paid APIs. */
export function apiShare(r: EvalResult): number {
  let api = 0, all = 0;
  for (const [id, n] of Object.entries(r.callsPerTask)) {
    all += n;
    if (isApi(id)) api += n;
  }
  return all > 0 ? api / all : 0;
}

/**
 * Evaluates `make(P)` at the default P and at every instruction preset, on every suite; with `failures`,
 * also how the failed episodes failed (it traces them); with `toolRef` (per suite, a reference run's mean
 * calls per tool), each result's `score` is the paper's Table 3 metric (evaluate.ts, preferenceScore).
 */
export async function preferenceFollowing(
  make: (p: Preference, name: string) => BatchPolicy, tasks: Record<PaperSuite, Task[]>, catalog: Catalog, sim: SimConfig, seed: number,
  opts: { failures?: boolean; toolRef?: Record<PaperSuite, ArrayLike<number>> } = {},
): Promise<PreferenceRow[]> {
  const presets = [{ name: DEFAULT_PREFERENCE_LABEL, preference: DEFAULT_PREFERENCE },
    ...INSTRUCTION_PRESETS.map((x) => ({ name: x.name, preference: x.preference(catalog) }))];
  const rows: PreferenceRow[] = [];
  for (const p of presets) {
    const bySuite = {} as PreferenceRow['bySuite'];
    for (const s of PAPER_SUITES) {
      const r = await evaluatePolicy(make(p.preference, p.name), tasks[s], catalog, sim, { seed,
        preference: p.preference, failures: opts.failures === true,
        ...(opts.toolRef ? { toolRef: opts.toolRef[s] } : {}) });
      bySuite[s] = { ...r, apiShare: apiShare(r) };
    }
    rows.push({ preset: p.name, preference: p.preference, bySuite });
  }
  return rows;
}

/** The rows as markdown: per suite accuracy, cost, and the share of calls to paid APIs. */
export function preferenceTableMarkdown(rows: readonly PreferenceRow[], catalog: Pick<Catalog, 'currency'> = { currency: 'USD' }): string {
  const lines = [
    '| preset | HLE acc · cost · API share | FRAMES acc · cost · API share | τ² acc · cost · API share |',
    '|---|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(`| ${r.preset} | ${PAPER_SUITES.map((s) => { const x = r.bySuite[s];
      return `${(100 * x.accuracy).toFixed(1)}% · ${catalog.currency === 'USD' ? `${(100 * x.meanCostUSD).toFixed(2)}¢`
      : formatCost(catalog, x.meanCostUSD)} · ${(100 * x.apiShare).toFixed(0)}%`; }).join(' | ')} |`);
  }
  if (rows.some((r) => PAPER_SUITES.some((s) => r.bySuite[s].failures))) {
    lines.push('', 'Where the failures come from (share of tasks): out of turns · answered without the evidence a step needed · answered wrong with it', '',
      '| preset | HLE | FRAMES | τ² |', '|---|---:|---:|---:|');
    const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
    for (const r of rows) {
      lines.push(`| ${r.preset} | ${PAPER_SUITES.map((s) => { const f = r.bySuite[s].failures;
        return f ? `${pct(f.outOfTurns)} · ${pct(f.missingEvidence)} · ${pct(f.wrongAnswer)}` : '—';
        }).join(' | ')} |`);
    }
  }
  lines.push('',
    'Paper, Table 3 (its preference-aware reward, not accuracy): ' + PAPER_TABLE3.map((r) => `${r.label} ${r.hle} / ` +
      `${r.frames} / ${r.tau2}`).join('; ') + '.');
  return lines.join('\n');
}
