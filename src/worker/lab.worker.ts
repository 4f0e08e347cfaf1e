// The lab's long-lived module worker: owns tfjs, the backend and the training session, answers the
// page's requests, and while running pushes metrics in small, rate-limited batches. A run is the
// page's run id; pause, reset or a new start ends it. Bursts of commands are coalesced (one run loop,
// at most one Step waiting, stale Steps and Resets skipped, the trade-off view re-evaluated once),
// and every change of what it is doing is pushed as `activity`. It says all this in codes and numbers
// (protocol.ts): the page writes the words.

import { generateTasks } from '../core/sim/tasks';
import { HEARTBEAT_MS, toMetricPoint } from './protocol';
import type { MetricPoint, Push, Reply, Request, RunNotice, RunStop, Tradeoff, WorkerActivity } from './protocol';
import { LabSession } from './session';
import { errorReply, failureStop, iterationStop } from './runStops';
import type { IterationMetrics } from '../core/grpo/metrics';
import { PHASE_NAMES } from '../core/grpo/phaseNames';
import { encodePolicyParam, encodeShareFile, minPolicyParamChars } from '../core/io/shareBundle';
import { RateMeter } from './rateMeter';
import { weightsCopier } from './weightsCopy';

const session = new LabSession();
const post = (r: Reply | Push, transfer: Transferable[] = []): void => (self as unknown as Worker).postMessage(r, transfer);
// The page's watch (store/workerWatch.ts): a sign of life every second, and a copy of the policy
// that a worker started afresh goes on from.
setInterval(() => post({ id: 0, type: 'alive' }), HEARTBEAT_MS);
const copyWeights = weightsCopier(session, post);
const PUSH_INTERVAL_MS = 250;
/** A trade-off sweep at most every 4 s, and never more than a fifth of the time. */
const SWEEP_EVERY_MS = 4000;

let lastTradeoff: Tradeoff | null = null;
/**
 * The run loop's state, in one place. `run`: the page's run the worker is on; `running`: a Start's
 * loop goes on; `gen`: each Start, Pause, Step or Reset takes a new generation, and a loop of an
 * old one stops (no two loops at once); `steps`: Steps in flight or waiting (at most MAX_STEPS);
 * `inLoop`: loops still inside their body (a paused loop finishes its iteration first);
 * `evaluating`: trade-off evaluations in flight; `switches`: backend switches so far (a running
 * loop's speed starts afresh after one, rateMeter.ts). Slow motion's open iteration is the session's.
 */
const loop = { run: 0, running: false, gen: 0, steps: 0, inLoop: 0, evaluating: 0, switches: 0 };

/** What the worker is doing, as the run loop's state says it. */
function loopState(): 'running' | 'stepping' | 'slow motion' | 'busy' | 'idle' {
  if (loop.running) return 'running';
  if (loop.steps > 0) return 'stepping';
  if (loop.inLoop > 0 || loop.evaluating > 0 || tradeoffTimer) return 'busy';
  return session.slowMotionPhase > 0 ? 'slow motion' : 'idle';
}
const MAX_STEPS = 2;
let tradeoffTimer: ReturnType<typeof setTimeout> | null = null;
/** After a burst of Steps or Resets, one trade-off evaluation once 250 ms pass without another. */
const TRADEOFF_DEBOUNCE_MS = 250;

/**
 * The one status post: whether the run goes on, its speed, and what the page's buttons need (the
 * lab's iteration, the best kept and what Undo brings back); `extra` adds why it stopped or a
 * pause's notice (or another iteration, after a Reset).
 */
function postStatus(runId: number, goesOn: boolean, itPerS: number,
  extra: { stop?: RunStop; notice?: RunNotice; iteration?: number } = {}): void {
  post({ id: 0, type: 'status', runId, running: goesOn, iteration: session.iteration, itPerS, ...session.safety, ...extra });
}

function activity(code: Exclude<WorkerActivity['code'], 'slowMotion'>): void {
  post({ id: 0, type: 'activity', activity: { code } });
}

/** An iteration's point (or a batch of them) for the page's charts, with the latest advantages and group. */
function postMetrics(runId: number, points: MetricPoint[], m: IterationMetrics): void {
  post({ id: 0, type: 'metrics', runId, points, histogram: m.advantageHistogram, group: m.group });
}


/** Says "idle" only when nothing at all is left to do. */
function maybeIdle(): void {
  const state = loopState();
  if (state === 'idle' || state === 'slow motion') activity('idle');
}

function tradeoffSoon(runId: number): void {
  if (tradeoffTimer) clearTimeout(tradeoffTimer);
  tradeoffTimer = setTimeout(() => {
    tradeoffTimer = null;
    if (runId !== loop.run || loop.running) return maybeIdle();
    activity('evaluating');
    loop.evaluating++;
    void pushTradeoff(runId, true).catch(() => undefined).finally(() => { loop.evaluating--; maybeIdle(); });
  }, TRADEOFF_DEBOUNCE_MS);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function pushTradeoff(runId: number, sweep: boolean): Promise<void> {
  const s = session.settings;
  if (!s) return;
  lastTradeoff = await session.evaluate(s.train.preference, sweep, lastTradeoff);
  post({ id: 0, type: 'tradeoff', runId, tradeoff: lastTradeoff });
}

async function runLoop(runId: number): Promise<void> {
  loop.running = true;
  loop.run = runId;
  const gen = ++loop.gen;
  activity('training');
  loop.inLoop++;
  try {
    await loopBody(runId, gen);
  } finally {
    loop.inLoop--;
    maybeIdle();
  }
}

/** Where the learning-rate schedule has reached 0 (session.scheduleEnded). */
const scheduleEnd = (): RunNotice => ({ code: 'lrEnded',
  end: session.settings?.train.lrDecay?.end ?? session.iteration });

/** The notice for a status after an iteration, once the schedule has ended (a Step or slow motion past it runs at rate 0). */
const scheduleNote = (): { notice?: RunNotice } => (session.scheduleEnded() ? { notice: scheduleEnd() } : {});

async function loopBody(runId: number, gen: number): Promise<void> {
  let batch: ReturnType<typeof toMetricPoint>[] = [];
  let latest: IterationMetrics | null = null;
  let lastPush = performance.now(), lastSweep = performance.now(), sweepMs = 0;
  const started = performance.now(), startIt = session.iteration;
  const rate = new RateMeter();
  rate.reset(started, startIt);
  let switchesSeen = loop.switches;
  const flush = () => {
    if (!latest) return;
    postMetrics(runId, batch, latest);
    batch = [];
  };
  postStatus(runId, true, 0);
  while (loop.running && loop.run === runId && gen === loop.gen) {
    if (session.scheduleEnded()) {
      // The learning rate is 0 from here on: an iteration would spend time and change nothing.
      loop.running = false;
      flush();
      const done = session.iteration - startIt, itPerS = done > 0 ? done / ((performance.now() - started) / 1000) : 0;
      postStatus(runId, false, itPerS, { notice: scheduleEnd() });
      break;
    }
    let m: IterationMetrics;
    try {
      m = (await session.step()) as IterationMetrics;
    } catch (e) {
      loop.running = false;
      flush();
      postStatus(runId, false, 0, { stop: failureStop(e) });
      return;
    }
    // It happened, so it is reported (below), under its own run even when a Pause, Reset, Restore or
    // Undo came while it ran: the page keeps it when the new run carries on the charts (Restore,
    // Undo) and drops it after a Reset.
    latest = m;
    batch.push(toMetricPoint(m));
    if (gen !== loop.gen || loop.run !== runId) break;
    const now = performance.now();
    if (switchesSeen !== loop.switches) {
      switchesSeen = loop.switches;
      rate.reset(now, session.iteration); // the speed of the backend switched to, not a blend
    }
    const itPerS = rate.sample(now, session.iteration);
    const stop = iterationStop(m, session.safety.bestIteration);
    if (stop.stop) {
      loop.running = false;
      flush();
      postStatus(runId, false, itPerS, stop);
      break;
    }
    if (now - lastPush >= PUSH_INTERVAL_MS) {
      flush();
      postStatus(runId, true, itPerS);
      lastPush = now;
      void copyWeights(false);
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
  if (loop.run !== runId) return;
  if (gen === loop.gen) loop.running = false;
  // The page learns the iteration the loop really reached, even when a Pause ended it mid-iteration.
  postStatus(runId, loop.running, 0);
  void copyWeights(true);
  if (!loop.running) tradeoffSoon(runId);
}

/** Ends an open slow-motion iteration before a Step, Start or Reset; one that had updated is charted. */
async function closePhases(runId: number): Promise<void> {
  if (session.slowMotionPhase === 0) return;
  const m = await session.exclusive(async () => session.closeSlowMotion());
  if (m) postMetrics(runId, [toMetricPoint(m)], m);
}

async function handle(req: Request): Promise<void> {
  switch (req.type) {
    case 'phase': {
      loop.running = false;
      loop.gen++;
      loop.run = req.runId;
      const phase = session.slowMotionPhase + 1;
      post({ id: 0, type: 'activity', activity: { code: 'slowMotion', phase, of: PHASE_NAMES.length } });
      try {
        // An iteration opened past the schedule's end updates at rate 0: say so before its phases are followed.
        const opensPastEnd = phase === 1 && session.scheduleEnded();
        const { report, metrics } = await session.nextPhase();
        if (metrics) {
          postMetrics(req.runId, [toMetricPoint(metrics)], metrics);
          postStatus(req.runId, false, 0, { ...scheduleNote(), ...iterationStop(metrics) });
          void copyWeights(true);
          tradeoffSoon(req.runId);
        } else if (opensPastEnd) {
          postStatus(req.runId, false, 0, { notice: scheduleEnd() });
        }
        post({ id: req.id, type: 'phase', report, done: metrics !== null });
      } finally {
        maybeIdle();
      }
      return;
    }
    case 'closePhases':
      await closePhases(req.runId);
      postStatus(req.runId, loop.running, 0);
      post({ id: req.id, type: 'ok' });
      return;
    case 'init':
      post({ id: req.id, type: 'ready', backend: await session.init(req.backend, req.probeSize, req.cachedProbe) });
      maybeIdle();
      return;
    case 'configure': {
      const changed = await session.exclusive(async () => session.configure(req.settings));
      const closed = session.takeClosedMetrics(); // a slow-motion iteration the new settings closed after its update
      if (closed) postMetrics(loop.run, [toMetricPoint(closed)], closed);
      if (changed.includes('baselines') || changed.includes('policy')) lastTradeoff = null;
      post({ id: req.id, type: 'configured', changed, ...session.safety });
      if (changed.includes('policy')) void copyWeights(true);
      return;
    }
    case 'start': {
      if (loop.running && loop.run === req.runId) return post({ id: req.id, type: 'ok' });
      loop.running = false;
      const gen = loop.gen;
      await closePhases(req.runId);
      // A Pause, Reset or phase request handled while the slow-motion iteration closed wins over this Start.
      if (gen !== loop.gen || req.runId < loop.run) return post({ id: req.id, type: 'ok' });
      post({ id: req.id, type: 'ok' });
      await runLoop(req.runId);
      return;
    }
    case 'pause':
      loop.running = false;
      loop.gen++;
      post({ id: req.id, type: 'ok' });
      if (loop.inLoop > 0) activity('finishing');
      maybeIdle();
      return;
    case 'step': {
      loop.running = false;
      loop.gen++;
      if (loop.steps >= MAX_STEPS) return post({ id: req.id, type: 'ok' }); // a burst: one in flight, one waiting, the rest dropped
      if (req.runId < loop.run) return post({ id: req.id, type: 'ok' }); // from a run that was reset
      loop.steps++;
      loop.run = req.runId;
      await closePhases(req.runId);
      activity('stepping');
      try {
        let m: IterationMetrics | null;
        try {
          m = await session.step(() => req.runId === loop.run && !loop.running); // a Reset or a Start while it waited: skip it
        } catch (e) {
          postStatus(req.runId, false, 0, { stop: failureStop(e) });
          post({ id: req.id, type: 'ok' });
          return;
        }
        if (!m) return post({ id: req.id, type: 'ok' });
        postMetrics(req.runId, [toMetricPoint(m)], m);
        postStatus(req.runId, false, 0, { ...scheduleNote(), ...iterationStop(m) });
        post({ id: req.id, type: 'stepped', point: toMetricPoint(m) });
        void copyWeights(true);
        tradeoffSoon(req.runId);
      } finally {
        loop.steps--;
        maybeIdle();
      }
      return;
    }
    case 'reset': {
      loop.running = false;
      loop.gen++;
      loop.run = req.runId;
      activity('resetting');
      const { kept } = await session.reset();
      lastTradeoff = null;
      post({ id: req.id, type: 'resetDone', kept });
      void copyWeights(true);
      postStatus(req.runId, false, 0, { iteration: 0 });
      tradeoffSoon(req.runId);
      return;
    }
    case 'restoreBest':
    case 'undo': {
      loop.running = false;
      // The page has moved to this request's run and keeps its charts: a slow-motion iteration
      // closed here after its update is charted there.
      loop.run = req.runId;
      await closePhases(req.runId);
      const r = req.type === 'undo' ? await session.undo() : await session.restoreBest();
      lastTradeoff = null;
      post({ id: req.id, type: 'restored', ...r });
      void copyWeights(true);
      postStatus(req.runId, false, 0);
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
    case 'sharePolicy': {
      // Encoded here, not on the page: a 512×8 policy's file takes 0.7 s and its link 0.3 s (Node, measured).
      activity('encoding');
      try {
        const { json, weights } = await session.exportWeights();
        const bytes = new Uint8Array(weights), floats = bytes.length / 4;
        const param = minPolicyParamChars(floats) <= req.linkBudget ? encodePolicyParam(json, bytes) : null;
        post({ id: req.id, type: 'shared', file: encodeShareFile(req.settings, json, bytes), param, floats });
      } finally {
        if (loop.running) activity('training'); // shared during a run: the run goes on
        else maybeIdle();
      }
      return;
    }
    case 'import': {
      await closePhases(loop.run);
      const r = await session.importWeights(req.json, req.weights, req.replacedBy, req.resumeAt);
      void copyWeights(true);
      lastTradeoff = null;
      // The page starts a new run for the imported policy once it has this reply: the status below goes
      // under the run before, so what the buttons need travels here too.
      post({ id: req.id, type: 'imported', catalogName: r.catalog.name, recordedIterations: r.recordedIterations,
        width: r.width, depth: r.depth, kept: r.kept, ...session.safety });
      postStatus(loop.run, loop.running, 0);
      return;
    }
    case 'setBackend':
    case 'chooseBackend': {
      await closePhases(loop.run);
      const backend = await session.switchBackend(req.type === 'setBackend' ? req.backend : { auto: req.probeSize,
        ...(req.cachedProbe ? { cached: req.cachedProbe } : {}) });
      loop.switches++;
      post({ id: req.id, type: 'ready', backend });
      // What the page shows of the policy after the switch (its iteration, Undo and Restore best, which
      // moved to the host and back during it), whatever a status posted mid-switch said.
      postStatus(loop.run, loop.running, 0);
      return;
    }
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
  void handle(req).catch((e: unknown) => post(errorReply(req.id, e)));
});
