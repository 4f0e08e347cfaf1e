// The core as a library (package.json "exports": `orchestra-lab/core`): what a notebook or another
// project needs to build a world from a catalog, train a policy with GRPO, evaluate it beside the
// baselines, and save or load its files. The same modules the lab and the CLI run; TypeScript
// sources, for a runtime that reads them (tsx, Bun, a bundler). Set a tfjs backend first (in Node:
// import '@tensorflow/tfjs' for the gradients and a backend package): examples/train-and-export.ts.

export { PRESET_NAMES, presetCatalog } from './sim/presets';
export { parseCatalog, parseCatalogJson } from './sim/catalogSchema';
export type { Catalog, ToolSpec } from './sim/catalog';
export { DEFAULT_SIM, type SimConfig } from './sim/callModel';
export { generateTasks, type GenerateOptions, type Task } from './sim/tasks';
export { DEFAULT_PREFERENCE, type Preference } from './preference';
export { DEFAULT_TRAIN, MAX_ITERATIONS, type TrainConfig } from './grpo/config';
export { recipeConfig, SHIPPED_RECIPE } from './grpo/recipe';
export { trainingPool } from './grpo/trainingPool';
export { GrpoTrainer } from './grpo/trainer';
export type { IterationMetrics } from './grpo/metrics';
export { PolicyNetwork } from './policy/network';
export { learnedPolicy } from './policy/act';
export { baselineFromName } from './eval/baselines';
export { evaluatePolicy, type EvalResult } from './eval/evaluate';
export { aiq, routingMetrics, type RoutingMetrics } from './eval/frontier';
export { routingReferences, sweepBaselines } from './eval/sweep';
export { exportArtifact, importArtifact, WEIGHTS_FILE } from './io/artifact';
