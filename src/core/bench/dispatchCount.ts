// Counts kernel launches while a piece of work runs, on whatever backend is active: on WebGPU the
// programs the backend records (each a bind group, a uniform buffer and a dispatch), on WebGL the
// programs it runs, on wasm and cpu the kernels tfjs's engine runs (each a call into the backend).
// The bench reports them per iteration: a GPU pays a fixed cost per launch, whatever its size.

import * as tf from '@tensorflow/tfjs-core';

export interface DispatchCount {
  /** Launches counted so far. */
  readonly total: number;
  /** Launches by name (the engine's kernel name, or the program's shader key outside a kernel). */
  readonly byName: ReadonlyMap<string, number>;
  /** Buffer-to-buffer copies recorded by the kernels of our own (src/core/kernels/webgpu*), not counted in total. */
  readonly copies: number;
  /** Removes the hooks (the counts stay readable). */
  stop(): void;
}

type Fn = (...args: unknown[]) => unknown;

/** The backend method that launches one program, by backend name. */
const LAUNCH: Record<string, string> = { webgpu: 'recordAndSubmit', webgl: 'runWebGLProgram' };

/** Before replacing obj[key]: a function that puts back what was there (an own property, or the prototype's). */
function hook(obj: Record<string, unknown>, key: string): () => void {
  const own = Object.prototype.hasOwnProperty.call(obj, key);
  const before = obj[key];
  return () => {
    if (own) obj[key] = before;
    else delete obj[key];
  };
}

let copyCounter: ((n: number) => void) | null = null;

/** Called by the kernels of our own for each buffer copy they record (counted apart from dispatches). */
export function noteBufferCopies(n: number): void {
  copyCounter?.(n);
}

/** Starts counting launches on the active backend. */
export function countDispatches(): DispatchCount {
  const engine = tf.engine() as unknown as { runKernel: Fn };
  const backend = tf.backend() as unknown as Record<string, unknown>;
  const launchName = LAUNCH[tf.getBackend()];
  const byName = new Map<string, number>();
  let total = 0, copies = 0;
  const stack: string[] = [];
  const add = (name: string) => { total++; byName.set(name, (byName.get(name) ?? 0) + 1); };
  const restore = hook(engine as unknown as Record<string, unknown>, 'runKernel');
  const runKernel = engine.runKernel;
  engine.runKernel = function (this: unknown, ...args: unknown[]) {
    const name = args[0] as string;
    if (!launchName) add(name);
    stack.push(name);
    try { return runKernel.apply(this, args); } finally { stack.pop(); }
  };
  const launch = launchName ? (backend[launchName] as Fn | undefined) : undefined;
  const restoreLaunch = launchName && launch ? hook(backend, launchName) : () => undefined;
  if (launchName && launch) {
    backend[launchName] = function (this: unknown, ...args: unknown[]) {
      const program = args[0] as { shaderKey?: string; constructor?: { name?: string } } | undefined;
      const key = String(program?.shaderKey ?? program?.constructor?.name ?? '?');
      add(stack[stack.length - 1] ?? key.split('_')[0] ?? '?');
      return launch.apply(this, args);
    };
  }
  const previousCopies = copyCounter;
  copyCounter = (n) => { copies += n; previousCopies?.(n); };
  let stopped = false;
  return {
    get total() { return total; },
    get copies() { return copies; },
    byName,
    stop() {
      if (stopped) return;
      stopped = true;
      restore();
      restoreLaunch();
      copyCounter = previousCopies;
    },
  };
}
