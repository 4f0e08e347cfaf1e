// Policies evaluated on the three benchmark suites side by side with the paper's Table 1: per
// suite accuracy, and cost and latency averaged over HLE and FRAMES as the paper reports them,
// each also as a ratio to `tools+gpt-5` (the paper's strongest baseline).

import type { Catalog } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import { generateTasks, type Task } from '../sim/tasks';
import { evaluatePolicy, type EvalResult } from './evaluate';
import { PAPER_SUITES, PAPER_TABLE1, type PaperSuite } from './paperTable1';
import type { BatchPolicy } from './policy';

export interface SuiteRow {
  policy: string;
  bySuite: Record<PaperSuite, EvalResult>;
  /** Mean over the three suites. */
  accuracy: number;
  /** Means over HLE and FRAMES (the paper's cost and latency columns). */
  costUSD: number;
  latencyS: number;
  paper?: { label: string; accuracy: Record<PaperSuite, number | null>; costCents: number; latencyMin: number };
}

/** The held-out tasks of each suite (all tools available, as the paper's tables). */
export function suiteTasks(catalog: Catalog, sim: SimConfig, seed: number, count: number): Record<PaperSuite, Task[]> {
  const out = {} as Record<PaperSuite, Task[]>;
  for (const s of PAPER_SUITES) out[s] = generateTasks(catalog, { seed, count, suite: s, availability: 1, sim }).tasks;
  return out;
}

function paperFor(name: string): SuiteRow['paper'] {
  const row = PAPER_TABLE1.find((r) => r.policy === name || (name.startsWith('orchestrator') && r.policy === 'orchestrator'));
  return row ? { label: row.label, accuracy: row.accuracy, costCents: row.costCents, latencyMin: row.latencyMin } : undefined;
}

/** Evaluates each policy on every suite (same tasks and draws for all). */
export async function evaluateOnSuites(
  policies: readonly BatchPolicy[], tasks: Record<PaperSuite, Task[]>, catalog: Catalog, sim: SimConfig, seed: number,
): Promise<SuiteRow[]> {
  const rows: SuiteRow[] = [];
  for (const p of policies) {
    const bySuite = {} as Record<PaperSuite, EvalResult>;
    for (const s of PAPER_SUITES) bySuite[s] = await evaluatePolicy(p, tasks[s], catalog, sim, { seed });
    const paper = paperFor(p.name);
    rows.push({
      policy: p.name,
      bySuite,
      accuracy: PAPER_SUITES.reduce((a, s) => a + bySuite[s].accuracy, 0) / PAPER_SUITES.length,
      costUSD: (bySuite.hle.meanCostUSD + bySuite.frames.meanCostUSD) / 2,
      latencyS: (bySuite.hle.meanLatencyS + bySuite.frames.meanLatencyS) / 2,
      ...(paper ? { paper } : {}),
    });
  }
  return rows;
}

const pct = (x: number): string => (100 * x).toFixed(1);
const paperNum = (x: number | null | undefined, digits = 1): string => (x === null || x === undefined || Number.isNaN(x) ? '—' : x.toFixed(digits));

/**
 * The rows as a markdown table: lab vs paper per suite, cost and latency with their ratio to
 * tools+gpt-5 (— where that row is not in the table). A catalog priced in units has no cents to set
 * beside the paper's: its cost column is in units, the paper's cost left out.
 */
export function suiteTableMarkdown(rows: readonly SuiteRow[], currency: Catalog['currency'] = 'USD'): string {
  const ref = rows.find((r) => r.policy === 'tools+gpt-5');
  const refPaper = PAPER_TABLE1.find((r) => r.policy === 'tools+gpt-5');
  const usd = currency === 'USD';
  const lines = [
    // Cost and latency are the mean over HLE and FRAMES, as the paper reports them (Table 1).
    `| policy | HLE lab / paper | FRAMES lab / paper | τ² lab / paper | ${usd ? 'cost ¢' : 'cost (units)'} (HLE + ` +
      `FRAMES) lab / paper | latency min (HLE + FRAMES) lab / paper | cost ÷ tools+gpt-5 lab / paper | latency ÷ ` +
      `tools+gpt-5 lab / paper |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const p = r.paper;
    const costRatio = ref ? r.costUSD / ref.costUSD : NaN, latRatio = ref ? r.latencyS / ref.latencyS : NaN;
    const pCost = p && refPaper ? p.costCents / refPaper.costCents : NaN, pLat = p && refPaper ? p.latencyMin / refPaper.latencyMin : NaN;
    lines.push(`| \`${r.policy}\` | ${PAPER_SUITES.map((s) => `${pct(r.bySuite[s].accuracy)} / ${paperNum(p?.accuracy[s])}`).join(' | ')} | ${usd
      ? `${(100 * r.costUSD).toFixed(2)} / ${paperNum(p?.costCents)}`
      : `${r.costUSD.toFixed(3)} / —`} | ${(r.latencyS / 60).toFixed(2)} / ${paperNum(p?.latencyMin)} | ${paperNum(costRatio, 2)} / ${usd
      ? paperNum(pCost, 2) : '—'} | ${paperNum(latRatio, 2)} / ${paperNum(pLat, 2)} |`);
  }
  return lines.join('\n');
}

/** ToolOrchestra Table 15: mean calls per task over HLE, FRAMES and τ² (the lab's tool ids). */
export const PAPER_TABLE15: readonly { label: string; policy: string; calls: Record<string, number> }[] = [
  { label: 'Orchestrator-8B (trained)', policy: 'orchestrator', calls: { 'gpt-5': 1.6, 'gpt-5-mini': 1.7,
    'qwen3-32b': 1.3, 'qwen2.5-coder-32b': 0.2, 'qwen2.5-math-72b': 0, 'qwen2.5-math-7b': 0.1, 'llama-3.3-70b': 0,
    'local-search': 1.8, 'web-search': 0.7, 'code-interpreter': 0.8 } },
  { label: 'GPT-5 (prompted)', policy: 'prompted:gpt-5', calls: { 'gpt-5': 2.7, 'gpt-5-mini': 5.6, 'qwen3-32b': 0,
    'qwen2.5-coder-32b': 0.2, 'qwen2.5-math-72b': 0, 'qwen2.5-math-7b': 0, 'llama-3.3-70b': 0, 'local-search': 0.5,
    'web-search': 0.7, 'code-interpreter': 1.0 } },
  { label: 'Qwen3-8B (prompted)', policy: 'prompted:qwen3-8b', calls: { 'gpt-5': 6.0, 'gpt-5-mini': 0.5,
    'qwen3-32b': 1.4, 'qwen2.5-coder-32b': 0.5, 'qwen2.5-math-72b': 0, 'qwen2.5-math-7b': 0, 'llama-3.3-70b': 0,
    'local-search': 0.8, 'web-search': 1.2, 'code-interpreter': 1.6 } },
];

/** Calls per task per tool, averaged over the three suites, lab beside the paper's Table 15 where it has the row. */
export function callsTableMarkdown(rows: readonly SuiteRow[]): string {
  const ids = Object.keys(PAPER_TABLE15[0]?.calls ?? {});
  const extra = rows.length > 0 ? Object.keys(rows[0]?.bySuite.hle.callsPerTask ?? {}).filter((id) => !ids.includes(id)) : [];
  const cols = [...ids, ...extra];
  const lines = [`| policy | ${cols.join(' | ')} | total |`, `|---|${cols.map(() => '---:').join('|')}|---:|`];
  for (const r of rows) {
    const mean = (id: string) => PAPER_SUITES.reduce((a, s) => a + (r.bySuite[s].callsPerTask[id] ?? 0), 0) / PAPER_SUITES.length;
    const total = cols.reduce((a, id) => a + mean(id), 0);
    lines.push(`| \`${r.policy}\` (lab) | ${cols.map((id) => mean(id).toFixed(1)).join(' | ')} | ${total.toFixed(1)} |`);
    const paper = PAPER_TABLE15.find((p) => p.policy === r.policy || (r.policy.startsWith('orchestrator') && p.policy === 'orchestrator'));
    if (paper) lines.push(`| ${paper.label} (paper) | ` +
      `${cols.map((id) => (paper.calls[id] === undefined ? '—'
        : (paper.calls[id] as number).toFixed(1))).join(' | ')} | ${Object.values(paper.calls).reduce((a, x) => a + x, 0).toFixed(1)} |`);
  }
  return lines.join('\n');
}
