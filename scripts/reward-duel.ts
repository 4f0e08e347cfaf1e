// Which of two policies does a reward prefer? For each task of a suite, a group of 8 rollouts — 4
// of each side — scored with the paper's reward (toolorchestra), or the reward mode given last.
// Prints each side's mean reward and accuracy.
//   npx tsx scripts/reward-duel.ts DIR/orchestrator.json <hle|frames|tau2|pool> [c = 0.5] [reward mode]
//     the trained policy at P = {outcome 1, cost c, latency c} against GPT-5 with basic tools
//     (the tools+gpt-5 baseline), rewarded at that P;
//   npx tsx scripts/reward-duel.ts DIR/orchestrator.json <suite> "<instruction preset>"
//     the policy following the preset against the same policy at the default P, rewarded at the preset's P.
import { loadPolicyFile } from '../src/cli/policyFile';
import { initNodeBackend } from '../src/cli/tfBackend';
import { runEpisodes, type BatchPolicy } from '../src/core/eval/policy';
import { baselineFromName } from '../src/core/eval/baselines';
import { DEFAULT_WEIGHTED, groupRewards } from '../src/core/grpo/reward';
import { REWARD_MODES, type RewardMode } from '../src/core/grpo/rewardModes';
import { INSTRUCTION_PRESETS } from '../src/core/instructionPresets';
import { learnedPolicy } from '../src/core/policy/act';
import { DEFAULT_PREFERENCE, preferenceVector } from '../src/core/preference';
import { DEFAULT_SIM } from '../src/core/sim/callModel';
import { BatchEnv } from '../src/core/sim/env';
import { presetCatalog } from '../src/core/sim/presets';
import { generateTasks } from '../src/core/sim/tasks';

const catalog = presetCatalog('toolorchestra');

async function main(): Promise<void> {
  const [file, suiteArg = 'frames', c = '0.5', mode = 'toolorchestra'] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx scripts/reward-duel.ts DIR/orchestrator.json <hle|frames|tau2|pool> [cost weight | "<instruction preset>"] [reward mode]');
  if (!(REWARD_MODES as readonly string[]).includes(mode)) throw new Error(`reward mode must be one of ${REWARD_MODES.join(', ')}`);
  await initNodeBackend('wasm');
  const suite = suiteArg === 'pool' ? undefined : suiteArg;
  const preset = INSTRUCTION_PRESETS.find((x) => x.name === c);
  const pref = preset ? preset.preference(catalog) : { outcome: 1, cost: Number(c), latency: Number(c), tools: {} };
  const net = loadPolicyFile(file).net;
  const learned = learnedPolicy(net, catalog, pref, preset ? `policy at "${preset.name}"` : 'learned');
  const other = preset ? learnedPolicy(net, catalog, DEFAULT_PREFERENCE, 'policy at the default P') : baselineFromName('tools+gpt-5', catalog, DEFAULT_SIM);
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
