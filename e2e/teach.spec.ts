// The lab that teaches: the first screen's three actions, learning from scratch within a minute,
// GRPO in slow motion through its eight phases (wasm and WebGPU), classroom mode, the theme toggle
// and its contrast, and the screenshots in docs/ (the lessons are walked in lessons.spec.ts).
import { expect, test, type Page } from '@playwright/test';
import { iteration, metricSeries as series, openLab, slowMotionTo, watchErrors } from './helpers';

const PHASES = ['Sample tasks and preferences', 'Roll out G trajectories per task', 'Measure M', 'Normalise', 'Gate and weight: R', 'Advantage: A', 'Update: ratio, clip, KL', 'New probabilities'];

const operatingPoint = (page: Page) => page.getByTestId('operating-point').innerText();
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length);

test('a click on Train from scratch before the lab has measured its backends waits for it: the run is from scratch and trains, with no error', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  // At once, while the badge still measures the backends and the pretrained policy is not loaded yet.
  await page.getByRole('button', { name: 'Train from scratch' }).click();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 60_000 });
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBeGreaterThan(5);
  await expect(page.getByTestId('policy-origin')).toContainText('from scratch');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the first screen: the question, the answer with live numbers, labelled baselines, and its three actions work', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await openLab(page);
  await expect(page.getByRole('heading', { name: 'Can a small router beat always calling the biggest model?' })).toBeVisible();
  await expect(page.getByTestId('first-accuracy')).toHaveText(/\d+%/);
  const labels = await page.locator('text.point-label').allTextContents();
  for (const name of ['always GPT-5', 'GPT-5 + tools', 'cheapest', 'cascade', 'hindsight', 'you are here']) expect(labels).toContain(name);
  await expect(page.getByTestId('tradeoff')).toContainText('AIQ: the average accuracy');
  // 1. The sliders move the ★.
  const before = await operatingPoint(page);
  await page.getByRole('slider', { name: 'Cost weight' }).fill('1');
  await expect.poll(() => operatingPoint(page), { timeout: 10_000 }).not.toBe(before);
  // 2. Train from scratch: the curve rises within the first minute (on this machine's CPU backend).
  await page.getByRole('button', { name: 'Train from scratch' }).click();
  await expect(page.getByTestId('policy-origin')).toContainText('from scratch');
  const started = Date.now();
  const gain = async () => { const x = await series(page); return x.length < 30 ? 0 : mean(x.slice(-10).map((p) => p.accuracy)) - mean(x.slice(0, 10).map((p) => p.accuracy)); };
  await expect.poll(gain, { timeout: 60_000, intervals: [2000] }).toBeGreaterThan(0.15);
  await page.getByRole('button', { name: 'Pause' }).click();
  const s = await series(page);
  const first = s.slice(0, 10), last = s.slice(-10);
  const [a0, a1] = [mean(first.map((p) => p.accuracy)), mean(last.map((p) => p.accuracy))];
  const [r0, r1] = [mean(first.map((p) => p.meanReward)), mean(last.map((p) => p.meanReward))];
  console.log(`from scratch, ${s.length} iterations in ${((Date.now() - started) / 1000).toFixed(0)} s: accuracy ${(100 * a0).toFixed(1)}% (first 10) → ${(100 * a1).toFixed(1)}% (last 10); reward ${r0.toFixed(3)} → ${r1.toFixed(3)}; cost $${mean(first.map((p) => p.meanCostUSD)).toFixed(4)} → $${mean(last.map((p) => p.meanCostUSD)).toFixed(4)}`);
  expect(s[0]?.iteration).toBe(1);
  expect(s.length).toBeGreaterThanOrEqual(30);
  expect(a1 - a0).toBeGreaterThan(0.15);
  expect(r1).toBeGreaterThan(r0);
  await expect(page.getByTestId('chart-accuracy').locator('.ref-lines line')).toHaveCount(2);
  // Continue from the pretrained policy: the curves start again from iteration 0 with the shipped policy.
  await page.getByRole('button', { name: 'Continue from the pretrained policy' }).click();
  await expect(page.getByTestId('policy-origin')).toContainText('pretrained');
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBeGreaterThan(2);
  await page.getByRole('button', { name: 'Pause' }).click();
  // The curves start again at iteration 1, from a policy that already solves tasks.
  const again = await series(page);
  expect(again[0]?.iteration).toBe(1);
  console.log(`continue from the pretrained policy: accuracy of its first 3 iterations ${again.slice(0, 3).map((p) => (100 * p.accuracy).toFixed(0)).join(', ')}%`);
  expect(mean(again.slice(0, 3).map((p) => p.accuracy))).toBeGreaterThan(0.3);
  // 3. Slow motion from the first screen.
  await page.getByRole('region', { name: 'Can a small router beat always calling the biggest model?' }).getByRole('button', { name: 'Slow motion' }).click();
  await expect(page.getByRole('heading', { name: PHASES[0] })).toBeVisible();
  await expect(page.getByTestId('phase-counter')).toContainText('Phase 1 of 8');
  expect(errors).toEqual([]);
});

for (const backend of ['wasm', 'webgpu']) {
  test(`slow motion walks one iteration through all eight phases, each with its numbers (${backend})`, async ({ page }) => {
    test.setTimeout(180_000);
    const errors = watchErrors(page);
    await openLab(page, `?backend=${backend}`);
    const it0 = await iteration(page);
    await slowMotionTo(page, 8);
    for (const [i, name] of PHASES.entries()) {
      const phase = page.getByTestId(`phase-${i + 1}`);
      await expect(phase.getByRole('heading', { name })).toBeVisible();
      expect((await phase.innerText()).match(/\d+\.\d+/g)?.length ?? 0).toBeGreaterThan(2);
    }
    await expect(page.getByTestId('phase-counter')).toContainText('all 8 phases');
    await expect.poll(() => iteration(page)).toBe(it0 + 1);
    // The bars of phase 8 and the formulas beside the phases: hovering A in a formula lights the A values in the tables.
    await expect(page.getByTestId('phase-8').locator('.prob-row').first()).toBeVisible();
    await page.getByRole('region', { name: 'Formulas' }).locator('[data-sym="A"]').first().hover();
    await expect(page.getByTestId('phase-6').locator('[data-sym-value="A"].sym-hot').first()).toBeVisible();
    expect(errors).toEqual([]);
  });
}

/** WCAG contrast ratio of two CSS colours given as rgb(…). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((x) => Number(x) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

test('classroom mode: large type everywhere (charts too), the chosen controls hidden and kept in the link; the theme toggle keeps WCAG AA contrast', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openLab(page, '?classroom=1');
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Backend' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Settings', exact: true })).toHaveCount(0);
  const smallest = await page.evaluate(() => {
    let min = Infinity, where = '', count = 0;
    for (const el of document.querySelectorAll<HTMLElement | SVGElement>('main *, header *')) {
      if (el.closest('.katex') || !(el as HTMLElement).offsetParent && !(el instanceof SVGElement)) continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim());
      if (!own) continue;
      count++;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < min) { min = size; where = `${el.tagName}.${el.getAttribute('class') ?? ''}: ${el.textContent?.slice(0, 30)}`; }
    }
    return { min, where, count, ticks: document.querySelectorAll('text.tick-label').length };
  });
  console.log(`classroom mode: smallest text ${smallest.min}px (${smallest.where}) over ${smallest.count} text elements, ${smallest.ticks} chart ticks among them`);
  expect(smallest.count).toBeGreaterThan(100);
  expect(smallest.ticks).toBeGreaterThan(10);
  expect(smallest.min).toBeGreaterThanOrEqual(18);
  // The teacher shows the seed again: the link keeps the choice.
  await page.getByText('Hide…').click();
  await page.getByRole('checkbox', { name: 'Seed' }).uncheck();
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toBeVisible();
  expect(new URL(page.url()).searchParams.get('hide')).not.toContain('seed');
  expect(new URL(page.url()).searchParams.get('classroom')).toBe('1');
  // The list of hidden controls reads as typed, its commas not escaped (hide=backend,safety,…).
  expect(page.url()).toMatch(/[?&]hide=[a-z]+,[a-z]+/);
  // Theme toggle: both themes keep text at WCAG AA (4.5:1) on the panels and the page.
  for (const theme of ['light', 'dark']) {
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const c = await page.evaluate(() => {
      const probe = document.createElement('span');
      document.body.append(probe);
      const get = (v: string) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
      const out = Object.fromEntries(['--ink', '--muted', '--accent', '--panel', '--bg', '--on-accent', '--good', '--bad', '--warn'].map((v) => [v, get(v)]));
      probe.remove();
      return out;
    });
    const pairs: [string, string][] = [['--ink', '--panel'], ['--ink', '--bg'], ['--muted', '--panel'], ['--muted', '--bg'], ['--accent', '--panel'], ['--on-accent', '--accent'], ['--good', '--panel'], ['--bad', '--panel'], ['--warn', '--panel']];
    for (const [fg, bg] of pairs) {
      const ratio = contrast(c[fg] as string, c[bg] as string);
      console.log(`${theme}: ${fg} on ${bg} ${ratio.toFixed(2)}:1`);
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    }
  }
  await page.getByRole('checkbox', { name: 'Classroom' }).uncheck();
  expect(new URL(page.url()).searchParams.get('classroom')).toBeNull();
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toBeVisible();
});

test('a slow-motion iteration closed by "Restore best policy" after its update is charted, not lost', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  for (let k = 1; k <= 3; k++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => iteration(page)).toBe(k);
  }
  expect((await series(page)).length).toBe(3);
  await slowMotionTo(page, 7); // phase 7 updated the weights (phase 8 would finish the iteration): this iteration happened
  await page.getByRole('button', { name: 'Restore best policy' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Restored' })).toBeVisible();
  await expect.poll(async () => (await series(page)).map((p) => p.iteration)).toEqual([1, 2, 3, 4]);
});

test('the charts follow the policy: Undo brings back the curves of the policy it brings back; a new network or an imported policy starts curves of its own, and the trained policy a new network replaced can be brought back with its seed', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const its = async () => (await series(page)).map((p) => p.iteration);
  const step = async (n: number) => {
    for (let k = 0; k < n; k++) {
      const before = await iteration(page);
      await page.getByRole('button', { name: 'Step' }).click();
      await expect.poll(() => iteration(page)).toBe(before + 1);
    }
  };
  await step(3);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(its).toEqual([]);
  // Reset again, on the fresh network: Undo still brings back the trained one (before: the fresh one took its place).
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /before Reset \(iteration 3\)/);
  await step(5);
  await expect.poll(its).toEqual([1, 2, 3, 4, 5]);
  // Before: the policy of iteration 3 came back and its next point went on after 5, at 4.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Brought back the policy before Reset' })).toBeVisible();
  await expect.poll(its).toEqual([1, 2, 3]);
  await expect.poll(() => iteration(page)).toBe(3);
  await step(1);
  await expect.poll(its).toEqual([1, 2, 3, 4]);
  // Undo again: the Reset policy and its five iterations.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(its).toEqual([1, 2, 3, 4, 5]);
  // The shipped pretrained policy (an import) starts at 0 with charts of its own; Undo brings the curves back.
  await page.getByRole('button', { name: 'Continue from the pretrained policy' }).click();
  await expect.poll(async () => (await its())[0], { timeout: 30_000 }).toBe(1);
  await page.getByRole('button', { name: 'Pause' }).click();
  expect((await its()).every((x, i, xs) => i === 0 || x > (xs[i - 1] as number))).toBe(true);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(its).toEqual([1, 2, 3, 4, 5]);
  // Another seed is another network: the charts start again, and the trained policy it replaced is kept for Undo.
  // Typing does not apply it (clearing the box first must not build a network from seed 0): Enter does.
  const seed = page.getByRole('spinbutton', { name: 'Seed' });
  await seed.fill('');
  await expect(page.getByRole('alert').filter({ hasText: 'seed: empty: enter an integer from 0 to 2147483648 (still 1)' })).toBeVisible();
  await seed.fill('7');
  await page.waitForTimeout(300);
  expect(await iteration(page)).toBe(5);
  await seed.press('Enter');
  await expect.poll(its).toEqual([]);
  await expect.poll(() => iteration(page)).toBe(0);
  await step(1);
  await expect.poll(its).toEqual([1]);
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /before the new network \(iteration 5\)/);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Brought back the policy before the new network (iteration 5), with its seed 1' })).toBeVisible();
  await expect.poll(its).toEqual([1, 2, 3, 4, 5]);
  await expect.poll(() => iteration(page)).toBe(5);
  // It comes back with its seed (before: the seed box still said 7), and trains on under it.
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toHaveValue('1');
  expect(page.url()).not.toContain('seed=7');
  await step(1);
  await expect.poll(its).toEqual([1, 2, 3, 4, 5, 6]);
  // Undo the Undo: the seed-7 network, its iteration and its seed.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toHaveValue('7');
  await expect.poll(() => iteration(page)).toBe(1);
  await expect.poll(its).toEqual([1]);
  expect(page.url()).toContain('seed=7');
  // Two Undos in the same instant (a double click faster than the worker answers): each in turn,
  // each with its seed; nothing lost (before: the second went before the first one's seed reached
  // the worker, and the page ended on a fresh network).
  await page.evaluate(() => { const lab = (window as unknown as { orchestraLab: { getState(): { undo(): Promise<void> } } }).orchestraLab.getState(); void lab.undo(); void lab.undo(); });
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /before the undo \(iteration 6\)/);
  await expect.poll(() => iteration(page)).toBe(1);
  await expect(page.getByRole('spinbutton', { name: 'Seed' })).toHaveValue('7');
  await expect.poll(its).toEqual([1]);
});

test('"Restore best policy" pressed while training keeps every iteration on the chart: the one in flight and the last batch', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBeGreaterThan(15);
  await page.getByRole('button', { name: 'Restore best policy' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Restored' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  const reached = await iteration(page);
  // Every iteration that ran is charted once, in order: 1 … the counter, no gap where the run ended.
  await expect.poll(async () => (await series(page)).map((p) => p.iteration)).toEqual(Array.from({ length: reached }, (_, i) => i + 1));
});

test('screenshots at 1280×800 and on a 1920×1080 projector, light and dark', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page);
  await page.getByRole('button', { name: 'Train from scratch' }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(40);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.getByRole('region', { name: 'Can a small router beat always calling the biggest model?' }).getByRole('button', { name: 'Slow motion' }).click();
  for (let i = 2; i <= 6; i++) await page.getByRole('button', { name: 'Next phase' }).click();
  await expect(page.getByTestId('phase-6')).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const [w, h] of [[1280, 800], [1920, 1080]] as const) {
    await page.setViewportSize({ width: w, height: h });
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
      await page.waitForTimeout(700);
      await page.screenshot({ path: `docs/screenshots/lab-${w}x${h}-${theme}.png` });
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.waitForTimeout(700); // the relayout after the resize is painted
  await page.getByTestId('phase-6').scrollIntoViewIfNeeded();
  await page.waitForTimeout(700);
  await page.screenshot({ path: 'docs/screenshots/slow-motion-1280x800-dark.png' });
  await page.getByRole('tab', { name: 'Data' }).click();
  await page.screenshot({ path: 'docs/screenshots/data-browser.png', fullPage: true });
});
