// `bench-train`: where a GRPO iteration's time goes, measured in one run (docs/DESIGN.md §5). Time and
// kernel launches per iteration (default config; core/bench/dispatchCount.ts), against two floors:
// the same work done alone (as many batched forwards + readbacks as the rollouts ran turns, plus μ
// forward/backward/Adam passes over a packed batch of the trained decisions; target ≤ 1.5), and the
// arithmetic floor (useful multiply-adds over this backend's own matmul throughput,
// core/bench/floor.ts; target ≤ 3).

import * as tf from '@tensorflow/tfjs-core';
import { DEFAULT_TRAIN } from '../../core/grpo/config';
import { FlatAdam } from '../../core/grpo/flatAdam';
import { disposeBatch, gradientStep } from '../../core/grpo/loss';
import { BUCKET_ROWS, RolloutBuffer, toDecisionBatch } from '../../core/grpo/rollout';
import { bucketSize } from '../../core/policy/buckets';
import { everyToolScored, iterationMacs, matmulMacsPerMs } from '../../core/bench/floor';
import { GrpoTrainer } from '../../core/grpo/trainer';
import { STATE_DIM, TOOL_DIM } from '../../core/policy/features';
import { disposePolicyInput, packPairs, policyInput } from '../../core/policy/pairs';
import { allowedActions, spreadMaskBias } from '../../core/bench/syntheticBatch';
import { presetCatalog } from '../../core/sim/presets';
import { generateTasks } from '../../core/sim/tasks';
import { checkKnown, CliError, intOpt, stringOpt, type Args } from '../args';
import { setWasmKernelsEnabled, wasmKernelsReady } from '../../core/kernels/wasmKernels';
import { initNodeBackend } from '../tfBackend';
import { countDispatches } from '../../core/bench/dispatchCount';

export async function benchTrainCommand(a: Args): Promise<void> {
  checkKnown(a, ['iterations', 'backend', 'json', 'kernels']);
  const iterations = intOpt(a, 'iterations', 20, 1, 10000);
  const kernels = stringOpt(a, 'kernels', 'on');
  if (kernels !== 'on' && kernels !== 'off') throw new CliError(`--kernels must be on or off (got "${kernels}")`);
  const backend = await initNodeBackend(stringOpt(a, 'backend', 'wasm'));
  setWasmKernelsEnabled(kernels === 'on'); // off: tfjs's own ops throughout, to measure what the kernels of src/core/kernels bring
  const catalog = presetCatalog('toolorchestra');
  const cfg = DEFAULT_TRAIN;
  const pool = generateTasks(catalog, { seed: cfg.seed, count: 1000, availability: cfg.availability }).tasks;
  const trainer = new GrpoTrainer(catalog, cfg, pool);
  for (let i = 0; i < 5; i++) await trainer.step(); // warm-up (and a policy that is no longer uniform)
  const J = catalog.tools.length;
  let iterMs = 0, turns = 0, rolloutMs = 0, updateMs = 0, rewardMs = 0, macs = 0, denseMacs = 0, trained = 0, live = 0, livePairs = 0;
  const launches = countDispatches(); // kernel launches (engine kernels on wasm and cpu)
  for (let i = 0; i < iterations; i++) {
    const m = await trainer.step();
    iterMs += m.wallMs; turns += m.rolloutTurns; rolloutMs += m.timings.rolloutMs; updateMs += m.timings.updateMs; rewardMs += m.timings.rewardMs;
    macs += iterationMacs(cfg.policy, m.decisions, cfg.epochs, cfg.beta > 0);
    denseMacs += iterationMacs(cfg.policy, everyToolScored(m.decisions, J), cfg.epochs, cfg.beta > 0);
    trained += m.decisions.trained; live += m.decisions.rollout; livePairs += m.decisions.rolloutPairs;
  }
  launches.stop();
  const dispatchesPerIteration = launches.total / iterations;
  const meanTurns = turns / iterations;
  const macsPerMs = await matmulMacsPerMs();
  const flopFloorMs = macs / iterations / macsPerMs;
  const denseFloorMs = denseMacs / iterations / macsPerMs;
  const allowedShare = livePairs / (J * live);

  // The floor, with the same network and shapes.
  const net = trainer.net;
  const N = cfg.batchTasks * cfg.groupSize, T = cfg.sim.maxTurns;
  const rand = (n: number) => Float32Array.from({ length: n }, () => Math.random());
  // The rollouts' measured share of allowed tools, spread evenly, so the scorer runs on as many pairs as in training.
  const fwd = policyInput(packPairs({ state: rand(N * STATE_DIM), tools: rand(N * J * TOOL_DIM), bias: spreadMaskBias(N, J, allowedShare) }, J, null));
  const forwardOnce = async () => {
    const out = tf.tidy(() => net.logits(fwd)); // as a rollout turn: the logits are read back and sampled on the CPU
    await out.data();
    out.dispose();
  };
  for (let i = 0; i < 5; i++) await forwardOnce();
  let t0 = performance.now();
  for (let i = 0; i < 50; i++) await forwardOnce();
  const forwardMs = (performance.now() - t0) / 50;
  const rows = bucketSize(trained / iterations, BUCKET_ROWS);
  const buf = new RolloutBuffer(1, rows, J);
  buf.valid.fill(1);
  buf.bias.set(spreadMaskBias(rows, J, allowedShare));
  buf.actions.set(allowedActions(buf.bias, rows, J + 1));
  const batch = toDecisionBatch(buf, new Float32Array(rows).fill(0.5), new Float32Array(rows).fill(1 / rows), undefined, undefined, cfg.policy.width);
  const opt = new FlatAdam(1e-9);
  const backwardOnce = async () => {
    const loss = tf.tidy(() => gradientStep(net, batch, cfg, opt, cfg.maxGradNorm)); // as the trainer's epoch runs it
    await loss.data();
    loss.dispose();
  };
  for (let i = 0; i < 3; i++) await backwardOnce();
  t0 = performance.now();
  for (let i = 0; i < 20; i++) await backwardOnce();
  const backwardMs = (performance.now() - t0) / 20;
  disposePolicyInput(fwd);
  disposeBatch(batch);
  opt.dispose();
  trainer.dispose();

  const floorMs = meanTurns * forwardMs + cfg.epochs * backwardMs;
  const iterationMs = iterMs / iterations;
  const out = {
    backend,
    /** Whether the kernels of our own ran (wasm only; `--kernels off` measures without them). */
    kernels: wasmKernelsReady(),
    config: { batchTasks: cfg.batchTasks, groupSize: cfg.groupSize, maxTurns: T, epochs: cfg.epochs, width: cfg.policy.width, depth: cfg.policy.depth },
    iterationMs,
    dispatchesPerIteration,
    breakdown: { rolloutMs: rolloutMs / iterations, rewardMs: rewardMs / iterations, updateMs: updateMs / iterations },
    meanRolloutTurns: meanTurns,
    forwardMs,
    backwardMs,
    floorMs,
    ratio: iterationMs / floorMs,
    decisionsPerIteration: { rollout: live / iterations, trained: trained / iterations },
    allowedToolShare: allowedShare,
    matmulGmacPerS: macsPerMs / 1e6,
    flopFloorMs,
    ratioToFlopFloor: iterationMs / flopFloorMs,
    denseFloorMs,
    ratioToDenseFloor: iterationMs / denseFloorMs,
  };
  if (a.flags.has('json')) process.stdout.write(JSON.stringify(out) + '\n');
  else process.stdout.write(`GRPO iteration ${iterationMs.toFixed(1)} ms (rollout ` +
    `${out.breakdown.rolloutMs.toFixed(1)}, update ${out.breakdown.updateMs.toFixed(1)}), `
    + `${dispatchesPerIteration.toFixed(0)} dispatches (kernels run); floor ${meanTurns.toFixed(1)} × ` +
      `${forwardMs.toFixed(2)} ms forward + ${cfg.epochs} × ${backwardMs.toFixed(1)} ms backward = ` +
      `${floorMs.toFixed(1)} ms; ratio ${out.ratio.toFixed(2)}\n` +
    `arithmetic floor: ${(macs / iterations / 1e6).toFixed(1)} M multiply-adds ` +
    `(${out.decisionsPerIteration.rollout.toFixed(0)} rollout decisions, ` +
    `${out.decisionsPerIteration.trained.toFixed(0)} trained × ${cfg.epochs} epochs; ` +
    `${(100 * allowedShare).toFixed(0)}% of their tools allowed) at ${out.matmulGmacPerS.toFixed(2)} GMAC/s = ` +
    `flopFloorMs ${flopFloorMs.toFixed(1)}; ratioToFlopFloor ${out.ratioToFlopFloor.toFixed(2)} on ${backend}` +
    `${backend === 'wasm' ? ` (kernels of our own ${out.kernels ? 'on' : 'off'})` : ''}\n` +
    `scoring every tool, masked ones too (the floor as first defined): ${denseFloorMs.toFixed(1)} ms; ratio ${out.ratioToDenseFloor.toFixed(2)}\n`);
}
