// The collapse guard: a run whose update stays finite can still destroy its policy (learning rate
// 1 drives entropy to 0 and the reward to 0 within seconds, and the NaN guard sees nothing). It
// follows a smoothed reward (exponential moving average) and the policy's entropy, remembers the
// best smoothed reward and the iteration it came at, and says "collapsed" when the policy has
// gone deterministic (entropy below ENTROPY_FLOOR) while its smoothed reward has fallen far below
// its best. The caller pauses the run and offers the best iteration's weights back.

/** Smoothing of the reward (weight of the newest iteration). */
export const EMA_ALPHA = 0.1;
/** A policy with less entropy than this (nats per decision) samples the same action almost always. */
export const ENTROPY_FLOOR = 0.02;
/** The fall that counts as a collapse: below best − max(MIN_DROP, DROP_SHARE · |best|). */
export const MIN_DROP = 0.2;
export const DROP_SHARE = 0.5;
/** Iterations before the guard may fire (the smoothed reward needs a few points). */
export const WARMUP = 10;

/** A collapse in numbers (the page writes the words): when, its entropy, the smoothed reward's fall from its best. */
export interface Collapse {
  iteration: number;
  entropy: number;
  smoothedReward: number;
  bestReward: number;
  bestIteration: number;
}

export interface CollapseVerdict {
  /** True when this iteration's smoothed reward is the best so far (the caller keeps a snapshot). */
  best: boolean;
  /** Set when the run collapsed. */
  collapsed?: Collapse;
}

export class CollapseGuard {
  private ema: number | null = null;
  private seen = 0;
  bestEma = -Infinity;
  bestIteration = 0;

  /** Feeds one iteration's mean reward and entropy. */
  observe(iteration: number, meanReward: number, entropy: number): CollapseVerdict {
    this.seen++;
    this.ema = this.ema === null ? meanReward : this.ema + EMA_ALPHA * (meanReward - this.ema);
    const best = this.ema > this.bestEma;
    if (best) {
      this.bestEma = this.ema;
      this.bestIteration = iteration;
    }
    const drop = Math.max(MIN_DROP, DROP_SHARE * Math.abs(this.bestEma));
    if (this.seen > WARMUP && entropy < ENTROPY_FLOOR && this.ema < this.bestEma - drop) {
      return { best, collapsed: { iteration, entropy, smoothedReward: this.ema, bestReward: this.bestEma,
        bestIteration: this.bestIteration } };
    }
    return { best };
  }

  /** Forgets the history (after a reset, an import or a restore). */
  reset(): void {
    this.ema = null;
    this.seen = 0;
    this.bestEma = -Infinity;
    this.bestIteration = 0;
  }
}
