// The paper's claims, checked on the tables over seeds and samples (overSeeds.ts): each check is a
// sentence, the means it compares (with their 95% intervals) and whether it holds on the means. The
// list is the lab's scoreboard for "learning earns its win": a claim that fails says by how much.

import { FIGURE6_BUDGETS, RULE_ROW, BEST_UNSEEN_BASELINE } from './reproduce';
import { PAPER_TABLE1 } from './paperTable1';
import { showCell, type Cell, type SeedRun, type Spread, type SpreadRow } from './overSeeds';

export interface Claim {
  claim: string;
  /** The figures it compares, as written ("61.2 ± 1.3 against 63.0 ± 0.8"). */
  measured: string;
  holds: boolean;
}

const GPT5 = 'tools+gpt-5';
const row = (rows: readonly SpreadRow[], name: string): SpreadRow | undefined => rows.find((r) => r.name === name);
const cell = (r: SpreadRow | undefined, k: string): Cell | null => r?.lab[k] ?? null;
const m = (c: Cell | null): number => c?.mean ?? Number.NaN;

/** Per seed (its mean over the samples), whether the policy lies above the rule's frontier: more accurate than every λ at no more cost. */
function seedsAboveFrontier(runs: readonly SeedRun[], frontier: readonly SpreadRow[]): { seed: number; above: boolean }[] {
  const seeds = [...new Set(runs.map((x) => x.seed))];
  return seeds.map((seed) => {
    const rows = runs.filter((x) => x.seed === seed).map((x) => x.r.table1.find((r) => r.name === 'orchestrator'));
    const avg = (k: string) => rows.reduce((a, r) => a + ((r?.lab[k] as number | null) ?? Number.NaN), 0) / rows.length;
    const mean = avg('mean'), cost = avg('costCents');
    // A seed whose numbers are missing is not above anything: a comparison with NaN would pass every test.
    return { seed, above: Number.isFinite(mean) && Number.isFinite(cost)
      && frontier.every((r) => !(m(cell(r, 'costCents')) <= cost && m(cell(r, 'mean')) >= mean)) };
  });
}

/** Every check of the paper's claims that the runs can answer. */
export function checkClaims(t: Spread, runs: readonly SeedRun[]): Claim[] {
  const out: Claim[] = [];
  const say = (claim: string, measured: string, holds: boolean) => out.push({ claim, measured, holds });
  const orch = row(t.table1, 'orchestrator'), gpt = row(t.table1, GPT5), rule = row(t.table1, RULE_ROW);

  // Learning against the rule: the rule's best λ at no more than the policy's cost.
  const cost = m(cell(orch, 'costCents'));
  const within = t.ruleFrontier.filter((r) => m(cell(r, 'costCents')) <= cost);
  const best = within.reduce<SpreadRow | undefined>((b, r) => (!b || m(cell(r, 'mean')) > m(cell(b, 'mean')) ? r : b), undefined);
  say('Learning beats the rule: the policy\'s mean accuracy ≥ the greedy rule\'s + 3 points, for the rule\'s best λ at no more than its cost',
    best ? `${showCell(cell(orch, 'mean'))}% at ${showCell(cell(orch, 'costCents'))}¢ against ${best.name}: ${showCell(cell(best, 'mean'))}% at ` +
      `${showCell(cell(best, 'costCents'))}¢` : `not checkable: no λ of the rule costs ≤ the policy's ${cost.toFixed(2)}¢`,
    best !== undefined && m(cell(orch, 'mean')) >= m(cell(best, 'mean')) + 3);
  const above = seedsAboveFrontier(runs, t.ruleFrontier);
  say('Every seed\'s policy lies above the rule\'s λ frontier (more accurate than each λ that costs no more)',
    `${above.filter((x) => x.above).length} of ${above.length} seeds${above.some((x) => !x.above)
      ? ` (not seed ${above.filter((x) => !x.above).map((x) => x.seed).join(', ')})` : ''}`, above.every((x) => x.above));
  say('Learning beats the rule with λ tuned on training tasks (Table 1\'s row, mean accuracy)', `${showCell(cell(rule, 'mean'))}% at ${showCell(cell(rule, 'costCents'))}¢; ` +
    `the policy ${showCell(cell(orch, 'mean'))}% at ${showCell(cell(orch, 'costCents'))}¢`, m(cell(orch, 'mean')) >= m(cell(rule, 'mean')));

  // Table 1.
  say('Table 1: the orchestrator\'s HLE ≥ tools+gpt-5\'s', `${showCell(cell(orch, 'hle'))} against ${showCell(cell(gpt, 'hle'))}`,
    m(cell(orch, 'hle')) >= m(cell(gpt, 'hle')));
  say('Table 1: its mean over the suites ≥ tools+gpt-5\'s − 1 point', `${showCell(cell(orch, 'mean'))} against ${showCell(cell(gpt, 'mean'))}`,
    m(cell(orch, 'mean')) >= m(cell(gpt, 'mean')) - 1);
  say('Table 1: at ≤ 40% of tools+gpt-5\'s cost, with lower latency', `${showCell(cell(orch, 'costCents'))}¢ against ` +
    `${showCell(cell(gpt, 'costCents'))}¢ (${(100 * cost / m(cell(gpt, 'costCents'))).toFixed(0)}%); ${showCell(cell(orch, 'latencyMin'))} ` +
    `against ${showCell(cell(gpt, 'latencyMin'))} min`,
  cost <= 0.4 * m(cell(gpt, 'costCents')) && m(cell(orch, 'latencyMin')) < m(cell(gpt, 'latencyMin')));

  // Table 15.
  const t15 = row(t.table15, 'orchestrator');
  const small = m(cell(t15, 'gpt-5-mini')) + m(cell(t15, 'qwen3-32b'));
  const models = ['gpt-5', 'gpt-5-mini', 'qwen3-32b', 'llama-3.3-70b', 'qwen2.5-math-72b', 'qwen2.5-math-7b', 'qwen2.5-coder-32b'];
  const allModels = models.reduce((a, id) => a + (m(cell(t15, id)) || 0), 0);
  say('Table 15: GPT-5-mini + Qwen3-32B ≥ 1.0 calls per task', small.toFixed(2), small >= 1);
  say('Table 15: GPT-5 ≤ 35% of model calls', `${(100 * m(cell(t15, 'gpt-5')) / allModels).toFixed(0)}% (${showCell(cell(t15, 'gpt-5'))} of ` +
    `${allModels.toFixed(2)})`, m(cell(t15, 'gpt-5')) <= 0.35 * allModels);
  say('Table 15: on FRAMES, searches ≥ programs', `${showCell(cell(t15, 'framesSearches'))} against ${showCell(cell(t15, 'framesPrograms'))}`,
    m(cell(t15, 'framesSearches')) >= m(cell(t15, 'framesPrograms')));

  // Figure 6.
  const at = (who: string, T: number) => row(t.figure6, `${who}, max turns ${T}`);
  const fails = FIGURE6_BUDGETS.filter((T) => !(m(cell(at('orchestrator', T), 'hle')) >= m(cell(at(GPT5, T), 'hle')) - 1
    && m(cell(at('orchestrator', T), 'costUSD')) <= 0.6 * m(cell(at(GPT5, T), 'costUSD'))));
  say('Figure 6: at every budget, HLE ≥ tools+gpt-5\'s − 1 point at ≤ 60% of its cost', fails.length
    ? `not at ${fails.map((T) => `${T} turns (${showCell(cell(at('orchestrator', T), 'hle'))} against ${showCell(cell(at(GPT5, T), 'hle'))})`).join(', ')}`
    : `at all of ${FIGURE6_BUDGETS.join(', ')} turns`, fails.length === 0);
  const lo = FIGURE6_BUDGETS[0] as number, hi = FIGURE6_BUDGETS[FIGURE6_BUDGETS.length - 1] as number;
  const rise = m(cell(at('orchestrator', hi), 'hle')) - m(cell(at('orchestrator', lo), 'hle'));
  say(`Figure 6: HLE rises ≥ 6 points from ${lo} to ${hi} turns`, `${rise.toFixed(1)} points`, rise >= 6);

  // Table 2.
  const un = row(t.table2, 'orchestrator, unseen tools'), bb = row(t.table2, BEST_UNSEEN_BASELINE);
  say('Table 2: HLE ≥ the best baseline\'s + 2 points, at ≤ 50% of its cost, ≥ 1.5 calls per task to unseen models',
    `${showCell(cell(un, 'hle'))} against ${showCell(cell(bb, 'hle'))}; ${showCell(cell(un, 'costCents'))}¢ against ` +
    `${showCell(cell(bb, 'costCents'))}¢; ${showCell(cell(un, 'unseenCallsPerTask'))} calls`,
    m(cell(un, 'hle')) >= m(cell(bb, 'hle')) + 2 && m(cell(un, 'costCents')) <= 0.5 * m(cell(bb, 'costCents'))
      && m(cell(un, 'unseenCallsPerTask')) >= 1.5);

  // Routing (HLE): the orchestrator over P against every baseline family, by APGR (hindsight, which sees the draws, aside).
  const fam = t.routing.filter((r) => r.name !== 'orchestrator' && r.name !== 'hindsight' && cell(r, 'apgr'));
  const mine = row(t.routing, 'orchestrator');
  const topFam = fam.reduce<SpreadRow | undefined>((b, r) => (!b || m(cell(r, 'apgr')) > m(cell(b, 'apgr')) ? r : b), undefined);
  if (mine && topFam) {
    say('Routing on HLE: the orchestrator\'s APGR ≥ every baseline family\'s', `${showCell(cell(mine, 'apgr'))} against ${topFam.name}'s ` +
      `${showCell(cell(topFam, 'apgr'))}`, m(cell(mine, 'apgr')) >= m(cell(topFam, 'apgr')));
  }

  // Calibration: the baselines against Table 1.
  for (const p of PAPER_TABLE1.filter((x) => x.policy === GPT5 || x.policy === 'notools:gpt-5' || x.policy.startsWith('prompted:'))) {
    const r = row(t.table1, p.policy);
    if (!r) continue;
    const band = p.policy.startsWith('prompted:') ? 5 : 3;
    const off = (['hle', 'frames', 'tau2'] as const).filter((s) => p.accuracy[s] !== null
      && !(Math.abs(m(cell(r, s)) - (p.accuracy[s] as number)) <= band));
    say(`Calibration: ${p.policy} within ±${band} points of Table 1 per suite`, off.length
      ? off.map((s) => `${s} ${showCell(cell(r, s))} against ${p.accuracy[s] as number}`).join('; ') : 'every suite', off.length === 0);
  }
  return out;
}

/** The claims as a markdown list. */
export function claimsMarkdown(claims: readonly Claim[]): string {
  const held = claims.filter((c) => c.holds).length;
  return [`## The paper's claims on these runs (${held} of ${claims.length} hold on the means)`, '',
    ...claims.map((c) => `- ${c.holds ? '✓' : '✗'} ${c.claim}: ${c.measured}.`), ''].join('\n');
}
