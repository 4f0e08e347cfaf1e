// tfjs on the cpu backend for unit tests (gradients registered by the Node entry).
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';

export async function useCpu(): Promise<typeof tf> {
  await initNodeBackend('cpu');
  return tf;
}
