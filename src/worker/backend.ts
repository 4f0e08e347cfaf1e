// tfjs backend selection inside the worker. `auto` (the default) measures each backend that
// starts with the speed probe (core/bench/speedProbe.ts: 2 s of warm work in all, each backend's first
// runs, where WebGPU compiles its kernels, under an allowance beside it) and trains on the fastest;
// the page caches the report per adapter, size and lab version. A forced backend starts directly,
// falling back along webgpu → webgl → wasm → cpu. Reports the adapter and whether it is software.

import { errorMessage } from '../core/errorMessage';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-webgl';
import '@tensorflow/tfjs-backend-webgpu';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import wasmPlain from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimd from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreaded from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import { BACKEND_NAMES as BACKEND_CHAIN, PROBE_BUDGET_MS, type BackendInfo, type BackendName, type BackendProbeReport,
  type BackendProbeResult, type ProbeSize } from './protocol';
import { probeSpeed, ProbeTimeout, type SpeedProbe } from '../core/bench/speedProbe';
import { probeOrder, probeSizeKey, unmeasuredOrder } from '../core/bench/probeSize';
import { version as LAB_VERSION } from '../../package.json';


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
export async function initBackend(preferred?: BackendName, chain: readonly BackendName[] = BACKEND_CHAIN): Promise<BackendInfo> {
  const order = preferred ? [preferred, ...chain.filter((b) => b !== preferred)] : [...chain];
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
        return { name, mode: 'forced', adapter, software, notes };
      }
      notes.push(`${name}: setBackend returned false`);
    } catch (e) {
      notes.push(`${name}: ${errorMessage(e)}`);
    }
  }
  throw new Error(`no tfjs backend could start: ${notes.join('; ')}`);
}

/**
 * Each backend's share of the probe's budget (PROBE_BUDGET_MS; what is left passes on, in the order of
 * probeOrder), and, for a GPU backend, an allowance for its stages' first runs outside the budget
 * (WebGPU compiles its kernels there, once per page, and training reuses them; wasm's and cpu's first
 * runs are timed work like the rest, 0 here). A backend is tried only with at
 * least `minLeftMs` of the budget left: starting WebGL cannot be cut short (an abandoned tf.setBackend
 * would switch the engine later), so it is tried only without WebGPU.
 */
const PROBE_SHARES: Record<BackendName, { capMs: number; minLeftMs: number; firstRunMs: number }> = {
  wasm: { capMs: 900, minLeftMs: 0, firstRunMs: 0 },
  webgpu: { capMs: 900, minLeftMs: 300, firstRunMs: 4000 },
  cpu: { capMs: 400, minLeftMs: 200, firstRunMs: 0 },
  webgl: { capMs: 600, minLeftMs: 700, firstRunMs: 2000 },
};

/** "first run 812 ms (compiling its GPU kernels), not timed" */
const firstRunWords = (name: BackendName, ms: number): string => (PROBE_SHARES[name].firstRunMs > 0
  ? `first run ${Math.round(ms)} ms (compiling its GPU kernels), not timed` : `first run ${Math.round(ms)} ms (warming up)`);

/** A probe's figures in words a newcomer reads. */
function measuredWords(name: BackendName, r: SpeedProbe, beat: BackendProbeResult | null): string {
  const first = firstRunWords(name, r.firstRunMs);
  if (r.bound) {
    return `${first}; then its forward alone took ${r.forwardMs.toFixed(1)} ms a batch, too slow to beat `
      + `${beat?.label ?? 'the fastest so far'}, so its update was not timed`;
  }
  return `${first}; then, warm: forward ${r.forwardMs.toFixed(1)} ms, update ${r.updateMs?.toFixed(1)} ms`;
}

const sleep = (ms: number) => new Promise<'late'>((r) => setTimeout(() => r('late'), ms));

/**
 * Measures each backend that starts and switches to the fastest. A cached report for the same
 * adapter, size and lab version is used as it is (no measurement).
 */
export async function chooseBackend(size: ProbeSize, cached?: BackendProbeReport): Promise<BackendInfo> {
  const gpu = await describeAdapter().catch(() => null);
  const adapterKey = gpu ? gpu.adapter : 'no WebGPU adapter';
  const sizeKey = probeSizeKey(size);
  // The page's cache is storage anyone on the origin can write: a choice that names no backend is not used.
  const usable = cached && (BACKEND_CHAIN as readonly string[]).includes(cached.choice);
  if (usable && cached.version === LAB_VERSION && cached.adapter === adapterKey && cached.sizeKey === sizeKey) {
    const info = await initBackend(cached.choice);
    if (info.name === cached.choice) return { ...info, mode: 'auto', probe: { ...cached, cached: true } };
  }
  const start = performance.now();
  const results: BackendProbeResult[] = [];
  let best: BackendProbeResult | null = null;
  let firstRuns = 0; // the first runs' time, outside the budget
  for (const name of probeOrder(gpu)) {
    const { capMs, minLeftMs, firstRunMs } = PROBE_SHARES[name];
    const t0 = performance.now();
    const label = name === 'webgpu' && gpu?.software ? 'webgpu (software adapter)' : name;
    const left = PROBE_BUDGET_MS - (t0 - start - firstRuns);
    if (left < Math.max(100, minLeftMs)) { results.push({ name, label, status: 'skipped',
      detail: left > 0 ? `only ${Math.round(left)} ms of the 2 s probe budget were left` // never a negative time
        : 'the 2 s probe budget was spent on the backends before it', ms: 0 }); continue; }
    if (name === 'webgpu' && !gpu) { results.push({ name, label, status: 'unavailable', detail: 'no WebGPU adapter', ms: 0 }); continue; }
    // Starting WebGL cannot be cut short (~1.8 s on a software GL here), so it is measured only where
    // WebGPU is missing: where an adapter exists WebGPU covers the GPU, and the 2 s budget holds.
    if (name === 'webgl' && gpu) { results.push({ name, label, status: 'skipped', detail: 'measured only where WebGPU is missing', ms: 0 }); continue; }
    try {
      if (!(await tf.setBackend(name))) throw new Error('setBackend returned false');
      await tf.ready();
    } catch (e) {
      results.push({ name, label, status: 'unavailable', detail: errorMessage(e), ms: performance.now() - t0 });
      continue;
    }
    const timedMs = Math.min(capMs, left);
    const probe = probeSpeed(size, { timedMs, firstRunMs, beat: best?.itPerS ?? 0 });
    probe.catch(() => undefined); // a probe that outlives its timer stops at its next check
    try {
      const r = await Promise.race([probe, sleep(timedMs + firstRunMs)]);
      if (r === 'late') throw new ProbeTimeout('late', firstRunMs > 0 ? 'first run' : 'timed', firstRunMs);
      if (firstRunMs > 0) firstRuns += r.firstRunMs;
      const line: BackendProbeResult = { name, label, status: r.bound ? 'bound' : 'measured', itPerS: r.itPerS,
        detail: measuredWords(name, r, best), ms: performance.now() - t0 };
      results.push(line);
      if (!r.bound && (!best || r.itPerS > (best.itPerS ?? 0))) best = line;
    } catch (e) {
      const timedOut = e instanceof ProbeTimeout;
      if (timedOut && firstRunMs > 0) firstRuns += e.firstRunMs;
      results.push({ name, label, status: timedOut ? 'timed out' : 'unavailable',
        detail: !timedOut ? errorMessage(e) : e.during === 'first run'
          ? `its first run (${name === 'webgpu' ? 'compiling its GPU kernels' : 'warming up'}) took over ${firstRunMs / 1000} s`
          : `${firstRunWords(name, e.firstRunMs)}; then no warm result within ${Math.round(timedMs)} ms`,
        ms: performance.now() - t0 });
    }
  }
  // A software adapter is chosen only against a wasm it was measured against: where wasm did not finish,
  // the two are not compared, and the CPU's wasm is the safer guess (unmeasuredOrder).
  const wasmMeasured = results.some((r) => r.name === 'wasm' && r.status === 'measured');
  if (best?.name === 'webgpu' && gpu?.software && !wasmMeasured) best = null;
  const info = best ? await initBackend(best.name) : await initBackend(undefined, unmeasuredOrder(gpu));
  // Not the measured fastest (none finished, or it would not start again): shown as such, never cached.
  const inconclusive = !best || info.name !== best.name;
  const probe: BackendProbeReport = { version: LAB_VERSION, adapter: adapterKey, sizeKey, choice: info.name, results,
    totalMs: performance.now() - start, measuredAt: new Date().toISOString(), cached: false,
    ...(inconclusive ? { inconclusive: true } : {}) };
  return { ...info, mode: 'auto', probe };
}

