// tfjs backend selection inside the worker: WebGPU by default, falling back webgpu → webgl →
// wasm → cpu; reports which backend won, the adapter, and whether it is a software adapter.

import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-webgl';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmPlain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { BACKEND_NAMES as BACKEND_CHAIN, type BackendInfo, type BackendName } from './protocol';


setWasmPaths({
  'tfjs-backend-wasm.wasm': wasmPlain,
  'tfjs-backend-wasm-simd.wasm': wasmSimd,
  'tfjs-backend-wasm-threaded-simd.wasm': wasmThreaded,
});

interface AdapterLike {
  info?: { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
}

async function describeAdapter(): Promise<{ adapter: string; software: boolean } | null> {
  const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  if (!gpu) return null;
  const adapter = (await gpu.requestAdapter()) as AdapterLike | null;
  if (!adapter) return null;
  const i = adapter.info ?? {};
  const words = [i.vendor, i.architecture, i.device, i.description].filter((x): x is string => !!x);
  const name = words.join(' ').trim() || 'unknown adapter';
  const software = !!(i.isFallbackAdapter ?? adapter.isFallbackAdapter) || /swiftshader|llvmpipe|software|cpu/i.test(name);
  return { adapter: name, software };
}

/** Starts the first backend of the chain that works, `preferred` first; `notes` say why others were skipped. */
export async function initBackend(preferred?: BackendName): Promise<BackendInfo> {
  const order = preferred ? [preferred, ...BACKEND_CHAIN.filter((b) => b !== preferred)] : [...BACKEND_CHAIN];
  const notes: string[] = [];
  for (const name of order) {
    let adapter = name === 'webgpu' ? '' : name;
    let software = name === 'cpu' || name === 'wasm';
    if (name === 'webgpu') {
      const a = await describeAdapter().catch(() => null);
      if (!a) {
        notes.push('webgpu: no adapter (navigator.gpu missing or requestAdapter returned null)');
        continue;
      }
      adapter = a.adapter;
      software = a.software;
    }
    try {
      if (await tf.setBackend(name)) {
        await tf.ready();
        if (name === 'webgl') adapter = 'WebGL';
        return { name, adapter, software, notes };
      }
      notes.push(`${name}: setBackend returned false`);
    } catch (e) {
      notes.push(`${name}: ${(e as Error).message}`);
    }
  }
  throw new Error(`no tfjs backend could start: ${notes.join('; ')}`);
}
