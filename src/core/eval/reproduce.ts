// The paper's tables, lab beside paper, from one trained policy (the shipped recipe's): Table 1 (three
// suites, orchestrator and baselines), Table 2 (every model replaced by models never seen in training,
// as the paper's §6.3), Table 3 (preference following, with the paper's own metric beside accuracy),
// Table 4 (another provider's prices), Table 15 (calls per tool) and Figure 6 (accuracy and cost as
// the turn budget varies, at budgets spread like the paper's around the training budget). Each table is
// a list of rows with `paper` and `lab` values side by side; `reproductionMarkdown` renders them.

import type { BatchPolicy } from './policy';
import type { Preference } from '../preference';
import type { Catalog, ToolSpec } from '../sim/catalog';
import type { SimConfig } from '../sim/callModel';
import { baselineFromName } from './baselines';
import { DEPARTURES, PAPER_TABLE1, PAPER_SUITES, type PaperSuite } from './paperTable1';
import { PAPER_TABLE3, preferenceFollowing } from './preferenceFollowing';
import { DEFAULT_PREFERENCE } from '../preference';
import { evaluateOnSuites, PAPER_TABLE15, suiteTasks, type SuiteRow } from './suiteTable';
import { withCheaperCopy, withOtherPricing, withUnseenModels } from './catalogVariants';
import { greedyName, greedyPolicy, LAMBDA_GRID, type RuleLambdas } from './greedyRule';
import { PREFERENCE_SWEEP, preferenceLabel, sweepBaselines } from './sweep';

export interface Row {
  name: string;
  paper: Record<string, number | null>;
  lab: Record<string, number | null>;
}

export interface Reproduction {
  table1: Row[];
  table2: Row[];
  copy: Row[];
  table3: Row[];
  table3Systems: Row[];
  table4: Row[];
  table15: Row[];
  figure6: Row[];
  /** The greedy rule's λ per preference, tuned on training tasks, and its Table 1 at every λ of the grid (its frontier). */
  rule: Row[];
  ruleFrontier: Row[];
  /** Each family's AIQ and RouteLLM's routing metrics on HLE, the orchestrator swept over P among them (sweep.ts). */
  routing: Row[];
}

/** Makes the learned policy for a catalog and P (the caller owns the network). */
export type PolicyMaker = (catalog: Catalog, preference: Preference, name: string) => BatchPolicy;

export interface ReproduceOptions {
  catalog: Catalog;
  sim: SimConfig;
  seed: number;
  count: number;
  /** The trained orchestrator (one policy for every table, at the default P unless a table varies P). */
  orchestrator: PolicyMaker;
  preference: Preference;
  baselines: readonly string[];
  /** Turn budgets of Figure 6. */
  maxTurns: readonly number[];
  /** The greedy rule's λ per preference, tuned on training tasks (greedyRule.tuneForPresets). */
  rule: RuleLambdas;
}

/** Table 2's row of the best baseline by HLE (each baseline also has a row of its own, by its name). */
export const BEST_UNSEEN_BASELINE = 'best baseline (by HLE)';
/** The name of the greedy rule's row in every table. */
export const RULE_ROW = 'greedy rule (λ tuned on training tasks)';

/** Figure 6's turn budgets: the paper's 10/20/50/100 around its training budget of 30, scaled to the lab's 12. */
export const FIGURE6_BUDGETS = [4, 8, 12, 20, 40];

/** Baselines of the live "Paper vs lab" view: the paper's Table 1 rows the catalog can build. */
export const LIVE_BASELINES = ['tools+gpt-5', 'notools:gpt-5', 'prompted:gpt-5', 'tools+claude-opus-4.1', 'prompted:claude-opus-4.1', 'prompted:qwen3-8b'];
/**
 * The paper's Table 2 baselines: models prompted as orchestrators over the unseen pool (and Claude Opus
 * 4.1 with basic tools and without); the best of them by HLE accuracy is the row the orchestrator must beat.
 */
const UNSEEN_BASELINES = ['prompted:claude-opus-4.1', 'prompted:qwen3-8b', 'tools+claude-opus-4.1', 'notools:claude-opus-4.1'];

const pct = (x: number): number => Math.round(1000 * x) / 10;
const meanOver = (f: (s: PaperSuite) => number): number => PAPER_SUITES.reduce((a, s) => a + f(s), 0) / PAPER_SUITES.length;

function suiteRow(r: SuiteRow, name = r.policy): Row {
  const lab: Row['lab'] = { ...Object.fromEntries(PAPER_SUITES.map((s) => [s, pct(r.bySuite[s].accuracy)])),
    mean: pct(r.accuracy), costCents: Math.round(1000 * r.costUSD) / 10, latencyMin: Math.round(100 * r.latencyS / 60) / 100 };
  const acc = r.paper?.accuracy, all = acc && PAPER_SUITES.every((s) => acc[s] !== null);
  const paper: Row['paper'] = r.paper ? { ...r.paper.accuracy,
    mean: all ? Math.round(10 * meanOver((s) => acc[s] as number)) / 10 : null, costCents: r.paper.costCents,
    latencyMin: r.paper.latencyMin } : { hle: null, frames: null, tau2: null, mean: null, costCents: null, latencyMin: null };
  return { name, paper, lab };
}

/** Table 1 for a policy and the baselines the catalog has (a baseline naming a missing model is left out). */
export async function table1Rows(policy: BatchPolicy, baselines: readonly string[], catalog: Catalog, sim: SimConfig,
  seed: number, count: number): Promise<Row[]> {
  const built: BatchPolicy[] = [];
  for (const b of baselines) {
    try { built.push(baselineFromName(b, catalog, sim)); } catch { /* the edited catalog lacks a model this row needs */ }
  }
  const rows = await evaluateOnSuites([policy, ...built], suiteTasks(catalog, sim, seed, count), catalog, sim, seed);
  return rows.map((r) => suiteRow(r));
}

const callsOf = (r: SuiteRow, ids: readonly string[]): number =>
  Math.round(100 * meanOver((s) => ids.reduce((a, id) => a + (r.bySuite[s].callsPerTask[id] ?? 0), 0))) / 100;

/** Every table; progress is reported through `log`. */
export async function reproduce(o: ReproduceOptions, log: (s: string) => void = () => {}): Promise<Reproduction> {
  const { catalog, sim, seed, count } = o;
  const tasks = suiteTasks(catalog, sim, seed, count);
  const rule = (c: Catalog, p: Preference, name = RULE_ROW) => greedyPolicy(c, o.rule.of(p), p, name);
  log('table 1');
  const t1 = await evaluateOnSuites([o.orchestrator(catalog, o.preference, 'orchestrator'),
    ...o.baselines.map((b) => baselineFromName(b, catalog, sim)), rule(catalog, o.preference)], tasks, catalog, sim, seed);
  const table1 = t1.map((r) => suiteRow(r));

  log('the greedy rule at every λ');
  const frontier = await evaluateOnSuites(LAMBDA_GRID.map((l) => greedyPolicy(catalog, l, o.preference, greedyName(l))), tasks,
    catalog, sim, seed);
  const ruleFrontier: Row[] = frontier.map((r) => ({ name: r.policy, paper: {},
    lab: suiteRow(r).lab }));
  const ruleRows: Row[] = o.rule.byPreset.map((x) => ({ name: x.preset, paper: {},
    lab: { lambda: x.lambda, trainingScore: Math.round(1000 * x.score) / 10 } }));

  log('table 2 (every model unseen in training)');
  const unseen = withUnseenModels(catalog);
  const t2 = await evaluateOnSuites([o.orchestrator(unseen, o.preference, 'orchestrator'),
    ...UNSEEN_BASELINES.map((b) => baselineFromName(b, unseen, sim)), rule(unseen, o.preference)], suiteTasks(unseen, sim, seed, count), unseen,
    sim, seed);
  const best2 = t2.slice(1, -1).reduce((b, r) => (r.bySuite.hle.accuracy > b.bySuite.hle.accuracy ? r : b));
  const models = unseen.tools.filter((t) => t.kind !== 'basic').map((t) => t.id);
  const table2: Row[] = [
    { name: 'orchestrator, unseen tools',
      paper: { hle: 22.0, frames: 73.8, tau2: 48.8, costCents: 34.8, latencyMin: 8.2, unseenCallsPerTask: null },
      lab: { ...suiteRow(t2[0] as SuiteRow).lab, unseenCallsPerTask: callsOf(t2[0] as SuiteRow, models) } },
    { name: BEST_UNSEEN_BASELINE,
      paper: { hle: 17.8, frames: 53.6, tau2: 43.4, costCents: 102.4, latencyMin: 19.5, unseenCallsPerTask: null },
      lab: { ...suiteRow(best2).lab, unseenCallsPerTask: callsOf(best2, models) } },
    ...t2.slice(1).map((r) => ({ ...suiteRow(r), paper: {},
      lab: { ...suiteRow(r).lab, unseenCallsPerTask: callsOf(r, models) } })),
  ];

  log('a cheaper copy of a known model');
  const copied = withCheaperCopy(catalog, 'gpt-5-mini', 0.1);
  const tc = await evaluateOnSuites([o.orchestrator(copied.catalog, o.preference, 'orchestrator')],
    suiteTasks(copied.catalog, sim, seed, count), copied.catalog, sim, seed);
  const copy: Row[] = [{ name: `orchestrator, ${copied.id} added (${copied.of} at a tenth of its price)`, paper: {},
    lab: { ...suiteRow(tc[0] as SuiteRow).lab, copyCallsPerTask: callsOf(tc[0] as SuiteRow, [copied.id]),
    originalCallsPerTask: callsOf(tc[0] as SuiteRow, [copied.of]),
    originalBefore: callsOf(t1[0] as SuiteRow, [copied.of]) } }];

  log('table 3 (preferences)');
  const reference = t1.find((r) => r.policy === 'prompted:qwen3-8b');
  const toolRef = Object.fromEntries(PAPER_SUITES.map((s) => [s,
    catalog.tools.map((t) => reference?.bySuite[s].callsPerTask[t.id] ?? 0)])) as Record<PaperSuite, number[]>;
  const prefs = await preferenceFollowing((p, name) => o.orchestrator(catalog, p, name), tasks, catalog, sim, seed, { toolRef });
  const table3: Row[] = prefs.map((r) => ({
    name: r.preset,
    paper: {},
    lab: {
      ...Object.fromEntries(PAPER_SUITES.map((s) => [s, pct(r.bySuite[s].accuracy)])),
      ...Object.fromEntries(PAPER_SUITES.map((s) => [`${s}Reward`, pct(r.bySuite[s].score ?? 0)])),
      costCents: Math.round(1000 * meanOver((s) => r.bySuite[s].meanCostUSD)) / 10,
      latencyMin: Math.round(100 * meanOver((s) => r.bySuite[s].meanLatencyS) / 60) / 100,
      apiShare: pct(meanOver((s) => r.bySuite[s].apiShare)),
    },
  }));
  const table3Systems: Row[] = [];
  for (const sys of PAPER_TABLE3) {
    const rows = sys.policy === 'orchestrator' ? prefs : await preferenceFollowing(() => baselineFromName(sys.policy, catalog, sim),
      tasks, catalog, sim, seed, { toolRef });
    const mean = (s: PaperSuite) => pct(rows.reduce((a, r) => a + (r.bySuite[s].score ?? 0), 0) / rows.length);
    table3Systems.push({ name: `${sys.policy} (${sys.label})`,
      paper: { hle: sys.hle, frames: sys.frames, tau2: sys.tau2 },
      lab: { hle: mean('hle'), frames: mean('frames'), tau2: mean('tau2') } });
  }
  const ruleFollowing = await preferenceFollowing((p, name) => rule(catalog, p, name), tasks, catalog, sim, seed, { toolRef });
  const ruleMean = (s: PaperSuite) => pct(ruleFollowing.reduce((a, r) => a + (r.bySuite[s].score ?? 0), 0) / ruleFollowing.length);
  table3Systems.push({ name: RULE_ROW, paper: {}, lab: { hle: ruleMean('hle'), frames: ruleMean('frames'), tau2: ruleMean('tau2') } });

  log('table 4 (another provider’s prices)');
  const priced = withOtherPricing(catalog);
  const t4 = await evaluateOnSuites([o.orchestrator(priced, o.preference, 'orchestrator'),
    baselineFromName('tools+gpt-5', priced, sim)], suiteTasks(priced, sim, seed, count), priced, sim, seed);
  const table4: Row[] = [
    { name: 'orchestrator, another provider’s prices',
      paper: { hle: 36.9, frames: 76.6, tau2: 80.4, costCents: 7.5, latencyMin: 7.8 },
      lab: suiteRow(t4[0] as SuiteRow).lab },
    { name: 'tools+gpt-5, same prices', paper: {}, lab: suiteRow(t4[1] as SuiteRow).lab },
  ];

  log('table 15');
  const table15: Row[] = t1.filter((r) => PAPER_TABLE15.some((p) => p.policy === r.policy)).map((r) => {
    const p = PAPER_TABLE15.find((x) => x.policy === r.policy);
    const ids = [...new Set([...Object.keys(p?.calls ?? {}), ...catalog.tools.map((t) => t.id)])];
    /** FRAMES's calls per task to the basic tools that run queries (searches) or programs. */
    const frames = (runs: ToolSpec['runs']) => Math.round(100 * catalog.tools.reduce((a, t) => a
      + (t.kind === 'basic' && t.runs === runs ? r.bySuite.frames.callsPerTask[t.id] ?? 0 : 0), 0)) / 100;
    return { name: r.policy, paper: Object.fromEntries(ids.map((id) => [id, p?.calls[id] ?? null])),
      lab: { ...Object.fromEntries(ids.map((id) => [id, callsOf(r, [id])])), framesSearches: frames('query'), framesPrograms: frames('code') } };
  });

  log('routing metrics (HLE)');
  const swept = await sweepBaselines(tasks.hle, catalog, sim, seed, [{ family: 'orchestrator',
    policies: PREFERENCE_SWEEP.map((p) => o.orchestrator(catalog, p, `orchestrator ${preferenceLabel(p)}`)) }]);
  const three = (x: number | null) => (x === null ? null : Math.round(1000 * x) / 1000);
  const routing: Row[] = swept.families.map((f) => ({ name: f.family, paper: {},
    lab: { aiq: three(f.aiq), apgr: three(f.routing.apgr), cpt50: three(f.routing.cpt50), cpt80: three(f.routing.cpt80) } }));

  log('figure 6 (turn budgets)');
  const figure6: Row[] = [];
  for (const T of o.maxTurns) {
    const simT = { ...sim, maxTurns: T };
    const tasksT = suiteTasks(catalog, simT, seed, count);
    for (const p of [o.orchestrator(catalog, o.preference, 'orchestrator'), baselineFromName('tools+gpt-5', catalog, simT),
      rule(catalog, o.preference)]) {
      const r = (await evaluateOnSuites([p], tasksT, catalog, simT, seed))[0] as SuiteRow;
      figure6.push({ name: `${p.name}, max turns ${T}`, paper: {}, lab: { hle: pct(r.bySuite.hle.accuracy),
        costUSD: Math.round(1e4 * r.bySuite.hle.meanCostUSD) / 1e4,
        turns: Math.round(10 * r.bySuite.hle.meanTurns) / 10 } });
    }
  }
  return { table1, table2, copy, table3, table3Systems, table4, table15, figure6, rule: ruleRows, ruleFrontier, routing };
}

/** The paper's Figure 6 in words (its curves are not published as numbers). */
export const PAPER_FIGURE6 = 'Paper, Figure 6 (HLE, max turns 10/20/50/100 around a training budget of 30): ' +
  'Orchestrator-8B ≈ 27% at $0.03 … 39% at $0.40 per query; GPT-5 ≈ 27.5% at $0.16 … 36% at $0.60 — the orchestrator ' +
  'dominates at every budget.';

/** Renders every table as markdown, lab beside paper. */
export function reproductionMarkdown(r: Reproduction, header: string): string {
  const fmt = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : String(x));
  const table = (title: string, rows: Row[]): string => {
    const keys = [...new Set(rows.flatMap((x) => [...Object.keys(x.lab), ...Object.keys(x.paper)]))];
    return [`## ${title}`, '', `| row | ${keys.map((k) => `${k} lab / paper`).join(' | ')} |`, `|---|${keys.map(() => '---:').join('|')}|`,
      ...rows.map((x) => `| ${x.name} | ${keys.map((k) => `${fmt(x.lab[k])} / ${fmt(x.paper[k])}`).join(' | ')} |`), ''].join('\n');
  };
  const paper1 = PAPER_TABLE1.map((p) => `${p.label}: ${p.accuracy.hle} / ${p.accuracy.frames} / ${p.accuracy.tau2 ?? '—'}`).join('; ');
  return [header, '', '**Departures from the paper, in every number below:** ' + DEPARTURES.join('; ') + '.', '',
    table('Table 1 — three suites (accuracy %, cost ¢ and latency min over HLE and FRAMES)', r.table1), `Paper rows: ${paper1}.`, '',
    table('Table 2 — every model replaced by models never seen in training (the paper’s §6.3 configuration)', r.table2),
    table('Reading descriptors — a copy of a known model at a tenth of its price, added at evaluation (calls per task)', r.copy),
    table('Table 3 — preference following (accuracy %, the paper’s preference-aware reward ×100 per suite, cost ¢ ' +
      'and latency min over the three suites, share of calls to paid APIs %)', r.table3),
    table('Table 3, the paper’s metric per system (mean over the five preferences above)', r.table3Systems),
    table('Table 4 — another provider’s prices', r.table4), table('Table 15 — calls per task (mean of the three suites)', r.table15),
    table('Figure 6 — accuracy and cost on HLE as the turn budget varies (training budgets 4–40, evaluation 12)', r.figure6), PAPER_FIGURE6, '',
    table('The greedy rule — its λ per preference, tuned on training tasks (their mean preference-weighted score ×100; λ 0: the ' +
      'preference weighs neither cost nor latency, and λ has no effect)', r.rule),
    table('The greedy rule at every λ, default P (its frontier: accuracy %, cost ¢, latency min)', r.ruleFrontier),
    table('Routing metrics on HLE — AIQ over the baselines\' cost range, APGR and CPT(50%), CPT(80%) between the cheapest and the ' +
      'most accurate model working alone (RouteLLM; docs/CLI.md), each family swept over its knob, the orchestrator over P', r.routing), ''].join('\n');
}

export { DEFAULT_PREFERENCE };
