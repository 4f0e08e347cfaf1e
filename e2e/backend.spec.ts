// The backend the lab trains on: measured when none is forced (the speed probe, its badge, its
// cache, what happens when nothing finishes), and wasm forced — with the main thread kept free
// while training.

import { expect, test } from '@playwright/test';
import { describeLongTasks, iteration, openLab, pathPoints, recordLongTasks, takeLongTasks, watchErrors } from './helpers';

test('at a size where no backend finishes the 2 s probe, the badge says so and the lab trains on wasm, not on the software adapter; the guess is not cached', { tag: '@timing' }, async ({ page }) => {
  test.setTimeout(120_000);
  // width 256, N = 2048 (B = 256, the most the lab takes): one wasm iteration takes seconds, and this
  // machine's WebGPU adapter is software. (At N = 1024 wasm now finishes the probe in about 2 s.)
  await openLab(page, '?width=256&B=256');
  const badge = page.locator('[data-backend]');
  await expect(badge).toHaveAttribute('data-mode', 'auto', { timeout: 60_000 });
  await expect(badge).toHaveAttribute('data-backend', 'wasm');
  // The badge shows the backend and its speed; how it was chosen and every backend's figure are in its tooltip.
  await expect(badge).toHaveAttribute('title', /no backend finished the 2 s probe at this size/);
  await expect(badge).toHaveAttribute('title', /timed out/);
  await page.reload();
  await expect(badge).toHaveAttribute('data-mode', 'auto', { timeout: 60_000 });
  await expect(badge).not.toHaveAttribute('title', /cached/);
});

test('with no backend in the URL the lab measures the backends, shows each one\'s it/s, trains on the fastest: iterations advance within 20 s and 300 take ≤ 90 s; a reload uses the cached measurement', { tag: '@timing' }, async ({ page }) => {
  test.setTimeout(240_000);
  const opened = Date.now();
  await openLab(page);
  const badge = page.locator('[data-backend]');
  await expect(badge).toHaveAttribute('data-mode', 'auto');
  await expect(page.getByTestId('backend-probe')).toHaveText(/^(≤ )?\d+(\.\d)? it\/s$/);
  await expect(badge).toHaveAttribute('title', /wasm: \d+(\.\d)? it\/s/);
  await expect(badge).toHaveAttribute('title', /webgpu/);
  // WebGPU is judged warm: its first run (the kernels' compile) is said and kept out of the timed budget; no time is negative.
  await expect(badge).toHaveAttribute('title', /webgpu[^\n]*: [a-z ]+ — [^\n]*first run/);
  expect(await badge.getAttribute('title')).not.toMatch(/-\d/);
  console.log(`backend ${await badge.getAttribute('data-backend')}: ${await badge.getAttribute('title')}`);
  expect(page.url()).not.toContain('backend=');
  await page.getByRole('button', { name: 'Start' }).click();
  const pressed = Date.now();
  await expect.poll(() => iteration(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
  console.log(`3 iterations ${((Date.now() - pressed) / 1000).toFixed(1)} s after Start (${((Date.now() - opened) / 1000).toFixed(1)} s after opening the page)`);
  await expect.poll(() => iteration(page), { timeout: 90_000, intervals: [250] }).toBeGreaterThanOrEqual(300);
  console.log(`300 iterations at the default size on ${await badge.getAttribute('data-backend')} (auto) ${((Date.now() - pressed) / 1000).toFixed(1)} s after Start`);
  await page.getByRole('button', { name: 'Pause' }).click();
  await page.reload();
  await expect(badge).toHaveAttribute('title', /cached/, { timeout: 60_000 });
  // Forcing a backend from the selector puts it in the URL; auto takes it out again.
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('cpu');
  await expect(badge).toHaveAttribute('data-mode', 'forced', { timeout: 60_000 });
  expect(page.url()).toContain('backend=cpu');
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('auto');
  await expect(badge).toHaveAttribute('data-mode', 'auto', { timeout: 60_000 });
  expect(page.url()).not.toContain('backend=');
});

test('wasm fallback with ?backend=wasm; training leaves the main thread free of long tasks (measured); the charts answer the pointer', { tag: '@timing' }, async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await recordLongTasks(page);
  await openLab(page, '?backend=wasm');
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', 'wasm');
  await takeLongTasks(page);
  // The charts keep their size while training: a line above or beside them that changes its length
  // (the policy's status when Start is pressed, the run-health verdict from iteration 400) keeps its room.
  const chartSizes = () => page.locator('.key-curves .chart-body').evaluateAll((es) => es.map((e) => `${e.clientWidth}×${e.clientHeight}`));
  const sizesBefore = await chartSizes();
  await page.getByRole('button', { name: 'Start' }).click();
  await page.waitForTimeout(5_000);
  const warmup = await takeLongTasks(page);
  console.log(`long tasks in the first 5 s of training: ${describeLongTasks(warmup)}`);
  await page.waitForTimeout(15_000);
  const its = await iteration(page);
  const long = await takeLongTasks(page);
  await page.getByRole('button', { name: 'Pause' }).click();
  console.log(`main-thread long tasks (≥ 50 ms) during 15 s of training on wasm: ${describeLongTasks(long)}; ${its} iterations, ${await pathPoints(page, 'chart-reward')} reward-chart points`);
  expect(its).toBeGreaterThan(5);
  expect([...warmup, ...long]).toEqual([]);
  const health = page.getByTestId('run-health');
  await page.waitForTimeout(1500); // the iteration in flight at Pause lands; the line follows within 2 s (it retries)
  if (await iteration(page) >= 400) {
    await expect(health).toContainText(/(Still rising|Plateau|Worse than its best): training accuracy/);
    // A screen reader is told the verdict alone, not the numbers that move every 2 s.
    await expect(health.getByRole('status')).toHaveText(/^Run health: (still rising|on a plateau|worse than its best)$/);
  } else await expect(health).toHaveText(/^How the run is going shows here once it has 400 iterations/);
  expect(await chartSizes()).toEqual(sizesBefore);

  // Tooltips: a training chart names the iteration under the pointer and its value; a trade-off point names itself.
  const plot = await page.getByTestId('chart-reward').locator('.chart-body').boundingBox();
  if (!plot) throw new Error('reward chart not laid out');
  await page.mouse.move(plot.x + plot.width * 0.7, plot.y + plot.height * 0.4);
  await expect(page.getByTestId('chart-reward')).toContainText(/iteration \d+\s*reward \(each iteration\): -?\d.*mean of the last 10\): -?\d/);
  const star = await page.locator('path.operating-star').boundingBox();
  if (!star) throw new Error('no operating point drawn');
  await page.mouse.move(star.x + star.width / 2, star.y + star.height / 2);
  await expect(page.getByRole('tooltip')).toContainText(/accuracy \d+\.\d% · cost/);
  // … and the keyboard: a focused chart reads its points with the arrow keys.
  await page.mouse.move(0, 0);
  const accuracy = page.getByTestId('chart-accuracy');
  await accuracy.getByRole('group').focus();
  await page.keyboard.press('Home');
  await expect(accuracy.getByRole('tooltip')).toContainText(/iteration 1\s*training accuracy \(each iteration\): [01]\./);
  // The next drawn point: iteration 2, or a later one once the run is longer than the chart's 200 points.
  await page.keyboard.press('ArrowRight');
  await expect(accuracy.getByRole('tooltip')).not.toContainText(/iteration 1(?!\d)/);
  const second = Number(/iteration (\d+)/.exec((await accuracy.getByRole('tooltip').textContent()) ?? '')?.[1]);
  expect(second).toBeGreaterThanOrEqual(2);
  expect(second).toBeLessThanOrEqual(1 + Math.ceil(its / 200));
  await page.keyboard.press('ArrowLeft');
  await expect(accuracy.getByRole('tooltip')).toContainText(/iteration 1(?!\d)/);
  await page.keyboard.press('Escape');
  await expect(accuracy.getByRole('tooltip')).toHaveCount(0);
  expect(errors).toEqual([]);
});
