// Which of two policies does a reward prefer? For each task of a suite, a group of 8 rollouts — 4
// of each side — scored with the paper's reward (toolorchestra), or the reward mode given last.
// Prints each side's mean reward and accuracy.
//   npx tsx scripts/reward-duel.ts DIR/orchestrator.json <hle|frames|tau2|pool> [c = 0.5] [reward mode]
//     the trained policy at P = {outcome 1, cost c} against a fixed rule ("the basic tool that can
//     act, else GPT-5 after the tool that brings the most evidence"), rewarded at that P;
//   npx tsx scripts/reward-duel.ts DIR/orchestrator.json <suite> "<instruction preset>"
//     the policy following the preset against the same policy at the default P, rewarded at the preset's P.
import { loadPolicyFile } from '../src/cli/policyFile';
import { initNodeBackend } from '../src/cli/tfBackend';
import { policy, runEpisodes, type BatchPolicy } from '../src/core/eval/policy';
import { DEFAULT_WEIGHTED, groupRewards, REWARD_MODES, type RewardMode } from '../src/core/grpo/reward';
import { INSTRUCTION_PRESETS } from '../src/core/instructionPresets';
import { learnedPolicy } from '../src/core/policy/act';
import { preferenceVector } from '../src/core/preference';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { toolIndex } from '../src/core/sim/catalog';
import { BatchEnv } from '../src/core/sim/env';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';

const catalog = presetCatalog('toolorchestra');
const GPT5 = toolIndex(catalog, 'gpt-5');

/** The basic tool that answers the step; else the best evidence tool, then GPT-5; then submit. */
const gpt5AfterTools: BatchPolicy = policy('gpt-5 after the basic tool', (env, i) => {
  const J = env.nTools, type = env.currentType(i);
  const basic = (j: number) => env.catalog.tools[j]?.kind === 'basic' && env.allowed(i, j);
  let answer = -1, evidence = -1;
  for (let j = 0; j < J; j++) {
    const t = env.catalog.tools[j];
    if (!t || !basic(j)) continue;
    if (env.answers(i, j) && (answer < 0 || (t.skill[type] ?? 0) > (env.catalog.tools[answer]?.skill[type] ?? 0))) answer = j;
    if (!env.answers(i, j) && (evidence < 0 || (t.context?.[type] ?? 0) > (env.catalog.tools[evidence]?.context?.[type] ?? 0))) evidence = j;
  }
  if (answer >= 0) return env.stepAttempts[i] === 0 ? answer : env.submitAction;
  const called = (pred: (j: number) => boolean) => Array.from({ length: J }, (_, j) => j).some((j) => pred(j) && env.stepCalls[i * J + j] > 0);
  if (evidence >= 0 && !called((j) => env.catalog.tools[j]?.kind === 'basic')) return evidence;
  if (called((j) => env.catalog.tools[j]?.kind !== 'basic')) return env.submitAction;
  return env.allowed(i, GPT5) && env.answers(i, GPT5) ? GPT5 : env.submitAction;
});

async function main(): Promise<void> {
  const [file, suiteArg = 'frames', c = '0.5', mode = 'toolorchestra'] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx scripts/reward-duel.ts DIR/orchestrator.json <hle|frames|tau2|pool> [cost weight | "<instruction preset>"] [reward mode]');
  if (!(REWARD_MODES as readonly string[]).includes(mode)) throw new Error(`reward mode must be one of ${REWARD_MODES.join(', ')}`);
  await initNodeBackend('wasm');
  const suite = suiteArg === 'pool' ? undefined : suiteArg;
  const preset = INSTRUCTION_PRESETS.find((x) => x.name === c);
  const pref = preset ? preset.preference(catalog) : { outcome: 1, cost: Number(c), latency: 0, tools: {} };
  const net = loadPolicyFile(file).net;
  const learned = learnedPolicy(net, catalog, pref, preset ? `policy at "${preset.name}"` : 'learned');
  const other = preset ? learnedPolicy(net, catalog, { outcome: 1, cost: 0.5, latency: 0, tools: {} }, 'policy at the default P') : gpt5AfterTools;
  const { tasks } = generateTasks(catalog, { seed: 5, count: 1000, ...(suite ? { suite, availability: 1 } : {}) });
  const all = tasks.flatMap((t) => [t, t, t, t]);
  const run = async (p: BatchPolicy, salt: number): Promise<BatchEnv> => {
    const env = new BatchEnv(catalog, DEFAULT_SIM, all.length);
    await runEpisodes(env, p, all, all.map((_, i) => i * 7919 + salt));
    return env;
  };
  const sides = [await run(learned, 2), await run(other, 1)];
  const J = catalog.tools.length, pv = preferenceVector(pref, catalog);
  const reward = [0, 0], solved = [0, 0];
  for (let b = 0; b < tasks.length; b++) {
    const group = sides.flatMap((env) => [0, 1, 2, 3].map((g) => {
      const i = b * 4 + g;
      return { calls: env.calls.subarray(i * J, (i + 1) * J), outcome: env.outcome[i] as number, costUSD: env.cost[i] as number, latencyS: (env.latencyMs[i] as number) / 1000, tokens: env.tokens[i] as number };
    }));
    const r = groupRewards(mode as RewardMode, group, pv, DEFAULT_WEIGHTED).rewards;
    group.forEach((t, g) => { const s = g < 4 ? 0 : 1; reward[s] = (reward[s] as number) + (r[g] as number); solved[s] = (solved[s] as number) + t.outcome; });
  }
  const n = all.length;
  const what = `${preset ? `the reward of "${preset.name}"` : `P = {outcome 1, cost ${c}}`} (${mode})`;
  console.log(`${suiteArg}, ${what}: ${learned.name} R ${((reward[0] as number) / n).toFixed(3)} accuracy ${((solved[0] as number) / n).toFixed(3)} · ${other.name} R ${((reward[1] as number) / n).toFixed(3)} accuracy ${((solved[1] as number) / n).toFixed(3)}`);
}

main().catch((e: unknown) => { console.error((e as Error).message); process.exit(1); });
