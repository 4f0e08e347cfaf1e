// docs/BENCHMARKS.md from a bench run (scripts/bench.ts): every figure in it comes from the JSON.

import type { BenchReport, BenchRow } from '../src/core/bench/trainBench';

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

export interface BenchDoc { plan: string; date: string; machine: string; totalS: number; runs: BenchRun[] }

const FLOOR_TARGET = 3;
const NAIVE_TARGET = 20;
const f = (x: number | undefined | null, d = 1) => (x === undefined || x === null || !Number.isFinite(x) ? '—' : x.toFixed(d));
const name = (r: BenchRun) => `${r.where === 'node' ? 'Node' : 'Chromium'} ${r.backend}${r.software && r.backend === 'webgpu' ? ' (software adapter)' : ''}`;

function row(r: BenchRun, x: BenchRow): string {
  if (x.status === 'skipped') return `| ${name(r)} | ${x.width} | ${x.episodes} | skipped: ${x.note} | | | | | |`;
  const ratio = x.ratioToFlopFloor as number;
  return `| ${name(r)} | ${x.width} | ${x.episodes} | ${f(x.iterationMs)} | ${f(x.rolloutDecisionsPerS, 0)} | ${f(x.flopFloorMs)} | ${f(ratio, 2)}${x.width === 64 && x.episodes === 128 ? (ratio <= FLOOR_TARGET ? ' ✓' : ' ✗ (target ≤ 3)') : ''} | ${f(x.ratioToDenseFloor, 2)} | ${f(x.readbacksPerTurn, 2)} |`;
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
  out.push('| where, backend | width | N | ms / iteration | decisions/s | floor ms | ratio to floor | every tool scored | readbacks/turn |', '|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of doc.runs) {
    if (!r.report) { out.push(`| ${name(r)} | | | ${r.status}: ${r.message ?? ''} | | | | | |`); continue; }
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
    out.push(`| ${name(r)} | ${f(rep.matmulGmacPerS, 2)} | ${f(n?.decisionsPerS, 0)} | ${n?.batchedDecisionsPerS ? `${f(n.batchedDecisionsPerS, 0)} (${n.episodes})` : '—'} | ${sp && n?.episodes === 1024 ? `${f(sp, 0)}× ${sp >= NAIVE_TARGET ? '✓' : `✗ (target ≥ ${NAIVE_TARGET}×)`}` : sp ? `${f(sp, 0)}× (N = 1024 not measured)` : '—'} | ${mem} | ${gpu} | ${r.longestTaskMs === null ? 'n/a (Node)' : r.longestTaskMs === 0 ? 'none ≥ 50 ms' : `${f(r.longestTaskMs, 0)} ms`} |`);
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
  out.push(`## Real-GPU figures: ${g.machine.split(';')[0]}`, '');
  out.push(`Measured on ${g.date.slice(0, 10)} with \`scripts/real-gpu/\` (its README says how): the built lab and a carried Chromium on a machine with ${g.machine}, WebGPU and WebGL on the GPU through Vulkan (flags \`${g.flags.join(' ')}\`), ${g.plan} plan, ${f(g.totalS, 0)} s. wasm runs on that machine's CPU, one thread. These are real-GPU figures; everything above is this project's 2-core machine with no GPU.`, '');
  out.push(...tables(g, '###'));
  out.push('', `**Where WebGPU overtakes wasm on this GPU.** ${overtakes(g)}`, '');
  const gpuRows = (doc: BenchDoc) => doc.runs.find((r) => r.backend === 'webgpu')?.report?.rows.filter((x) => x.status === 'ok') ?? [];
  const at = (doc: BenchDoc, w: number, n: number) => gpuRows(doc).find((x) => x.width === w && x.episodes === n)?.iterationMs;
  const upTo1024 = gpuRows(g).filter((x) => x.episodes <= 1024).map((x) => x.iterationMs as number);
  const floors = gpuRows(g).filter((x) => x.episodes <= 1024).map((x) => x.flopFloorMs as number);
  const peaks = [g, ...(g.followUp ? [g.followUp] : [])].flatMap((d) => d.runs.filter((r) => r.backend === 'webgpu' && r.report).map((r) => r.report?.matmulGmacPerS as number));
  if (upTo1024.length) {
    out.push(`**Why WebGPU is slow at the default size even on this GPU.** Its iteration hardly grows with the work: ${f(Math.min(...upTo1024), 0)}–${f(Math.max(...upTo1024), 0)} ms at every width up to N = 1024, while their arithmetic floor spans ${f(Math.max(...floors) / Math.min(...floors), 0)}-fold. An iteration at the default size is about 1,600 small kernels (counted in Node) and 13 readbacks, so ${f(at(g, 64, 128), 0)} ms is about ${f((at(g, 64, 128) ?? NaN) / 1600, 2)} ms a kernel: tfjs-webgpu records a bind group and uniforms for every op and Chromium relays each to its GPU process, and the GPU waits on that, not on arithmetic. Its matmul peak, taken on a 512³ product, is likewise a latency figure (${f(Math.min(...peaks), 0)}–${f(Math.max(...peaks), 0)} GMAC/s over the runs), far below what the H200 does on large products; the floor ratios of WebGPU rows are against that figure. WebGL on ANGLE over Vulkan is slower still: seconds an iteration.`, '');
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

export function benchMarkdown(doc: BenchDoc, soak?: SoakDoc, gpu?: GpuBenchDoc): string {
  const out: string[] = [];
  out.push('# Benchmarks', '');
  out.push(`Generated by \`npm run bench\` (scripts/bench.ts) on ${doc.date.slice(0, 10)}, ${doc.machine}, in ${f(doc.totalS, 0)} s (${doc.plan} plan). The raw figures are in [benchmarks.json](benchmarks.json). Every row is one backend at one policy width × N = B·G episodes (G = 8), default settings otherwise (T = 12, μ = 2, depth 2); ms per iteration is the mean of at least two iterations after a warm-up (up to 5 iterations or 1 s; one where an iteration takes longer).`, '');
  out.push('- **ratio to floor**: the iteration\'s time over its arithmetic floor — the multiply-adds of its useful work (rollout forwards of live episodes; forward + backward over the decisions that train, μ epochs; each decision scoring only the tools its mask allows) divided by the backend\'s own matmul throughput, measured on a 512³ matmul in the same run (`src/core/bench/floor.ts`). Target ≤ 3 at the default size (width 64, N = 128).');
  out.push('- **every tool scored**: the ratio to the floor as it was first defined, which counts a score for every tool of a decision, masked ones too. The scorer used to compute those; since it runs on the allowed pairs only (`src/core/policy/pairs.ts`, 55–57% of them at the default size), that count is no longer a floor, and this column is there to compare with figures measured before.');
  out.push('- **decisions/s**: decisions of live episodes per second of rollout time. **readbacks/turn**: `data()` calls per rollout turn (the update adds one per iteration, not counted).');
  out.push(`- **naive**: the same policy driven one episode at a time, one forward and one read per decision (the tfjs policy-gradient example's way), measured in the same run; the speed-up is the batched rollout's decisions/s at N = 1024 over it. Target ≥ ${NAIVE_TARGET}×.`, '');
  out.push(...tables(doc));
  out.push('', '## Where WebGPU overtakes wasm', '', overtakes(doc), '');
  out.push('## Why a target is missed where it is', '');
  out.push('- **Ratio to floor at width 64** (profiled in Node on wasm at the default size, 2026-12-05, after this round\'s changes): an iteration is about 9.5 ms of rollouts (12 turns, arithmetic floor 2.6 ms) and 2 epochs of the update (floor about 5 ms each at the profiled iterations\' P ≈ 5000 pairs), 522 kernels for the update where there were 698. In a turn, the forward (about 38 kernels) measured 0.53–0.57 ms alone at 96 live decisions, where its multiply-adds take about 0.33 ms, and the simulation\'s JS (features, packing the pairs 0.06 ms, the env step) the rest. An epoch is now mostly its matmuls and the passes they need: tfjs-wasm repacks a matmul\'s right operand for XNNPACK whenever it is a new tensor, and a weight gradient multiplies two activations of P × 64 (P ≈ 5000 pairs in the profiled iterations), one of which must be transposed (wasm\'s matmul with a transpose flag is not XNNPACK\'s: 17 ms at P = 5120, where the same product takes 1.3 ms untransposed with its right operand packed and 2.4 ms with a fresh one) and the other repacked, so the hidden layer\'s weight gradient takes about 2.1 ms where its multiply-adds take 1.2 ms, and three transposes of P × 64 took 0.4–0.5 ms each (0.2–0.25 ms since this session, below); the ReLU gradients about 0.5 ms; the small kernels of the loss, clipping and Adam the rest. The ratio falls with width (rows at 128 and 256), where the multiply-adds outgrow the passes. Counting a score for every tool, masked ones too (the floor as first defined, the column beside it), the same iterations stand at about 2–2.4. This session (the fifth of 2026-12-05; the table above came on a slow spell of this machine — its width-256 rows, whose time is the matmuls this session did not touch, ran 13–19% slower than the previous session\'s table, and the default size 38.7 → 47.5 ms — so the session\'s effect is measured by bench-train, iterations 6–45, alternating with the previous commit, eight runs each: iteration median 41.85 → 40.8 ms, ratioToFlopFloor median 3.32 → 3.25, the same decisions trained, so the same training for a seed): an activation is transposed as [P, 4, 16] → [4, 16, P], since tfjs-wasm\'s rank-2 transpose takes twice as long as that rank-3 permutation of the same data (487 against 232 µs at P = 2816, fresh tensors); the pairs\' full inputs for the first layer\'s gradient are put together on the device (a gather and a concat) instead of 200 k floats copied in JS (1.1–1.4 ms an update); the update\'s per-decision columns are copied with index loops instead of a subarray view per row (measured alone: 31–33 against 2–3 µs a column of 700 rows, five columns an update). Tried this session and not kept: an output layer\'s one-column weight gradient through tfjs-wasm\'s own loop for a transposed left operand, which needs no transpose of the activation (683 → 229 µs at P = 2816, about 0.9 ms an iteration) — it sums in another order, so training for a seed no longer reproduces the documented runs (headline seeds 1–3: +0.5, +1.6, +1.0 points against +1.8, +1.9, +1.0; all three still within the bounds), and 2% was not worth re-measuring every seed; the forward\'s one-column layer as a multiply and a row sum (slower). The previous round, in alternating runs of bench-train against the code before it (four runs each): the loss is one op whose gradient with respect to the logits is written out (the tape recorded ~35 small ops an epoch and copied every tensor each one saved), the activations the gradients read are kept instead of copied (`stash` in `src/core/policy/dense.ts`: tfjs\'s customGrad copies what it saves, 0.7 ms an iteration here), and Adam\'s step reaches the weights through one split: the update 33.4–35.2 → 29.9–30.6 ms, ratioToFlopFloor 3.41–3.54 → 3.23–3.29 over iterations 6–45 (earlier the same day, on a faster spell of this machine, 3.39–3.58 → 3.09–3.30); over the first iterations of a fresh trainer, which this table times, the update trains fewer decisions and the ratio is higher (3.78 above; 3.49 in a bench-train run of iterations 6–25). The round before: Adam and the global-norm clip over all weights as one flat vector (241 → 76 kernels, 1.23 → 0.48 ms an epoch), every weight gradient as xᵀ·dz (the output layer\'s 1.4 → 0.35 ms: dzᵀ·x had XNNPACK repack the P × 64 activation), and the first layer\'s gradient as (dzᵀ·X)ᵀ, where X holds each pair\'s constant inputs and is packed once for μ epochs (1.45 → 0.94 ms alone). What is left to reach 3 is mostly those passes (about 3 ms an iteration) and the rollout\'s dispatch: tfjs 4.22\'s wasm backend has no kernel that multiplies a transposed operand without a copy, so the next step would be a kernel of our own. Tried and dropped: packing each pair\'s inputs with index loops instead of typed-array copies (slower: 1.0 → 1.25 ms a batch); the first epoch reusing the rollout\'s forward (its weights are the same) instead of recomputing it, measured in parts (2026-12-05, Node wasm, P = 5760 pairs): the forward it would save takes 3.3–3.6 ms, and gathering the same activations out of the 12 turns\' kept tensors (concatenations of at most four inputs, as WebGPU needs, then gatherND) 2.5–3.3 ms — about 1 ms an iteration at best, not worth holding every turn\'s activations across the phases; a rollout forward without the layers\' customGrad wrappers (655 → 642 µs a turn, medians of 1500 alternating calls); wasm threads (served cross-origin isolated, tfjs-wasm\'s threaded build fails inside Vite\'s module worker with "e is not defined": its pthreads need the unbundled script). The peak is the higher of two measurements, before and after the sizes: Chromium runs wasm on a baseline compiler first and measured 6–10 GMAC/s at the start, 15 after tier-up.');
  out.push('- **Batched against naive on wasm and cpu**: the naive way pays one forward of ~15 kernels and one read per decision, about 0.1 ms on Node wasm and 0.08 ms on Chromium wasm; whatever makes a decision cheaper helps it too (the sampling moved to the CPU, masked tools are neither scored nor encoded). The batched rollout at N = 1024 spends about 6.5 µs a decision in Node (profiled, wasm, in an earlier round; re-profiled on 2026-12-05 at 7.5 µs: 60% the forward, whose GEMMs run near the matmul peak, 40% the simulation\'s JS): the forward 3.8 µs, of which its arithmetic floor is 2.7 µs and the rest its element-wise passes (the gather, add and ReLU of the first layer, placing the scores: about 0.8 µs); the simulation\'s own JS 2.5 µs (Gumbel draws 0.4, features 0.65, packing the pairs 0.5, the env step 0.4, sampling 0.2, masks and resets 0.3). 20× would need the whole batched decision at 5 µs in Node, 3.4 µs in Chromium. On GPU backends, where one dispatch and readback cost milliseconds, the gap is what batching removes.');
  out.push('');
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
