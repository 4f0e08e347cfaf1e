import { expect, test, type Page } from '@playwright/test';
import { openLab, watchErrors } from './helpers';

/** Points in one run's bold (smoothed) line of an overlaid compare chart. */
const runPoints = async (page: Page, chart: string, k: number): Promise<number> => {
  const d = await page.getByTestId(chart).locator('g.curves path.curve[data-run]').nth(k).getAttribute('d');
  return d ? (d.match(/[ML]/g) ?? []).length : 0;
};

const progress = async (page: Page): Promise<number> => {
  const m = /iteration (\d+) \//.exec(await page.getByTestId('compare-progress').innerText());
  return m ? Number(m[1]) : 0;
};

test('Compare runs: the reward preset trains both configurations side by side and overlays their curves; Stop ends a run early, and so does starting the main run', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await openLab(page);
  const backend = await page.locator('[data-backend]').getAttribute('data-backend');
  // Start the main run: starting a comparison pauses it.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  const panel = page.getByTestId('compare-runs');
  await panel.getByRole('combobox', { name: 'Comparison' }).selectOption('reward');
  await expect(panel).toContainText('What to look for');
  const iterations = 30;
  await panel.getByRole('spinbutton', { name: 'Iterations' }).fill(String(iterations));
  const pressed = Date.now();
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect(page.getByRole('button', { name: 'Start', exact: true })).toBeVisible();
  await expect(page.getByTestId('compare-progress')).toContainText(`/ ${iterations}`);
  const summary = page.getByTestId('compare-summary');
  await expect(summary).toBeVisible({ timeout: 180_000 });
  const seconds = (Date.now() - pressed) / 1000;
  expect(await progress(page)).toBe(iterations);
  // Both curves on each chart, with a point per iteration, and the legend names both configurations.
  for (const chart of ['compare-accuracy', 'compare-reward', 'compare-cost']) {
    await expect(page.getByTestId(chart).locator('g.curves path.curve[data-run]')).toHaveCount(2);
    expect(await runPoints(page, chart, 0)).toBe(iterations);
    expect(await runPoints(page, chart, 1)).toBe(iterations);
    await expect(page.getByTestId(chart).getByLabel('legend')).toContainText('paper reward (normalised)');
    await expect(page.getByTestId(chart).getByLabel('legend')).toContainText('weighted sum (fixed costs)');
  }
  // One run solid, the other dashed.
  const dashes = await page.getByTestId('compare-accuracy').locator('g.curves path.curve[data-run]').evaluateAll((ps) => ps.map((p) => p.getAttribute('stroke-dasharray')));
  expect(dashes[0]).toBeNull();
  expect(dashes[1]).toBeTruthy();
  const text = await summary.innerText();
  expect(text).toMatch(/paper reward \(normalised\): accuracy \d+\.\d%, cost \$[\d.e-]+ per task; weighted sum \(fixed costs\): accuracy \d+\.\d%/);
  const perPair = /([\d.]+) s per pair of iterations on (\w+)/.exec(text);
  expect(perPair).not.toBeNull();
  console.log(`compare (reward preset, ${iterations} iterations, default sizes) on ${perPair?.[2]} (lab on ${backend}): ${perPair?.[1]} s per pair of iterations; ${seconds.toFixed(1)} s from Start to the summary, including the worker's start`);
  console.log(`summary: ${text}`);
  await panel.screenshot({ path: 'test-results/compare-panel.png' });

  // Stop: a long comparison stops after a few iterations, and says so.
  await panel.getByRole('spinbutton', { name: 'Iterations' }).fill('500');
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect.poll(() => progress(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await panel.getByRole('button', { name: 'Stop' }).click();
  await expect(summary).toContainText('Stopped early');
  const stoppedAt = await progress(page);
  await page.waitForTimeout(2_000);
  expect(await progress(page)).toBe(stoppedAt);
  expect(stoppedAt).toBeLessThan(500);
  // Starting the main run stops a comparison: the two would share the cores.
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect.poll(() => progress(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(panel.getByRole('button', { name: 'Start comparison' })).toBeVisible({ timeout: 30_000 }); // shown again once it stopped
  await expect(summary).toContainText('Stopped early');
  expect(await progress(page)).toBeLessThan(500);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  expect(errors).toEqual([]);
});

test('Compare runs under a learning-rate schedule that ends first runs only up to its end, and says why', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm&lrTo0=4');
  await page.getByRole('tab', { name: 'Compare runs' }).click();
  const panel = page.getByTestId('compare-runs');
  await panel.getByRole('spinbutton', { name: 'Iterations' }).fill('30');
  await panel.getByRole('button', { name: 'Start comparison' }).click();
  await expect(panel.getByTestId('compare-note')).toContainText('The learning rate reaches 0 at iteration 4');
  await expect(panel.getByTestId('compare-note')).toContainText('runs 4 iterations, not 30');
  await expect(page.getByTestId('compare-summary')).toBeVisible({ timeout: 90_000 });
  expect(await progress(page)).toBe(4);
  await expect(page.getByTestId('compare-progress')).toContainText('/ 4');
  expect(errors).toEqual([]);
});
