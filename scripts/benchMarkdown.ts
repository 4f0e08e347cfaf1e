// docs/BENCHMARKS.md from a bench run (scripts/bench.ts): every figure in it comes from the JSON, but for the
// charts' section, measured by hand (scripts/benchCharts.ts).

import type { BenchReport, BenchRow } from '../src/core/bench/trainBench';
import { chartsSection } from './benchCharts';

export interface BenchRun {
  where: 'node' | 'chromium';
  backend: string;
  status: 'done' | 'unavailable' | 'error';
  message?: string;
  adapter?: string;
  software?: boolean;
  report?: BenchReport;
  longestTaskMs: number | null;
}

export interface BenchDoc {
  plan: string;
  date: string;
  machine: string;
  /** The 1-minute load average at the start and at the end of the run (absent in runs before it was recorded). */
  load?: number[];
  totalS: number;
  runs: BenchRun[];
}

const FLOOR_TARGET = 3;
/** The batched-against-naive target on wasm, retired (see the prose): the speed-up stays a figure. */
const NAIVE_TARGET = 20;
/** WebGPU (software adapter) against wasm at the default size, both in one Chromium run: at most this many times slower. */
const WEBGPU_RATIO_TARGET = 25;
/** Dispatches a WebGPU iteration may take at the default size. */
const WEBGPU_DISPATCH_TARGET = 150;
/** The real-GPU target at width 256, N = 1024: WebGPU this many times faster than wasm (not measured yet). */
const REAL_GPU_SPEEDUP = 20;
/** When WebGPU's kernels of our own were written (the real-GPU figures predate them). */
const WEBGPU_KERNELS_DATE = '2026-12-06';

/**
 * WebGPU before its WGSL kernels (src/core/kernels/webgpu*.ts), as measured with the code before them;
 * fixed history, not in benchmarks.json: the full bench of 2026-12-05 (the page before this one), and the
 * bench page's plan=default on 2026-12-06 (one run per backend, the machine loaded by two other jobs).
 */
const BEFORE_KERNELS = {
  bench: { date: '2026-12-05', webgpuMs: 3127.0, wasmMs: 19.5 },
  counted: { date: '2026-12-06', webgpuDispatches: 511, readbacks: 13, webgpuMs: 8926, wasmMs: 45.8 },
};
const f = (x: number | undefined | null, d = 1) => (x === undefined || x === null || !Number.isFinite(x) ? '—' : x.toFixed(d));
const name = (r: BenchRun) => `${r.where === 'node' ? 'Node' : 'Chromium'} ${r.backend}${r.software && r.backend === 'webgpu' ? ' (software adapter)' : ''}`;

function row(r: BenchRun, x: BenchRow): string {
  if (x.status === 'skipped') return `| ${name(r)} | ${x.width} | ${x.episodes} | skipped: ${x.note} | | | | | | |`;
  const ratio = x.ratioToFlopFloor as number;
  const mark = x.width === 64 && x.episodes === 128 ? (ratio <= FLOOR_TARGET ? ' ✓' : ' ✗ (target ≤ 3)') : '';
  return `| ${name(r)} | ${x.width} | ${x.episodes} | ${f(x.iterationMs)} | ${f(x.rolloutDecisionsPerS, 0)} | ${f(x.flopFloorMs)} `
    + `| ${f(ratio, 2)}${mark} | ${f(x.ratioToDenseFloor, 2)} | ${f(x.readbacksPerTurn, 2)} | ${f(x.dispatchesPerIteration, 0)} |`;
}

/** Sizes where WebGPU's iteration is faster than wasm's, both in Chromium. */
function overtakes(doc: BenchDoc): string {
  const gpu = doc.runs.find((r) => r.where === 'chromium' && r.backend === 'webgpu' && r.report);
  const wasm = doc.runs.find((r) => r.where === 'chromium' && r.backend === 'wasm' && r.report);
  if (!gpu?.report || !wasm?.report) return 'WebGPU or wasm did not run in Chromium here, so no crossover can be read off.';
  const wins: string[] = [], loses: string[] = [];
  for (const g of gpu.report.rows) {
    const w = wasm.report.rows.find((x) => x.width === g.width && x.episodes === g.episodes);
    if (g.status !== 'ok' || w?.status !== 'ok') continue;
    ((g.iterationMs as number) < (w.iterationMs as number) ? wins : loses).push(`width ${g.width}, N = ${g.episodes} (${f(g.iterationMs, 0)} vs ${f(w.iterationMs, 0)} ms)`);
  }
  const adapter = gpu.software && gpu.backend === 'webgpu' ? `on this machine's software adapter (${gpu.adapter})` : `on ${gpu.adapter}`;
  if (!wins.length) return `WebGPU ${adapter} is slower than wasm at every size measured: ${loses.join('; ') || 'none measured on both'}. The sizes not measured are skipped in the table above, each with its reason.`;
  return `WebGPU ${adapter} is faster than wasm at ${wins.join('; ')}; slower at ${loses.join('; ') || 'no measured size'}.`;
}

/** The two tables of a bench run: per size, then per backend (naive, matmul peak, memory, main thread). */
function tables(doc: BenchDoc, level = '##'): string[] {
  const out: string[] = [];
  out.push('| where, backend | width | N | ms / iteration | decisions/s | floor ms | ratio to floor | every tool scored | readbacks/turn | dispatches / iteration |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of doc.runs) {
    if (!r.report) { out.push(`| ${name(r)} | | | ${r.status}: ${r.message ?? ''} | | | | | | |`); continue; }
    for (const x of r.report.rows) out.push(row(r, x));
  }
  out.push('', `${level} Batched against naive, matmul throughput, memory, main thread`, '');
  out.push('| where, backend | matmul GMAC/s | naive decisions/s | batched (at N) | speed-up | tensors after 10 → 500 iterations (width 64, N = 32) | GPU bytes | longest main-thread task |', '|---|---:|---:|---:|---:|---|---|---:|');
  for (const r of doc.runs) {
    const rep = r.report;
    if (!rep) continue;
    const n = rep.naive, m = rep.memory;
    const sp = n?.speedup;
    const mem = m ? m.at.map((a) => `${a.numTensors} @ ${a.iterations}`).join(' → ') + (m.note ? ` (${m.note})` : '') : '—';
    const gpu = m && m.at.some((a) => a.gpuBytes !== null) ? m.at.map((a) => f(a.gpuBytes, 0)).join(' → ') : '—';
    const speedup = sp && n?.episodes === 1024 ? `${f(sp, 0)}×` : sp ? `${f(sp, 0)}× (N = 1024 not measured)` : '—';
    const batched = n?.batchedDecisionsPerS ? `${f(n.batchedDecisionsPerS, 0)} (${n.episodes})` : '—';
    const longest = r.longestTaskMs === null ? 'n/a (Node)' : r.longestTaskMs === 0 ? 'none ≥ 50 ms' : `${f(r.longestTaskMs, 0)} ms`;
    out.push(`| ${name(r)} | ${f(rep.matmulGmacPerS, 2)} | ${f(n?.decisionsPerS, 0)} | ${batched} | ${speedup} | ${mem} | ${gpu} | ${longest} |`);
  }
  return out;
}

export interface SoakDoc { date: string; iterations: number; size: string; rows: { iteration: number; numTensors: number; heapMB: number; rssMB: number; wasmHeapMB: number; seconds: number }[]; problems: string[] }

/** A run of the bench page on a machine with a real GPU (scripts/real-gpu/), with a later follow-up. */
export interface GpuBenchDoc extends BenchDoc {
  flags: string[];
  followUp?: BenchDoc & {
    extra?: { query: string; status: string; report?: BenchReport }[];
    lab?: { url: string; backend: string | null; probe: string | null; badge?: string; readyS: number; iterationsIn20s: number; after?: unknown; date?: string }[];
  };
}

function gpuSection(g: GpuBenchDoc): string[] {
  const out: string[] = [];
  out.push(`## Real-GPU figures: ${g.machine.split(';')[0]} (measured before the WebGPU kernels)`, '');
  out.push(`**No GPU since.** No machine with a GPU was lent to the session that wrote WebGPU's kernels of our own (${WEBGPU_KERNELS_DATE}), so the figures below are still those of tfjs's ops on WebGPU, about 1,600 small kernels an iteration. The real-GPU targets of that work — WebGPU at most wasm's ms per iteration at the default size, at least ${REAL_GPU_SPEEDUP}× faster than wasm at width 256, N = 1024, and the probe choosing WebGPU at the default size — are not measured yet: rerun \`scripts/real-gpu/\` as one short script and regenerate this page. What this machine can measure (the section on WebGPU's kernels above) holds.`, '');
  out.push(`Measured on ${g.date.slice(0, 10)} with \`scripts/real-gpu/\` (its README says how): the built lab and a carried Chromium on a machine with ${g.machine}, WebGPU and WebGL on the GPU through Vulkan (flags \`${g.flags.join(' ')}\`), ${g.plan} plan, ${f(g.totalS, 0)} s. wasm runs on that machine's CPU, one thread. These are real-GPU figures; everything above is this project's 2-core machine with no GPU.`, '');
  out.push(...tables(g, '###'));
  out.push('', `**Where WebGPU overtakes wasm on this GPU.** ${overtakes(g)}`, '');
  const gpuRows = (doc: BenchDoc) => doc.runs.find((r) => r.backend === 'webgpu')?.report?.rows.filter((x) => x.status === 'ok') ?? [];
  const at = (doc: BenchDoc, w: number, n: number) => gpuRows(doc).find((x) => x.width === w && x.episodes === n)?.iterationMs;
  const upTo1024 = gpuRows(g).filter((x) => x.episodes <= 1024).map((x) => x.iterationMs as number);
  const floors = gpuRows(g).filter((x) => x.episodes <= 1024).map((x) => x.flopFloorMs as number);
  const peaks = [g, ...(g.followUp ? [g.followUp] : [])].flatMap((d) => d.runs.filter((r) => r.backend === 'webgpu' && r.report).map((r) => r.report?.matmulGmacPerS as number));
  if (upTo1024.length) {
    out.push(`**Why WebGPU was slow at the default size even on this GPU (before its kernels).** Its iteration hardly grows with the work: ${f(Math.min(...upTo1024), 0)}–${f(Math.max(...upTo1024), 0)} ms at every width up to N = 1024, while their arithmetic floor spans ${f(Math.max(...floors) / Math.min(...floors), 0)}-fold. An iteration at the default size is about 1,600 small kernels (counted in Node) and 13 readbacks, so ${f(at(g, 64, 128), 0)} ms is about ${f((at(g, 64, 128) ?? NaN) / 1600, 2)} ms a kernel: tfjs-webgpu records a bind group and uniforms for every op and Chromium relays each to its GPU process, and the GPU waits on that, not on arithmetic. Its matmul peak, taken on a 512³ product, is likewise a latency figure (${f(Math.min(...peaks), 0)}–${f(Math.max(...peaks), 0)} GMAC/s over the runs), far below what the H200 does on large products; the floor ratios of WebGPU rows are against that figure. WebGL on ANGLE over Vulkan is slower still: seconds an iteration.`, '');
  }
  const fu = g.followUp;
  if (fu?.lab?.length) {
    out.push(`**The lab's own choice there** (follow-up, ${fu.date.slice(0, 10)}): the page opened with no backend in the URL, its 2 s probe, then Start and 20 s of training.`, '');
    out.push('| URL | chosen | probe line | ready after | iterations in 20 s |', '|---|---|---|---:|---:|');
    for (const l of fu.lab) {
      const fixed = typeof l.after === 'string' ? ` (${l.date?.slice(11, 16)}, after ${l.after})` : '';
      const line = l.probe ? `${l.badge?.includes('no backend finished') ? 'badge: "no backend finished the 2 s probe at this size"; ' : ''}${l.probe}` : 'no figures: no backend had finished the probe, and it fell to the first of the chain (WebGPU) without saying so';
      out.push(`| \`${l.url.replace(/^https?:\/\/[^/]+\//, '')}\`${fixed} | ${l.backend ?? '—'} | ${line} | ${f(l.readyS)} s | ${l.iterationsIn20s} |`);
    }
    out.push('', 'At width 256, N = 1024 one wasm iteration takes seconds and blocks the worker past its share of the 2 s, so WebGPU, measured second, is skipped; with a hardware adapter the lab then trains on WebGPU, 13× faster than wasm at that size in the table above. Since these runs the probe measures WebGPU first where the adapter is a hardware one (`probeOrder` in `src/core/bench/probeSize.ts`); that order has not been run on a GPU yet.');
    out.push('');
  }
  const variants = (fu?.extra ?? []).filter((e) => e.report);
  if (variants.length) {
    out.push('**tfjs-webgpu\'s knobs there** (follow-up, quick plan, one run each): ms per iteration at width 64.', '');
    out.push('| tfjs flags | N = 128 | N = 1024 |', '|---|---:|---:|');
    for (const e of variants) {
      const ms = (n: number) => f(e.report?.rows.find((x) => x.width === 64 && x.episodes === n)?.iterationMs, 0);
      out.push(`| ${new URLSearchParams(e.query).get('flags') ?? 'defaults'} | ${ms(128)} | ${ms(1024)} |`);
    }
    out.push('', `The same defaults measured ${f(at(g, 64, 128), 0)} and ${f(at(g, 64, 1024), 0)} ms in the full run${fu ? ` and ${f(at(fu, 64, 128), 0)} ms at N = 128 in the follow-up's first WebGPU page` : ''}: the spread between runs is as large as any flag's effect, so the lab keeps tfjs's defaults.`, '');
  }
  return out;
}

/** The default size's row of a run. */
const defaultRow = (r: BenchRun | undefined) => r?.report?.rows.find((x) => x.width === 64 && x.episodes === 128 && x.status === 'ok');

/** WebGPU's kernels of our own: dispatches and readbacks before and after, its ratio to wasm, what they are and how they are checked. */
function webgpuSection(doc: BenchDoc): string[] {
  const run = (where: string, backend: string) => doc.runs.find((r) => r.where === where && r.backend === backend);
  const gpu = defaultRow(run('chromium', 'webgpu')), wasm = defaultRow(run('chromium', 'wasm'));
  const b = BEFORE_KERNELS;
  const out = ['## WebGPU: kernels of our own', ''];
  out.push('Kernel launches and readbacks per iteration at the default size (width 64, N = 128) in this run, against the code before '
    + `the WGSL kernels (counted with the bench page's plan=default on ${b.counted.date}). Only WebGPU's path changed; every other `
    + 'backend runs the code it ran before, so its count before is the count here. (The "about 1,600" of the real-GPU section was '
    + `counted in Node, when it was written; on the bench page, with this counter, WebGPU ran ${b.counted.webgpuDispatches} programs an iteration `
    + 'just before the kernels.)', '');
  out.push('| where, backend | dispatches / iteration before | after | readbacks / iteration before | after | ms / iteration |', '|---|---:|---:|---:|---:|---:|');
  for (const r of doc.runs) {
    const x = defaultRow(r);
    if (!x) continue;
    const webgpu = r.backend === 'webgpu' && r.where === 'chromium';
    const before = webgpu ? String(b.counted.webgpuDispatches) : 'the same';
    out.push(`| ${name(r)} | ${before} | ${f(x.dispatchesPerIteration, 0)} | ${webgpu ? b.counted.readbacks : 'the same'} | ${f(x.readbacksPerIteration, 1)} | ${f(x.iterationMs)} |`);
  }
  out.push('');
  if (gpu && wasm) {
    const ratio = (gpu.iterationMs as number) / (wasm.iterationMs as number);
    const dispatches = gpu.dispatchesPerIteration as number;
    out.push(`- **WebGPU against wasm, one Chromium run** (${doc.date.slice(0, 10)}, ${doc.machine}, the software adapter): `
      + `${f(gpu.iterationMs)} against ${f(wasm.iterationMs)} ms an iteration, ${f(ratio)}× ${ratio <= WEBGPU_RATIO_TARGET ? '✓' : '✗'} `
      + `(target ≤ ${WEBGPU_RATIO_TARGET}×). Before the kernels: ${f(b.bench.webgpuMs, 0)} against ${f(b.bench.wasmMs)} ms `
      + `(${f(b.bench.webgpuMs / b.bench.wasmMs, 0)}×, the full bench of ${b.bench.date}), and ${f(b.counted.webgpuMs, 0)} against `
      + `${f(b.counted.wasmMs)} ms (${f(b.counted.webgpuMs / b.counted.wasmMs, 0)}×, plan=default on ${b.counted.date}, a loaded machine).`);
    out.push(`- **Dispatches**: ${f(dispatches, 0)} an iteration ${dispatches <= WEBGPU_DISPATCH_TARGET ? '✓' : '✗'} (target ≤ `
      + `${WEBGPU_DISPATCH_TARGET}; ${b.counted.webgpuDispatches} before), plus ${f(gpu.bufferCopiesPerIteration, 0)} buffer-to-buffer copies `
      + '(the weights into and out of their flat copy, recorded in the same command stream; not dispatches, no bind group or uniforms). '
      + `The iteration's time splits into ${f(gpu.rolloutMs)} ms of rollouts and ${f(gpu.updateMs)} ms of update.`);
    out.push(`- **Readbacks**: ${f(gpu.readbacksPerIteration, 1)} an iteration, one per rollout turn and one per update, the floor while the `
      + 'env steps on the CPU, as before the kernels (tfjs\'s path already read back once a turn and once an update). The update\'s one '
      + 'readback carries every epoch\'s loss terms and gradient norm, the count of non-finite weights (the divergence guard) and '
      + 'the new weights (the trainer\'s last finite copy).');
  }
  out.push('- **The kernels** (`src/core/kernels/webgpu*.ts`, run through tfjs-webgpu\'s own `runWebGPUProgram`, so they share its '
    + 'pipeline cache, uniforms and command batching): the decisions\' level (the scorer\'s state part s·W_s + b and the submit head\'s '
    + 'first layer, one dispatch); the pairs\' first layer relu(tool·W_t + its decision\'s state part), the matMul, gather, add and ReLU '
    + 'of tfjs\'s path in one dispatch; each hidden level act(x·W + b) for the scorer\'s pairs and the submit rows in one dispatch; the '
    + 'logits (scores placed by the inverse index, plus the mask bias) in one. An update epoch adds the loss with its gradient with '
    + 'respect to the logits (one dispatch, which also writes the last hidden level\'s dz), one dispatch per hidden level for xᵀ·dz, '
    + 'Σ dz and the next dz (ReLU gradient included), one for the first level\'s gradients (W_s from each pair\'s decision state in '
    + 'place), one for the epoch\'s statistics and the gradient\'s global norm, and one for the clipped Adam step over the flat '
    + 'parameter vector [weights | m | v]; the update ends with one dispatch that packs its readback. A dense level gives an '
    + 'invocation 8 rows × 8 units, reading each weight vec4 once for its 8 rows; a weight gradient sums its rows in 8 chunks (Adam '
    + 'adds the chunks). The weights live in one flat, padded copy per network, refreshed by buffer copies when a variable changes; '
    + 'a batch too large for one storage buffer falls back to tfjs\'s ops.');
  out.push('- **How they are checked** (`e2e/webgpu.spec.ts`, in Chromium on this machine\'s software adapter): the bench page\'s '
    + 'plan=kernels runs the same inputs through the kernels and through tfjs\'s own ops on WebGPU (the kernels switched off) — '
    + 'the logits of random batches at widths 8–64 and depths 1–3 (within 1e-5 of the largest logit; masked ones equal), and three '
    + 'training iterations for four shapes, with clipping, the dual clip and the KL term exercised (the same actions; every '
    + 'diagnostic within 1e-4 of max(1e-3, |tfjs\'s|); the weights within 1e-4 of the largest) — and plan=series trains 20 iterations from one '
    + 'seed on WebGPU and on wasm, whose every diagnostic (reward, accuracy, loss, KL, entropy, clip fraction, gradient norm, '
    + 'turns) agrees within 1e-4 · max(1, |wasm\'s|). The divergence guard (plan=diverge: non-finite weights seen in the one readback, the '
    + 'weights restored) and the flat tensor count and buffer pool (plan=memory) hold on the kernels. Their sums run in their own '
    + 'order, so WebGPU agrees with tfjs within float rounding, not bit for bit; wasm and cpu keep their own paths unchanged.');
  out.push('');
  return out;
}

export function benchMarkdown(doc: BenchDoc, soak?: SoakDoc, gpu?: GpuBenchDoc): string {
  const out: string[] = [];
  out.push('# Benchmarks', '');
  const load = doc.load ? ` (load average ${doc.load.map((x) => f(x)).join(' at the start, ')} at the end: other jobs shared the cores)` : '';
  out.push(`Generated by \`npm run bench\` (scripts/bench.ts) on ${doc.date.slice(0, 10)}, ${doc.machine}${load}, in ${f(doc.totalS, 0)} s (${doc.plan} plan). The raw figures are in [benchmarks.json](benchmarks.json). Every row is one backend at one policy width × N = B·G episodes (G = 8), default settings otherwise (T = 12, μ = 2, depth 2); ms per iteration is the mean of at least two iterations after a warm-up (up to 5 iterations or 1 s; one where an iteration takes longer).`, '');
  out.push('- **ratio to floor**: the iteration\'s time over its arithmetic floor — the multiply-adds of its useful work (rollout forwards of live episodes; forward + backward over the decisions that train, μ epochs; each decision scoring only the tools its mask allows) divided by the backend\'s own matmul throughput, measured on a 512³ matmul in the same run (`src/core/bench/floor.ts`). Target ≤ 3 at the default size (width 64, N = 128).');
  out.push('- **every tool scored**: the ratio to the floor as it was first defined, which counts a score for every tool of a decision, masked ones too. The scorer used to compute those; since it runs on the allowed pairs only (`src/core/policy/pairs.ts`, 55–57% of them at the default size), that count is no longer a floor, and this column is there to compare with figures measured before.');
  out.push('- **decisions/s**: decisions of live episodes per second of rollout time. **readbacks/turn**: `data()` calls per rollout turn (the update adds one per iteration, not counted).');
  out.push('- **dispatches / iteration**: kernel launches per timed iteration (`src/core/bench/dispatchCount.ts`): on WebGPU and WebGL the GPU programs the backend records, on wasm and cpu the kernels tfjs\'s engine runs. A GPU pays a fixed cost per launch, whatever its size.');
  out.push(`- **naive**: the same policy driven one episode at a time, one forward and one read per decision (the tfjs policy-gradient example's way), measured in the same run; the speed-up is the batched rollout's decisions/s at N = 1024 over it. A figure: its ≥ ${NAIVE_TARGET}× target on wasm is retired (below).`, '');
  out.push(...tables(doc));
  out.push('', '## Where WebGPU overtakes wasm', '', overtakes(doc), '');
  out.push(...webgpuSection(doc));
  out.push('## Where the time goes', '');
  out.push('- **Kernels of our own (the ratio to floor, width 64).** On wasm the training\'s hot paths run as wasm SIMD kernels of the lab\'s own (`src/core/kernels/kernels.wat`, registered with tfjs in `wasmKernels.ts`) that read their operands where they lie on tfjs-wasm\'s heap and compute in the order of tfjs\'s own ops (XNNPACK\'s gemm order for products), so their values are tfjs\'s bit for bit (`test/wasmKernels.test.ts` checks each against a plain loop and against tfjs\'s ops, and trains 20 iterations with them and without them — `setWasmKernelsEnabled` — for the same weights and metrics; 150 iterations by hand gave the same weights too), and every documented run reproduces. That holds for finite values: the forward\'s ReLU maps a NaN to 0, as XNNPACK\'s x86 kernels do (its ARM kernels keep it); a NaN there comes only from non-finite weights, which the divergence guard reads either way. The weight and bias gradients xᵀ·dz and Σ dz replace a transpose of x and an XNNPACK product that repacks dz, its right operand, as if it were a weight, every epoch (at 2752 × 64 rows: 1.5–1.9 ms → 0.6 ms); over gathered rows they give the first layer\'s W_s gradient from each pair\'s state in place, so an update no longer builds the pairs\' full inputs. The forward act(x·W + b) runs at 19 GMAC/s where XNNPACK\'s runs at 15 on these shapes (0.59 against 0.73 ms at 2752 × 64 × 64); the scorer\'s first layer is one pass instead of a matMul, a gather, an add and a ReLU; an output layer computes its one column (XNNPACK computes eight); dz·Wᵀ uses the same kernel. A ReLU\'s gradient is one pass instead of a step and a multiply, and FlatAdam\'s clipped step one kernel instead of 64 (0.47 → 0.08 ms an epoch). In `bench-train` (iterations 6–45, Node, wasm, 2026-12-05, the code before these kernels alternating with the code after, four runs each): the iteration went from 42.6–44.5 to 24.6–26.6 ms (update 31.1–33.3 → 15.6–17.3 ms, rollouts 10.5–11.5 → 8.1–9.1 ms) and the ratio from 3.36–3.45 to 1.94–2.08 (`npm run cli -- bench-train --kernels off` measures without them, for an A/B in one sitting). `reproduce` gives every table it gave before the kernels, in 47 s instead of 85. WebGPU has WGSL kernels of its own (the section above); WebGL and cpu keep tfjs\'s ops; on wasm a width that is not a multiple of 8 keeps them for its layers\' products, while the output layers, the ReLU gradients and the Adam step still run as kernels.');
  out.push('- **What is left at the default size** (profiled in Node on wasm, 2026-12-05, after those kernels): the rollout\'s 12 turns take 8–9 ms, each a forward of 27 kernels (0.3–0.4 ms with its readback at about 100 decisions and 500 pairs, twice its arithmetic: a kernel\'s dispatch costs 3–5 µs in tfjs\'s engine) and 0.4 ms of the simulation\'s JS (features, Gumbel draws, packing the pairs, the env step, sampling). Over whole iterations under tf.profile (27 ms each with its own overhead), the kernels of our own took 12.5 ms an iteration, rollout and update together, and tfjs\'s remaining kernels about 3.6 ms (the loss\'s small ones among them, its log-softmax alone 80 µs); the other 11 ms are JS: the simulation, packing, tfjs\'s engine and tape bookkeeping around each kernel, and about 2 ms of garbage collection.');
  out.push('- **Kept from earlier rounds, each measured when it was made:** the update packs only the decisions that train into 64-row buckets (98 → 27 ms an epoch at the time); the scorer runs on the allowed (decision, tool) pairs only, gathered back into the logits (68.6 → 46.1 ms an iteration); the rollouts read back the logits once a turn and sample on the CPU; the loss is one op with its gradient written out; the tensors a gradient reads are kept rather than copied; Adam and the clip work on one flat vector (241 → 76 kernels an epoch); gatherND instead of gather (0.09 against 11 ms at 4352 × 64); no scatter anywhere (WebGL loops over every update for every output element).');
  out.push('- **Tried and dropped:** a forward kernel that unrolls k by four over weights repacked per call (0.73–0.75 against 0.59 ms at 2752 × 64 × 64, and 3–4 ms slower an iteration); the output layer\'s gradient through tfjs-wasm\'s own loop for a transposed operand (it sums in another order, so documented runs would no longer reproduce, for 2%); the first epoch reusing the rollout\'s activations (gathering them costs about what the forward it saves does); wasm threads (tfjs-wasm\'s threaded build fails inside Vite\'s module worker, and on two cores it would also double the floor\'s matmul rate). The matmul peak is the higher of two measurements, before and after the sizes: Chromium starts wasm on a baseline compiler (6–10 GMAC/s), 15 after tier-up.');
  out.push(`- **Batched against naive (a figure; its ≥ ${NAIVE_TARGET}× target on wasm is retired, for the bound below).** The naive loop runs the lab's own forward one decision at a time, so whatever makes a forward cheaper speeds it too: the forward kernel (fewer kernels a decision) took the naive rate in the quick bench from 8.7 k to 12.0 k decisions/s in Node and from 12.5 k to 17.9 k in Chromium, while the batched rollout at N = 1024 went from 141 k to 162 k and from 140 k to 173 k. The naive rate is also the noisiest figure here (5.5–14 k decisions/s in Node across this day's runs). A batched decision at N = 1024 costs about 6.2 µs in Node (profiled, 2026-12-05): 3.1 µs of forward and 3.0 µs of the simulation's JS (features 0.9, packing the pairs 0.6, Gumbel draws 0.5, the env step 0.5, sampling 0.3, masks and resets 0.3). The forward is near its arithmetic: alone, at 1024 decisions and 5312 pairs, it runs at 15.2 GMAC/s with its readback, most of it in the dense kernel at 18.4. A naive decision costs about 70 µs in Node and 46 µs in Chromium, the dispatch of 27 kernels and a readback. So even with the simulation's JS at zero, the forward alone would bound the speed-up near 22× in Node, and near 15–16× in Chromium, whose engine dispatches a kernel faster (taking Chromium's forward to cost what Node's does: not profiled there, but its whole batched decision, 5.3 µs, is close to Node's 5.9); ${NAIVE_TARGET}× in Chromium would need the forward below its arithmetic. On GPU backends, where one dispatch and readback cost milliseconds, the gap is what batching removes.`);
  out.push('');
  out.push(...chartsSection());
  if (soak) {
    out.push('## Soak (`npm run soak`, not part of CI)', '');
    out.push(`${soak.iterations} iterations at ${soak.size} in Node on wasm, ${soak.date.slice(0, 10)}; JS heap after a forced GC. ${soak.problems.length ? `**Failed**: ${soak.problems.join('; ')}.` : 'Passed: nothing grows from iteration 1,000 on (the check allows 10%).'}`, '');
    out.push('| iteration | tensors | JS heap MB | RSS MB | wasm heap MB | s |', '|---:|---:|---:|---:|---:|---:|');
    for (const r of soak.rows) out.push(`| ${r.iteration} | ${r.numTensors} | ${f(r.heapMB)} | ${f(r.rssMB)} | ${f(r.wasmHeapMB)} | ${f(r.seconds, 0)} |`);
    out.push('');
  }
  if (gpu) out.push(...gpuSection(gpu));
  else out.push('No real-GPU figures yet: run `scripts/real-gpu/` on a machine with a GPU (its README says how) and regenerate this page.', '');
  return `${out.join('\n')}\n`;
}
