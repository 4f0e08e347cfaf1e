// The page's handle on the worker: request/reply by id, with replies to superseded requests dropped.

import type { Push, Reply, Request } from './protocol';

type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

export class LabWorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly pushListeners = new Set<(p: Push) => void>();

  constructor() {
    this.worker = new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', (ev: MessageEvent<Reply | Push>) => {
      if (ev.data.id === 0) {
        for (const l of this.pushListeners) l(ev.data as Push);
        return;
      }
      const p = this.pending.get(ev.data.id);
      if (!p) return; // stale or cancelled
      this.pending.delete(ev.data.id);
      const reply = ev.data as Reply;
      if (reply.type === 'error') p.reject(new Error(reply.message));
      else p.resolve(reply);
    });
    this.worker.addEventListener('error', (ev) => {
      for (const p of this.pending.values()) p.reject(new Error(`worker failed: ${ev.message}`));
      this.pending.clear();
    });
  }

  /** Registers a listener for the worker's pushes (metrics, status, trade-off); returns its remover. */
  onPush(l: (p: Push) => void): () => void {
    this.pushListeners.add(l);
    return () => this.pushListeners.delete(l);
  }

  request(body: Body<Request>, transfer: Transferable[] = []): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as Request, transfer);
    });
  }
}
