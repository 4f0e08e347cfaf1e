// `bench-env`: speed of the batched env alone (random actions, N episodes, T turns) against one
// batched forward of an MLP on tfjs (wasm by default), both timed in the same run. The env must
// never be the bottleneck of training: the ratio must stay below 1.

import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_SIM } from '../../core/sim/callModel';
import { BatchEnv } from '../../core/sim/env';
import { presetCatalog } from '../../core/sim/presets';
import { hashInts, SeqRng } from '../../core/sim/rng';
import { generateTasks } from '../../core/sim/tasks';
import { checkKnown, intOpt, stringOpt, type Args } from '../args';
import { initNodeBackend } from '../tfBackend';

function benchEnv(n: number, maxTurns: number, repeats: number): { turnMs: number; episodesPerS: number; decisionsPerS: number } {
  const catalog = presetCatalog('toolorchestra');
  const sim = { ...DEFAULT_SIM, maxTurns };
  const { tasks } = generateTasks(catalog, { seed: 1, count: n, sim });
  const env = new BatchEnv(catalog, sim, n);
  const mask = new Uint8Array(n * env.nActions);
  const actions = new Int32Array(n);
  const rng = new SeqRng(7);
  let envMs = 0, turns = 0, decisions = 0;
  for (let r = 0; r < repeats; r++) {
    env.reset(tasks, tasks.map((_, i) => hashInts(r, i)));
    for (let t = 0; t < maxTurns && !env.allDone(); t++) {
      const t0 = performance.now();
      env.writeMask(mask);
      envMs += performance.now() - t0;
      for (let i = 0; i < n; i++) {
        if (env.done[i]) continue;
        decisions++;
        let a = env.submitAction;
        for (let tries = 0; tries < 4; tries++) {
          const c = rng.int(env.nActions);
          if (mask[i * env.nActions + c]) { a = c; break; }
        }
        actions[i] = a;
      }
      const t1 = performance.now();
      env.step(actions);
      envMs += performance.now() - t1;
      turns++;
    }
  }
  return { turnMs: envMs / turns, episodesPerS: (n * repeats) / (envMs / 1000), decisionsPerS: decisions / (envMs / 1000) };
}

async function benchForward(n: number, repeats: number): Promise<number> {
  const sizes = [64, 128, 128, 16];
  const ws = sizes.slice(1).map((out, k) => tf.randomNormal([sizes[k] as number, out], 0, 0.1, 'float32', k));
  const x = tf.randomNormal([n, 64], 0, 1, 'float32', 99);
  const forward = (): tf.Tensor => tf.tidy(() => ws.reduce<tf.Tensor>((h, w, k) => (k < ws.length - 1 ? tf.relu(tf.matMul(h, w)) : tf.matMul(h, w)), x));
  for (let i = 0; i < 5; i++) { const y = forward(); await y.data(); y.dispose(); }
  const t0 = performance.now();
  for (let i = 0; i < repeats; i++) { const y = forward(); await y.data(); y.dispose(); }
  const ms = (performance.now() - t0) / repeats;
  tf.dispose([...ws, x]);
  return ms;
}

export async function benchEnvCommand(a: Args): Promise<void> {
  checkKnown(a, ['episodes', 'turns', 'repeats', 'backend', 'json']);
  const n = intOpt(a, 'episodes', 1024, 1, 65536);
  const turns = intOpt(a, 'turns', 12, 1, 100);
  const repeats = intOpt(a, 'repeats', 30, 1, 10000);
  const backend = await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
  benchEnv(n, turns, 3); // warm-up
  const env = benchEnv(n, turns, repeats);
  const forwardMs = await benchForward(n, repeats);
  const out = {
    episodes: n,
    turns,
    backend,
    envTurnMs: env.turnMs,
    episodesPerS: env.episodesPerS,
    decisionsPerS: env.decisionsPerS,
    mlpForwardMs: forwardMs,
    mlp: `${n}×64 → 128 → 128 → 16`,
    ratioEnvToForward: env.turnMs / forwardMs,
  };
  if (a.flags.has('json')) process.stdout.write(JSON.stringify(out) + '\n');
  else process.stdout.write(`env: ${env.turnMs.toFixed(3)} ms per turn of ${n} episodes ` +
    `(${Math.round(env.episodesPerS)} episodes/s, ${Math.round(env.decisionsPerS)} decisions/s); MLP forward on ` +
    `${backend}: ${forwardMs.toFixed(3)} ms; ratio ${out.ratioEnvToForward.toFixed(3)}\n`);
}
