// Compare runs as a new user meets it: a preset trained over three seeds a side (the same seeds on
// both), progress per seed, each side's mean line over a band of its seeds, and a conclusion whose
// numbers and verdict follow from the per-seed differences it shows; then Stop and the main run.

import { expect, test, type Locator, type Page } from '@playwright/test';
import { openLab, watchErrors } from './helpers';

/** Points in one side's mean line of an overlaid compare chart. */
const runPoints = async (page: Page, chart: string, k: number): Promise<number> => {
  const d = await page.getByTestId(chart).locator('g.curves path.curve[data-run]').nth(k).getAttribute('d');
  return d ? (d.match(/[ML]/g) ?? []).length : 0;
};

/** Each seed's "done/asked" in the progress line, as [seed, done, asked]. */
const seedProgress = async (page: Page): Promise<[number, number, number][]> => {
  const text = await page.getByTestId('compare-progress').innerText().catch(() => '');
  return [...text.matchAll(/seed (\d+): (\d+)\/(\d+)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
};
const fewestDone = async (page: Page): Promise<number> => Math.min(...(await seedProgress(page)).map((s) => s[1]));

const num = (s: string): number => Number(s.replace('−', '-'));
const mean = (xs: number[]): number => xs.reduce((a, v) => a + v, 0) / xs.length;
const sd = (xs: number[]): number => Math.sqrt(xs.reduce((a, v) => a + (v - mean(xs)) ** 2, 0) / (xs.length - 1));

/** Reads the accuracy line of the conclusion and checks its arithmetic and verdict against what it shows. */
async function checkAccuracyLine(line: Locator, labels: [string, string]): Promise<string> {
  const text = await line.innerText();
  const [la, lb] = labels.map((l) => l.replace(/[()]/g, '\\$&'));
  const sides = new RegExp(`${la} ([\\d.]+)% vs ${lb} ([\\d.]+)%`).exec(text);
  expect(sides, text).not.toBeNull();
  const [a, b] = [Number(sides?.[1]), Number(sides?.[2])];
  const shown = new RegExp(
    'difference ([+−][\\d.]+) ± ([\\d.]+) points \\(mean ± sd of the 3 per-seed paired differences: ([^)]+)\\)');
  const diff = shown.exec(text);
  expect(diff, text).not.toBeNull();
  const [d, s] = [num(diff?.[1] ?? ''), Number(diff?.[2])];
  const perSeed = (diff?.[3] ?? '').split(', ').map(num);
  expect(perSeed).toHaveLength(3);
  // The difference is A − B, the mean of the per-seed differences; ± is their sd (all shown to 0.1).
  expect(Math.abs(d - (a - b))).toBeLessThanOrEqual(0.11);
  expect(Math.abs(d - mean(perSeed))).toBeLessThanOrEqual(0.11);
  expect(Math.abs(s - sd(perSeed))).toBeLessThanOrEqual(0.15);
  // The verdict follows the rule on screen: within the noise when |mean| ≤ 4.30 × sd/√3.
  const margin = (4.303 * sd(perSeed)) / Math.sqrt(3);
  const within = (await line.getAttribute('data-within-noise')) === 'true';
  if (Math.abs(Math.abs(d) - margin) > 0.3) expect(within).toBe(Math.abs(d) <= margin);
  const ahead = d > 0 ? labels[0] : labels[1];
  const verdict = within ? 'Accuracy: within the noise.' : `Accuracy: higher with ${ahead}, beyond the noise.`;
  await expect(line).toContainText(verdict);
  return text;
}

test('Compare runs: 3 seeds a side, a band, a conclusion computed from them; Stop; main run', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await openLab(page);
  // Start the main run: starting a comparison pauses it.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  const panel = page.getByTestId('compare-runs');
  // Three seeds by default, named before anything runs; the preset asks a question and does not answer it.
  await expect(panel.getByRole('spinbutton', { name: 'Seeds' })).toHaveValue('3');
  await expect(panel).toContainText('each trained over 3 seeds (1, 2, 3;');
  await panel.getByRole('combobox', { name: 'Comparison' }).selectOption('reward');
  await expect(panel).toContainText('The question:');
  await expect(panel).not.toContainText('What to look for');
  const iterations = 24;
  await panel.getByRole('spinbutton', { name: 'Iterations per seed' }).fill(String(iterations));
  const pressed = Date.now();
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
  // Progress per seed: every seed moves, and none is more than one iteration ahead of another.
  await expect.poll(() => fewestDone(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  const mid = await seedProgress(page);
  expect(mid.map((s) => s[0])).toEqual([1, 2, 3]);
  expect(Math.max(...mid.map((s) => s[1])) - Math.min(...mid.map((s) => s[1]))).toBeLessThanOrEqual(3);
  const conclusion = page.getByTestId('compare-conclusion');
  await expect(conclusion).toBeVisible({ timeout: 180_000 });
  const seconds = (Date.now() - pressed) / 1000;
  expect(await seedProgress(page)).toEqual([1, 2, 3].map((seed) => [seed, iterations, iterations]));
  // Each chart: both sides' mean lines with a point per iteration, and a band under each that has width.
  for (const chart of ['compare-accuracy', 'compare-reward', 'compare-cost']) {
    const card = page.getByTestId(chart);
    await expect(card.locator('g.curves path.curve[data-run]')).toHaveCount(2);
    expect(await runPoints(page, chart, 0)).toBe(iterations);
    expect(await runPoints(page, chart, 1)).toBe(iterations);
    await expect(card.locator('g.bands path.band[data-run]')).toHaveCount(2);
    await expect(card.getByLabel('legend')).toContainText('paper reward (normalised)');
    await expect(card.getByLabel('legend')).toContainText('weighted sum (fixed costs)');
    await expect(card.getByLabel('legend')).toContainText('line: mean of the 3 seeds; band: lowest to highest seed');
  }
  const heights = await page.getByTestId('compare-accuracy').locator('g.bands path.band')
    .evaluateAll((ps) => ps.map((p) => (p as SVGPathElement).getBBox().height));
  expect(Math.max(...heights)).toBeGreaterThan(2);
  // One side solid, the other dashed.
  const dashes = await page.getByTestId('compare-accuracy').locator('g.curves path.curve[data-run]')
    .evaluateAll((ps) => ps.map((p) => p.getAttribute('stroke-dasharray')));
  expect(dashes[0]).toBeNull();
  expect(dashes[1]).toBeTruthy();
  // The conclusion: computed from the three seeds, its verdict by the rule it states.
  const labels: [string, string] = ['paper reward (normalised)', 'weighted sum (fixed costs)'];
  const text = await checkAccuracyLine(conclusion.locator('li[data-metric="accuracy"]'), labels);
  await expect(conclusion.locator('li[data-metric="meanCostUSD"]'))
    .toContainText(/Cost per task: (within the noise|higher with .+, beyond the noise)\./);
  await expect(page.getByTestId('compare-rule'))
    .toContainText(`mean of its last 10 of ${iterations} iterations; seeds 1, 2, 3, the same on both sides`);
  await expect(page.getByTestId('compare-rule')).toContainText('t = 4.30 for n − 1 = 2 degrees of freedom');
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toContainText(`3 seeds × ${iterations} iterations per side.`);
  const perPair = /([\d.]+) s per pair of iterations on (\w+)/.exec(await summary.innerText());
  expect(perPair).not.toBeNull();
  console.log(`compare (reward preset, 3 seeds × ${iterations} iterations, default sizes) on ${perPair?.[2]}: `
    + `${perPair?.[1]} s per pair; ${seconds.toFixed(1)} s from Start to the conclusion, including the worker's start`);
  console.log(`accuracy: ${text}`);
  for (const theme of ['light', 'dark'] as const) {
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
      await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    }
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/compare-${theme}.png` });
    await panel.screenshot({ path: `test-results/compare-panel-${theme}.png` });
  }

  // Stop: a long comparison stops after a few iterations, says so, and concludes on what every seed reached.
  await panel.getByRole('spinbutton', { name: 'Iterations per seed' }).fill('500');
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect(conclusion).toBeHidden();
  await expect.poll(() => fewestDone(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(summary).toContainText('stopped early, of 500 asked');
  const stoppedAt = await seedProgress(page);
  await page.waitForTimeout(2_000);
  expect(await seedProgress(page)).toEqual(stoppedAt);
  expect(Math.max(...stoppedAt.map((s) => s[1]))).toBeLessThan(500);
  const reached = Math.min(...stoppedAt.map((s) => s[1]));
  await expect(page.getByTestId('compare-rule')).toContainText(`of ${reached} iterations`);
  // Starting the main run stops a comparison: the two would share the cores.
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect.poll(() => fewestDone(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(1);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  // Start comparison shows again once it stopped.
  await expect(panel.getByRole('button', { name: 'Start comparison' })).toBeVisible({ timeout: 30_000 });
  await expect(summary).toContainText('stopped early');
  expect(await fewestDone(page)).toBeLessThan(500);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  expect(errors).toEqual([]);
});

test('Compare runs under an lr schedule that ends first: each seed runs up to its end, and why', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm&lrTo0=4');
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  const panel = page.getByTestId('compare-runs');
  await panel.getByRole('spinbutton', { name: 'Iterations per seed' }).fill('30');
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect(panel.getByTestId('compare-note')).toContainText('The learning rate reaches 0 at iteration 4');
  await expect(panel.getByTestId('compare-note')).toContainText('each seed runs 4 iterations, not 30');
  await expect(page.getByTestId('compare-conclusion')).toBeVisible({ timeout: 90_000 });
  expect(await seedProgress(page)).toEqual([[1, 4, 4], [2, 4, 4], [3, 4, 4]]);
  await expect(page.getByTestId('compare-rule')).toContainText('mean of its last 4 of 4 iterations');
  expect(errors).toEqual([]);
});
