// The page's handle on the worker: request/reply by id, with replies to superseded requests dropped.

import type { Reply, Request } from './protocol';

type Pending = { resolve: (r: Reply) => void; reject: (e: Error) => void };
type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

export class LabWorkerClient {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor() {
    this.worker = new Worker(new URL('./lab.worker.ts', import.meta.url), { type: 'module' });
    this.worker.addEventListener('message', (ev: MessageEvent<Reply>) => {
      const p = this.pending.get(ev.data.id);
      if (!p) return; // stale or cancelled
      this.pending.delete(ev.data.id);
      if (ev.data.type === 'error') p.reject(new Error(ev.data.message));
      else p.resolve(ev.data);
    });
    this.worker.addEventListener('error', (ev) => {
      for (const p of this.pending.values()) p.reject(new Error(`worker failed: ${ev.message}`));
      this.pending.clear();
    });
  }

  request(body: Body<Request>): Promise<Reply> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } as Request);
    });
  }
}
