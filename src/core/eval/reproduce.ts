// The paper's tables, lab beside paper, from one trained policy (and a random-preference one for
// Table 3): Table 1 (three suites, orchestrator and baselines), Table 2 (tools the policy never
// saw in training), Table 3 (preference following), Table 4 (another provider's prices),
// Table 15 (calls per tool) and Figure 6 (accuracy vs cost as the turn budget varies). Each table
// is a list of rows with `paper` and `lab` values side by side; `reproductionMarkdown` renders them.

import type { BatchPolicy } from './policy';
import type { Preference } from '../preference';
import type { Catalog, ToolSpec } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import { baselineFromName } from './baselines';
import { PAPER_TABLE1, PAPER_SUITES } from './paperTable1';
import { PAPER_TABLE3, preferenceFollowing } from './preferenceFollowing';
import { evaluateOnSuites, PAPER_TABLE15, suiteTasks, type SuiteRow } from './suiteTable';

export interface Row {
  name: string;
  paper: Record<string, number | null>;
  lab: Record<string, number | null>;
}

export interface Reproduction {
  table1: Row[];
  table2: Row[];
  table3: Row[];
  table4: Row[];
  table15: Row[];
  figure6: Row[];
}

/** Makes the learned policy for a catalog and P (the caller owns the network). */
export type PolicyMaker = (catalog: Catalog, preference: Preference, name: string) => BatchPolicy;

/** Tools the policy never saw in training (Table 2): models with their own skill profiles and prices. */
export function withUnseenTools(catalog: Catalog): Catalog {
  const base = catalog.tools.find((t) => t.id === 'gpt-5-mini') ?? catalog.tools.find((t) => t.kind === 'generalist');
  if (!base) return structuredClone(catalog);
  const unseen: ToolSpec[] = [
    { ...structuredClone(base), id: 'qwen3-235b', description: 'Open 235B MoE generalist (unseen in training): strong reasoning at a low price.', pricing: { inputPerM: 0.2, outputPerM: 0.6, perCall: 0, perSecond: 0 }, outputTokens: { mean: 1500, spread: 0.35 }, latency: { fixedMs: 1500, tokensPerSecond: 70, jitter: 0.25 }, skill: { retrieve: 5, compute: 1.8, reason: 2.2, code: 2.0, lookup: 0.5, act: 1.8 }, calibration: 0.66 },
    { ...structuredClone(base), id: 'o3-mini', kind: 'generalist', description: 'Small reasoning model (unseen in training): good at maths and code.', pricing: { inputPerM: 1.1, outputPerM: 4.4, perCall: 0, perSecond: 0 }, outputTokens: { mean: 2000, spread: 0.35 }, latency: { fixedMs: 2000, tokensPerSecond: 90, jitter: 0.25 }, skill: { retrieve: 3, compute: 2.3, reason: 2.3, code: 2.4, lookup: 0.4, act: 1.6 }, calibration: 0.68 },
  ];
  return { ...structuredClone(catalog), name: `${catalog.name}+unseen`, tools: [...structuredClone(catalog.tools), ...unseen] };
}

/** Another provider's price list (Table 4): each model's token prices scaled as a second API provider lists them. */
export function withOtherPricing(catalog: Catalog): Catalog {
  const scale: Record<string, [number, number]> = {
    'gpt-5': [0.8, 0.9], 'gpt-5-mini': [1.2, 1.1], 'claude-opus-4.1': [1, 1], 'qwen3-32b': [0.5, 1.5], 'llama-3.3-70b': [0.7, 0.8],
    'qwen2.5-math-72b': [1.3, 1.3], 'qwen2.5-math-7b': [1.5, 1.5], 'qwen2.5-coder-32b': [0.9, 1.2],
  };
  const c = structuredClone(catalog);
  c.name = `${catalog.name}@provider-b`;
  for (const t of c.tools) {
    const s = scale[t.id];
    if (s) t.pricing = { ...t.pricing, inputPerM: t.pricing.inputPerM * s[0], outputPerM: t.pricing.outputPerM * s[1] };
  }
  return c;
}

const pct = (x: number): number => Math.round(1000 * x) / 10;
const mean3 = (r: SuiteRow, k: 'meanCostUSD' | 'meanLatencyS'): number => PAPER_SUITES.reduce((a, s) => a + r.bySuite[s][k], 0) / PAPER_SUITES.length;

function suiteRow(r: SuiteRow, name = r.policy): Row {
  const lab: Row['lab'] = { ...Object.fromEntries(PAPER_SUITES.map((s) => [s, pct(r.bySuite[s].accuracy)])), costCents: Math.round(1000 * r.costUSD) / 10, latencyMin: Math.round(100 * r.latencyS / 60) / 100 };
  const paper: Row['paper'] = r.paper ? { ...r.paper.accuracy, costCents: Number.isNaN(r.paper.costCents) ? null : r.paper.costCents, latencyMin: Number.isNaN(r.paper.latencyMin) ? null : r.paper.latencyMin } : { hle: null, frames: null, tau2: null, costCents: null, latencyMin: null };
  return { name, paper, lab };
}

export interface ReproduceOptions {
  catalog: Catalog;
  sim: SimConfig;
  seed: number;
  count: number;
  /** The headline policy (trained at the default P) and the one trained with random preferences. */
  headline: PolicyMaker;
  random: PolicyMaker;
  preference: Preference;
  baselines: readonly string[];
  /** Turn budgets of Figure 6. */
  maxTurns: readonly number[];
}

/** Baselines of the live "Paper vs lab" view: the paper's Table 1 rows the catalog can build. */
export const LIVE_BASELINES = ['tools+gpt-5', 'notools:gpt-5', 'tools+claude-opus-4.1', 'prompted:gpt-5', 'prompted:qwen3-8b'];

/** Table 1 for a policy and the baselines the catalog has (a baseline naming a missing tool is left out). */
export async function table1Rows(policy: BatchPolicy, baselines: readonly string[], catalog: Catalog, sim: SimConfig, seed: number, count: number): Promise<Row[]> {
  const built: BatchPolicy[] = [];
  for (const b of baselines) {
    try { built.push(baselineFromName(b, catalog, sim)); } catch { /* the edited catalog lacks a tool this row needs */ }
  }
  const rows = await evaluateOnSuites([policy, ...built], suiteTasks(catalog, sim, seed, count), catalog, sim, seed);
  return rows.map((r) => suiteRow(r));
}

/** Every table; progress is reported through `log`. */
export async function reproduce(o: ReproduceOptions, log: (s: string) => void = () => {}): Promise<Reproduction> {
  const { catalog, sim, seed, count } = o;
  const tasks = suiteTasks(catalog, sim, seed, count);
  log('table 1');
  const t1 = await evaluateOnSuites([o.headline(catalog, o.preference, 'orchestrator'), ...o.baselines.map((b) => baselineFromName(b, catalog, sim))], tasks, catalog, sim, seed);
  const table1 = t1.map((r) => suiteRow(r));
  const orchestratorRow = t1[0] as SuiteRow;
  const bestBaseline = (rows: SuiteRow[]) => rows.slice(1).filter((r) => r.policy !== 'oracle').reduce((b, r) => (r.accuracy > b.accuracy ? r : b));

  log('table 2 (unseen tools)');
  const unseen = withUnseenTools(catalog);
  const t2tasks = suiteTasks(unseen, sim, seed, count);
  const t2 = await evaluateOnSuites([o.headline(unseen, o.preference, 'orchestrator'), ...o.baselines.filter((b) => b !== 'oracle').map((b) => baselineFromName(b, unseen, sim))], t2tasks, unseen, sim, seed);
  const best2 = bestBaseline(t2);
  const table2: Row[] = [
    { name: 'orchestrator, unseen tools available', paper: { hle: 22.0, frames: null, tau2: null }, lab: { ...suiteRow(t2[0] as SuiteRow).lab, unseenCallsPerTask: Math.round(100 * PAPER_SUITES.reduce((a, s) => a + ((t2[0] as SuiteRow).bySuite[s].callsPerTask['qwen3-235b'] ?? 0) + ((t2[0] as SuiteRow).bySuite[s].callsPerTask['o3-mini'] ?? 0), 0) / 3) / 100 } },
    { name: `best baseline with them (${best2.policy})`, paper: { hle: 17.8, frames: null, tau2: null }, lab: suiteRow(best2).lab },
    { name: 'orchestrator, training tools only', paper: { hle: null, frames: null, tau2: null }, lab: suiteRow(orchestratorRow).lab },
  ];

  log('table 3 (preferences)');
  const prefs = await preferenceFollowing((p, name) => o.random(catalog, p, name), tasks, catalog, sim, seed);
  const paper3 = PAPER_TABLE3[0];
  const table3: Row[] = prefs.map((r, i) => ({
    name: r.preset,
    paper: i === 0 && paper3 ? { hle: paper3.hle, frames: paper3.frames, tau2: paper3.tau2 } : { hle: null, frames: null, tau2: null },
    lab: { ...Object.fromEntries(PAPER_SUITES.map((s) => [s, pct(r.bySuite[s].accuracy)])), ...Object.fromEntries(PAPER_SUITES.map((s) => [`${s}ApiShare`, pct(r.bySuite[s].apiShare)])) },
  }));

  log('table 4 (unseen pricing)');
  const priced = withOtherPricing(catalog);
  const t4 = await evaluateOnSuites([o.headline(priced, o.preference, 'orchestrator'), baselineFromName('tools+gpt-5', priced, sim)], suiteTasks(priced, sim, seed, count), priced, sim, seed);
  const table4: Row[] = [
    { name: 'orchestrator, another provider’s prices', paper: { hle: 36.9, frames: 76.6, tau2: 80.4, costCents: 7.5 }, lab: suiteRow(t4[0] as SuiteRow).lab },
    { name: 'tools+gpt-5, same prices', paper: { hle: null, frames: null, tau2: null, costCents: null }, lab: suiteRow(t4[1] as SuiteRow).lab },
  ];

  log('table 15');
  const table15: Row[] = t1.filter((r) => PAPER_TABLE15.some((p) => p.policy === r.policy)).map((r) => {
    const p = PAPER_TABLE15.find((x) => x.policy === r.policy);
    const ids = [...new Set([...Object.keys(p?.calls ?? {}), ...catalog.tools.map((t) => t.id)])];
    return { name: r.policy, paper: Object.fromEntries(ids.map((id) => [id, p?.calls[id] ?? null])), lab: Object.fromEntries(ids.map((id) => [id, Math.round(100 * PAPER_SUITES.reduce((a, s) => a + (r.bySuite[s].callsPerTask[id] ?? 0), 0) / 3) / 100])) };
  });

  log('figure 6 (turn budgets)');
  const figure6: Row[] = [];
  const orchestrator = o.headline(catalog, o.preference, 'orchestrator');
  for (const T of o.maxTurns) {
    const simT = { ...sim, maxTurns: T };
    for (const p of [orchestrator, baselineFromName('tools+gpt-5', catalog, simT)]) {
      const r = (await evaluateOnSuites([p], tasks, catalog, simT, seed))[0] as SuiteRow;
      figure6.push({ name: `${p.name}, max turns ${T}`, paper: { hle: null, costUSD: null }, lab: { hle: pct(r.bySuite.hle.accuracy), costUSD: Math.round(1e4 * r.bySuite.hle.meanCostUSD) / 1e4, meanCostUSD3: Math.round(1e4 * mean3(r, 'meanCostUSD')) / 1e4 } });
    }
  }
  return { table1, table2, table3, table4, table15, figure6 };
}

/** The paper's Figure 6 in words (its curves are not published as numbers). */
export const PAPER_FIGURE6 = 'Paper, Figure 6 (HLE, max turns 10/20/50/100): Orchestrator-8B ≈ 27% at $0.03 … 39% at $0.40 per query; GPT-5 ≈ 27.5% at $0.16 … 36% at $0.60 — the orchestrator dominates at every budget.';

/** Renders every table as markdown, lab beside paper. */
export function reproductionMarkdown(r: Reproduction, header: string): string {
  const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : String(x));
  const table = (title: string, rows: Row[]): string => {
    const keys = [...new Set(rows.flatMap((x) => [...Object.keys(x.lab), ...Object.keys(x.paper)]))];
    return [`## ${title}`, '', `| row | ${keys.map((k) => `${k} lab / paper`).join(' | ')} |`, `|---|${keys.map(() => '---:').join('|')}|`,
      ...rows.map((x) => `| ${x.name} | ${keys.map((k) => `${fmt(x.lab[k])} / ${fmt(x.paper[k])}`).join(' | ')} |`), ''].join('\n');
  };
  const paper1 = PAPER_TABLE1.map((p) => `${p.label}: ${p.accuracy.hle} / ${p.accuracy.frames} / ${p.accuracy.tau2 ?? '—'}`).join('; ');
  return [header, '', table('Table 1 — three suites (accuracy %, cost ¢ and latency min over HLE and FRAMES)', r.table1), `Paper rows: ${paper1}.`, '',
    table('Table 2 — unseen tools (qwen3-235b, o3-mini added at evaluation)', r.table2), table('Table 3 — preference following (accuracy %, share of paid-API calls %)', r.table3),
    table('Table 4 — another provider’s prices', r.table4), table('Table 15 — calls per task (mean of the three suites)', r.table15),
    table('Figure 6 — accuracy vs cost on HLE as the turn budget varies', r.figure6), PAPER_FIGURE6, ''].join('\n');
}
