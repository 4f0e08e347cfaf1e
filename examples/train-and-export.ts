// The core as a library, through the package's exports: a world from a catalog, 200 GRPO iterations,
// an evaluation on 300 held-out HLE-like tasks, the policy's files. `npx tsx examples/train-and-export.ts DIR`
import '@tensorflow/tfjs'; // tfjs's gradients, in Node
import '@tensorflow/tfjs-backend-wasm';
import { setBackend } from '@tensorflow/tfjs-core';
import { mkdirSync, writeFileSync } from 'node:fs';
import { DEFAULT_PREFERENCE, DEFAULT_TRAIN, evaluatePolicy, exportArtifact, generateTasks, GrpoTrainer, learnedPolicy,
  presetCatalog, trainingPool, WEIGHTS_FILE } from 'orchestra-lab/core';

await setBackend('wasm');
const catalog = presetCatalog('toolorchestra'), config = { ...DEFAULT_TRAIN, seed: 1 };
const trainer = new GrpoTrainer(catalog, config, trainingPool(catalog, config));
for (let i = 0; i < 200; i++) await trainer.step();
const { tasks } = generateTasks(catalog, { seed: 1000, count: 300, suite: 'hle', availability: 1 });
const policy = learnedPolicy(trainer.net, catalog, DEFAULT_PREFERENCE);
const r = await evaluatePolicy(policy, tasks, catalog, config.sim, { seed: 1000 });
console.log(`HLE after 200 iterations: ${(100 * r.accuracy).toFixed(1)}% at $${r.meanCostUSD.toFixed(4)} a task`);
const { json, weights } = await exportArtifact(trainer.net, catalog, { training: { ...config, iterations: 200 } });
const out = process.argv[2] ?? 'my-policy';
mkdirSync(out, { recursive: true });
writeFileSync(`${out}/orchestrator.json`, JSON.stringify(json));
writeFileSync(`${out}/${WEIGHTS_FILE}`, weights);
