// The training speed the top bar shows: iterations per second over the last few seconds, so that it
// follows a backend switch or a change of pace instead of averaging everything since Start (which
// misreported a run that switched backends).

export class RateMeter {
  private samples: { t: number; it: number }[] = [];

  constructor(private readonly windowMs = 3000) {}

  /** Starts afresh at time `t` (ms) and iteration `it`: a run's start, or the end of a backend switch. */
  reset(t: number, it: number): void {
    this.samples = [{ t, it }];
  }

  /**
   * Records iteration `it` reached at time `t` and returns the iterations per second since the oldest
   * sample still inside the window (the newest one older than the window stays as its anchor); 0
   * before any time has passed.
   */
  sample(t: number, it: number): number {
    this.samples.push({ t, it });
    while (this.samples.length > 2 && t - (this.samples[1] as { t: number }).t >= this.windowMs) this.samples.shift();
    const first = this.samples[0] as { t: number; it: number };
    return t > first.t ? (it - first.it) / ((t - first.t) / 1000) : 0;
  }
}
