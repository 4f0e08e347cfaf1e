// The page's handle on the worker: request/reply by id, with replies to superseded requests dropped.
// It also watches the worker: a worker that stops (self.close(), a crash) sends nothing and fires
// nothing, so every message counts as a sign of life (the worker says "alive" every HEARTBEAT_MS),
// and a silence past the limit — or a script that fails to load — ends this client: the worker is
// terminated, requests still waiting are refused with a WorkerStoppedError, and `onStopped` says why
// (the store then starts a worker afresh: store/workerWatch.ts). Pushes are handed on at most once a
// frame, together (one render of the page for a frame's metrics and status); a reply first hands on
// the pushes before it, so the order the worker sent them in holds.

import type { Push, Refusal, Reply, Request } from './protocol';

type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

/** A request that can no longer be answered: the worker stopped (the watch says why, once). */
export class WorkerStoppedError extends Error {}

/** A request the worker refused for a reason the page words itself (store/workerText.ts's errorText). */
export class RefusedError extends Error {
  constructor(message: string, readonly refusal: Refusal) {
    super(message);
  }
}

export interface WorkerWatchOptions {
  /** The silence after which an idle or training worker counts as stopped (ms). */
  silenceLimitMs: () => number;
  /** The worker stopped: why, in words. Called once. */
  onStopped: (reason: string) => void;
  /** The worker reported an error it did not handle (it may go on running): a sentence for the page. */
  onError?: (message: string) => void;
}

/** While a request waits for its answer, or before the worker's first word (tfjs loads), a silence: this long. */
export const BUSY_SILENCE_MS = 60_000;
const CHECK_EVERY_MS = 1000;
/** Pushes wait at most this long where no frame comes (a hidden tab draws none). */
const PUSH_WAIT_MS = 100;

export class LabWorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly pushListeners = new Set<(p: Push) => void>();
  private lastHeard = performance.now();
  private heard = false;
  private longestGap = 0;
  private stopped: string | null = null;
  private readonly timer: ReturnType<typeof setInterval> | null = null;
  /** Pushes not yet handed on, and whether a frame (or the fallback timer) will hand them on. */
  private queued: Push[] = [];
  private flushScheduled = false;

  constructor(private readonly watch?: WorkerWatchOptions) {
    this.worker = new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', (ev: MessageEvent<Reply | Push>) => {
      const now = performance.now();
      // A silence it came back from (a long sweep): a later one as long is no sign of death.
      if (this.heard) this.longestGap = Math.max(this.longestGap, now - this.lastHeard);
      this.lastHeard = now;
      this.heard = true;
      if (ev.data.id === 0) {
        if (ev.data.type === 'alive') return;
        this.queue(ev.data as Push);
        return;
      }
      this.flushPushes(); // what the worker pushed before this reply is on the page before the reply is
      const p = this.pending.get(ev.data.id);
      if (!p) return; // stale or cancelled
      this.pending.delete(ev.data.id);
      const reply = ev.data as Reply;
      if (reply.type !== 'error') p.resolve(reply);
      else p.reject(reply.refusal ? new RefusedError(reply.message, reply.refusal) : new Error(reply.message));
    });
    this.worker.addEventListener('error', (ev) => {
      const message = (ev as Partial<ErrorEvent>).message;
      // Before its first word the script itself did not load or run (the event then carries no message).
      if (!this.heard) return this.stop(`its script could not be loaded or run${message ? ` (${message})` : ''}`);
      const what = message ?? 'an error without a message';
      for (const p of this.pending.values()) p.reject(new Error(`the training worker failed: ${what}`));
      this.pending.clear();
      this.watch?.onError?.(`The training worker failed: ${what}.`);
    });
    if (watch) {
      this.timer = setInterval(() => {
        const silent = performance.now() - this.lastHeard;
        const usual = Math.max(watch.silenceLimitMs(), 3 * this.longestGap);
        const limit = this.pending.size > 0 || !this.heard ? Math.max(BUSY_SILENCE_MS, usual) : usual;
        const after = this.heard ? '' : ' after it was started';
        if (silent > limit) this.stop(`it gave no sign of life for ${Math.round(silent / 1000)} s${after}`);
      }, CHECK_EVERY_MS);
    }
  }

  private queue(p: Push): void {
    this.queued.push(p);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const flush = () => this.flushPushes();
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
    setTimeout(flush, PUSH_WAIT_MS);
  }

  /** Hands every queued push on, in order, in one task (the store's updates render once). */
  private flushPushes(): void {
    this.flushScheduled = false;
    if (!this.queued.length) return;
    const pushes = this.queued;
    this.queued = [];
    for (const p of pushes) for (const l of this.pushListeners) l(p);
  }

  /** Why this client's worker stopped, or null while it runs. */
  get stoppedBecause(): string | null {
    return this.stopped;
  }

  /** Ends the worker (once): waiting requests are refused, and the watch is told why. */
  stop(reason: string): void {
    if (this.stopped !== null) return;
    this.stopped = reason;
    if (this.timer) clearInterval(this.timer);
    this.worker.terminate();
    for (const p of this.pending.values()) p.reject(new WorkerStoppedError(`the training worker stopped: ${reason}`));
    this.pending.clear();
    this.watch?.onStopped(reason);
  }

  /** Registers a listener for the worker's pushes (metrics, status, trade-off); returns its remover. */
  onPush(l: (p: Push) => void): () => void {
    this.pushListeners.add(l);
    return () => this.pushListeners.delete(l);
  }

  request(body: Body<Request>, transfer: Transferable[] = []): Promise<Reply> {
    if (this.stopped !== null) {
      return Promise.reject(new WorkerStoppedError(`the training worker stopped: ${this.stopped}`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as Request, transfer);
    });
  }
}
