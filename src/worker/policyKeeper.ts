// What the lab keeps so that no click loses a policy: the best snapshot of the current run, with
// the collapse guard that decides when to offer it back (core/lab/collapseGuard.ts), and one undo
// step for Reset, imports and new networks. Snapshots are device-side copies (no readback while training).

import * as tf from '@tensorflow/tfjs-core';
import { CollapseGuard } from '../core/lab/collapseGuard';
import type { PolicyNetwork } from '../core/policy/network';
import type { PolicyConfig } from '../core/policy/policyConfig';
import type { Collapse } from '../core/lab/collapseGuard';
import type { KeptPolicy, Replacement, UndoLabel } from './protocol';

export interface Kept<Label extends KeptPolicy = KeptPolicy> {
  weights: tf.NamedTensorMap;
  policy: PolicyConfig;
  iteration: number;
  label: Label;
  /** The lab's seed when an undo snapshot was taken (an imported network's own seed can differ). */
  labSeed?: number;
}

/** A kept policy whose weights are on the CPU (see PolicyKeeper.toHost). */
export interface HostKept<Label extends KeptPolicy = KeptPolicy> extends Omit<Kept<Label>, 'weights'> {
  weights: Record<string, { shape: number[]; values: Float32Array }>;
}
export interface HostSnapshots { best: HostKept | null; undo: HostKept<UndoLabel> | null }

export class PolicyKeeper {
  private readonly guard = new CollapseGuard();
  private best: Kept | null = null;
  private undoState: Kept<UndoLabel> | null = null;

  get bestIteration(): number | null {
    return this.best?.iteration ?? null;
  }

  get undoLabel(): UndoLabel | null {
    return this.undoState?.label ?? null;
  }

  /**
   * After an iteration. `before` holds the weights the iteration started from — the policy whose
   * rollouts earned its reward — and is kept when the smoothed reward is the best yet (else
   * disposed). Returns the collapse, if any.
   */
  observe(before: tf.NamedTensorMap, policy: PolicyConfig, iteration: number, meanReward: number,
    entropy: number): Collapse | undefined {
    const v = this.guard.observe(iteration, meanReward, entropy);
    if (v.best) {
      if (this.best) tf.dispose(Object.values(this.best.weights));
      this.best = { weights: before, policy, iteration, label: { code: 'best', iteration } };
    } else tf.dispose(Object.values(before));
    return v.collapsed;
  }

  /** The best snapshot (still kept here, so it can be restored again). */
  bestSnapshot(): Kept | null {
    return this.best;
  }

  /**
   * Remembers the policy about to be replaced by a Reset, an import or a new network, with the lab's seed then
   * (one step; the previous undo is dropped).
   */
  saveUndo(net: PolicyNetwork, iteration: number, replacedBy: Replacement, labSeed: number): void {
    if (this.undoState) tf.dispose(Object.values(this.undoState.weights));
    this.undoState = { weights: net.snapshot(), policy: net.config, iteration,
      label: { code: 'before', replacedBy, iteration }, labSeed };
  }

  /** Hands the undo snapshot over (the caller disposes its weights). */
  takeUndo(): Kept<UndoLabel> | null {
    const u = this.undoState;
    this.undoState = null;
    return u;
  }

  /**
   * The best and undo snapshots read to the CPU and dropped from the device, to outlive a backend
   * switch (fromHost puts them back on the new one; the collapse guard's history stays).
   */
  async toHost(): Promise<HostSnapshots> {
    const read = async <L extends KeptPolicy>(k: Kept<L> | null): Promise<HostKept<L> | null> => {
      if (!k) return null;
      const weights: HostKept['weights'] = {};
      for (const [name, t] of Object.entries(k.weights)) weights[name] = { shape: t.shape, values: (await t.data()) as Float32Array };
      return { ...k, weights };
    };
    const host = { best: await read(this.best), undo: await read(this.undoState) };
    for (const k of [this.best, this.undoState]) if (k) tf.dispose(Object.values(k.weights));
    this.best = this.undoState = null;
    return host;
  }

  /** Puts snapshots read by toHost() back, on the backend in use now. */
  fromHost(h: HostSnapshots): void {
    const put = <L extends KeptPolicy>(k: HostKept<L> | null): Kept<L> | null => {
      if (!k) return null;
      const weights: tf.NamedTensorMap = {};
      for (const [name, w] of Object.entries(k.weights)) weights[name] = tf.tensor(w.values, w.shape, 'float32');
      return { ...k, weights };
    };
    this.best = put(h.best);
    this.undoState = put(h.undo);
  }

  /** A new run starts (reset, import, restore, new policy shape): the best and the guard's history go. */
  newRun(): void {
    if (this.best) tf.dispose(Object.values(this.best.weights));
    this.best = null;
    this.guard.reset();
  }
}

export function clearKeeper(k: PolicyKeeper): void {
  k.newRun();
  const u = k.takeUndo();
  if (u) tf.dispose(Object.values(u.weights));
}
