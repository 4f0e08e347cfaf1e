// The lab's long-lived module worker: owns tfjs, the backend and the training session, answers
// the page's requests, and while running pushes metrics as small batches at most 10 times a
// second. A run is identified by the page's run id; pause, reset or a new start ends it.

import { generateTasks } from '../core/sim/tasks';
import type { Push, Reply, Request, Tradeoff } from './protocol';
import { LabSession, toMetricPoint } from './session';
import { NonFiniteError } from '../core/policy/act';
import type { IterationMetrics } from '../core/grpo/metrics';

const session = new LabSession();
const post = (r: Reply | Push, transfer: Transferable[] = []): void => (self as unknown as Worker).postMessage(r, transfer);
const PUSH_INTERVAL_MS = 100;
/** A trade-off sweep at most every 4 s, and never more than a fifth of the time. */
const SWEEP_EVERY_MS = 4000;

let activeRun = 0;
let running = false;
let lastTradeoff: Tradeoff | null = null;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What to tell the user when an iteration could not run. */
function divergenceMessage(e: unknown): string {
  const msg = (e as Error)?.message ?? String(e);
  return e instanceof NonFiniteError ? `${msg}. The weights were left as they are; press Reset or import another policy.` : `The iteration failed: ${msg}`;
}

async function pushTradeoff(runId: number, sweep: boolean): Promise<void> {
  const s = session.settings;
  if (!s) return;
  lastTradeoff = await session.evaluate(s.preference, sweep, lastTradeoff);
  post({ id: 0, type: 'tradeoff', runId, tradeoff: lastTradeoff });
}

async function runLoop(runId: number): Promise<void> {
  running = true;
  activeRun = runId;
  let batch: ReturnType<typeof toMetricPoint>[] = [];
  let latest: IterationMetrics | null = null;
  let lastPush = performance.now(), lastSweep = performance.now(), sweepMs = 0;
  const started = performance.now(), startIt = session.iteration;
  const flush = () => {
    if (!latest) return;
    post({ id: 0, type: 'metrics', runId, points: batch, histogram: latest.advantageHistogram, group: latest.group });
    batch = [];
  };
  post({ id: 0, type: 'status', runId, running: true, iteration: session.iteration, itPerS: 0 });
  while (running && activeRun === runId) {
    let m: IterationMetrics;
    try {
      m = await session.step();
    } catch (e) {
      running = false;
      flush();
      post({ id: 0, type: 'status', runId, running: false, iteration: session.iteration, itPerS: 0, message: divergenceMessage(e) });
      return;
    }
    if (activeRun !== runId) break; // reset or restarted while this iteration ran
    latest = m;
    batch.push(toMetricPoint(m));
    const now = performance.now();
    const itPerS = (session.iteration - startIt) / ((now - started) / 1000);
    const stop = m.diverged ?? (m.collapsed ? `${m.collapsed}. Paused so the run does not wipe out the policy: "Restore best policy" puts back iteration ${session.safety.bestIteration}'s weights. Try a lower learning rate.` : undefined);
    if (stop) {
      running = false;
      flush();
      post({ id: 0, type: 'status', runId, running: false, iteration: session.iteration, itPerS, message: stop, ...session.safety });
      break;
    }
    if (now - lastPush >= PUSH_INTERVAL_MS) {
      flush();
      post({ id: 0, type: 'status', runId, running: true, iteration: session.iteration, itPerS, ...session.safety });
      lastPush = now;
    }
    if (now - lastSweep >= Math.max(SWEEP_EVERY_MS, 4 * sweepMs)) {
      const t = performance.now();
      await pushTradeoff(runId, true);
      lastSweep = performance.now();
      sweepMs = lastSweep - t;
    }
    await sleep(session.settings?.delayMs ?? 0); // yields to the message loop: pause and sliders get through
  }
  flush();
  if (activeRun === runId) {
    running = false;
    post({ id: 0, type: 'status', runId, running: false, iteration: session.iteration, itPerS: 0, ...session.safety });
    await pushTradeoff(runId, true);
  }
}

async function handle(req: Request): Promise<void> {
  switch (req.type) {
    case 'init':
      post({ id: req.id, type: 'ready', backend: await session.init(req.backend, req.probeSize, req.cachedProbe) });
      return;
    case 'configure': {
      const changed = await session.exclusive(async () => session.configure(req.settings));
      if (changed.includes('baselines') || changed.includes('policy')) lastTradeoff = null;
      post({ id: req.id, type: 'configured', changed });
      return;
    }
    case 'start':
      if (running && activeRun === req.runId) return post({ id: req.id, type: 'ok' });
      running = false;
      post({ id: req.id, type: 'ok' });
      await runLoop(req.runId);
      return;
    case 'pause':
      running = false;
      post({ id: req.id, type: 'ok' });
      return;
    case 'step': {
      running = false;
      activeRun = req.runId;
      let m: IterationMetrics;
      try {
        m = await session.step();
      } catch (e) {
        post({ id: 0, type: 'status', runId: req.runId, running: false, iteration: session.iteration, itPerS: 0, message: divergenceMessage(e) });
        post({ id: req.id, type: 'ok' });
        return;
      }
      post({ id: 0, type: 'metrics', runId: req.runId, points: [toMetricPoint(m)], histogram: m.advantageHistogram, group: m.group });
      post({ id: 0, type: 'status', runId: req.runId, running: false, iteration: session.iteration, itPerS: 0, ...session.safety, ...(m.diverged || m.collapsed ? { message: m.diverged ?? m.collapsed } : {}) });
      post({ id: req.id, type: 'stepped', point: toMetricPoint(m) });
      await pushTradeoff(req.runId, true);
      return;
    }
    case 'reset':
      running = false;
      activeRun = req.runId;
      await session.reset();
      lastTradeoff = null;
      post({ id: req.id, type: 'ok' });
      post({ id: 0, type: 'status', runId: req.runId, running: false, iteration: 0, itPerS: 0, ...session.safety });
      await pushTradeoff(req.runId, true);
      return;
    case 'restoreBest':
    case 'undo': {
      running = false;
      activeRun = req.runId;
      const r = req.type === 'undo' ? await session.undo() : await session.restoreBest();
      lastTradeoff = null;
      post({ id: req.id, type: 'restored', ...r });
      post({ id: 0, type: 'status', runId: req.runId, running: false, iteration: session.iteration, itPerS: 0, ...session.safety });
      await pushTradeoff(req.runId, true);
      return;
    }
    case 'evaluate': {
      const s = session.settings;
      if (!s) throw new Error('the lab is not configured yet');
      lastTradeoff = await session.evaluate(req.preference, req.sweep, lastTradeoff);
      post({ id: req.id, type: 'tradeoff', tradeoff: lastTradeoff });
      return;
    }
    case 'export': {
      const { json, weights } = await session.exportWeights();
      post({ id: req.id, type: 'exported', json, weights }, [weights]);
      return;
    }
    case 'import': {
      const r = await session.importWeights(req.json, req.weights);
      lastTradeoff = null;
      post({ id: req.id, type: 'imported', catalogName: r.catalog.name, note: `policy ${r.width}×${r.depth} trained on catalog "${r.catalog.name}"`, width: r.width, depth: r.depth });
      post({ id: 0, type: 'status', runId: activeRun, running, iteration: session.iteration, itPerS: 0, ...session.safety });
      return;
    }
    case 'setBackend':
      post({ id: req.id, type: 'ready', backend: await session.switchBackend(req.backend) });
      return;
    case 'chooseBackend':
      post({ id: req.id, type: 'ready', backend: await session.switchBackend({ auto: req.probeSize, ...(req.cachedProbe ? { cached: req.cachedProbe } : {}) }) });
      return;
    case 'probe':
      post({ id: req.id, type: 'probed', probabilities: await session.probe() });
      return;
    case 'paper':
      post({ id: req.id, type: 'paper', rows: await session.paperTable(req.preference, req.count), iteration: session.iteration, count: req.count });
      return;
    case 'generate': {
      const { tasks, stats } = generateTasks(req.catalog, { seed: req.seed, count: req.count, availability: req.availability });
      post({ id: req.id, type: 'tasks', tasks, stats });
      return;
    }
  }
}

self.addEventListener('message', (ev: MessageEvent<Request>) => {
  const req = ev.data;
  void handle(req).catch((e: unknown) => post({ id: req.id, type: 'error', message: (e as Error)?.message ?? String(e) }));
});
