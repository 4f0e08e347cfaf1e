// tfjs backends for Node: wasm (default, fastest here) or cpu. The same core code runs on them.
// Gradients are registered here, by the entry point: in Node the `@tensorflow/tfjs` bundle (CJS)
// registers them on the same tfjs-core instance the core uses (core's ESM deep import of
// register_all_gradients does not load in Node).

import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { CliError } from './args';

export const NODE_BACKENDS = ['wasm', 'cpu'] as const;

export async function initNodeBackend(name: string): Promise<string> {
  checkBackendName(name);
  tf.env().set('PROD', true); // no "install tfjs-node" banner on stderr (it cannot be installed here)
  if (!(await tf.setBackend(name))) throw new CliError(`tfjs backend "${name}" failed to start`);
  await tf.ready();
  return tf.getBackend();
}

/** Refuses a --backend the command would not use because nothing it runs needs tfjs (a baseline): a wrong name is still wrong. */
export function checkBackendName(name: string | undefined): void {
  if (name !== undefined && !(NODE_BACKENDS as readonly string[]).includes(name)) throw new CliError(`--backend must ` +
    `be one of ${NODE_BACKENDS.join(', ')} in Node (got "${name}")`);
}
