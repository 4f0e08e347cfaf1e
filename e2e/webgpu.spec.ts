import { expect, test } from '@playwright/test';
import { describeLongTasks, iteration, metricSeries, openLab, pathPoints, recordLongTasks, takeLongTasks, watchErrors } from './helpers';

// The WebGPU path for real, on Chromium's software adapter (SwiftShader). Every GPU op is emulated
// on the CPU there, so these runs use a small batch and held-out set to keep each iteration short.
// WebGPU is forced: left on auto, the lab measures wasm faster here and trains on it.
const SMALL = '?B=2&G=2&T=8&eval=30';

test('WebGPU forced with ?backend=webgpu at a small size: the backend is reported; Start trains and the reward chart gains points; Pause stops; Step advances exactly one', async ({ page }) => {
  test.setTimeout(600_000);
  const errors = watchErrors(page);
  await recordLongTasks(page);
  await openLab(page, `${SMALL}&backend=webgpu`);
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-mode', 'forced');
  const status = page.getByRole('status', { name: 'training status' });
  await expect(status).toContainText('WebGPU');
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', 'webgpu');
  console.log(`status: ${(await status.innerText()).replace(/\s+/g, ' ')}`);
  await takeLongTasks(page);
  const started = Date.now();
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => iteration(page), { timeout: 300_000 }).toBeGreaterThanOrEqual(3);
  const long = await takeLongTasks(page);
  console.log(`main-thread long tasks (≥ 50 ms) during ${((Date.now() - started) / 1000).toFixed(0)} s of training on WebGPU: ${describeLongTasks(long)}`);
  await expect.poll(() => pathPoints(page, 'chart-reward'), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  await page.waitForTimeout(1500); // let the iteration in flight finish
  const paused = await iteration(page);
  await page.waitForTimeout(4000);
  expect(await iteration(page)).toBe(paused);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page), { timeout: 120_000 }).toBe(paused + 1);
  await page.waitForTimeout(3000);
  expect(await iteration(page)).toBe(paused + 1);
  expect(errors).toEqual([]);
});

test('WebGPU reports what its update did: one iteration from the same seed and weights gives the same diagnostics as wasm', async ({ browser }) => {
  test.setTimeout(300_000);
  type Point = { loss: number; kl: number; entropy: number; clipFrac: number; gradNorm: number; meanReward: number; accuracy: number };
  const oneStep = async (backend: string): Promise<Point> => {
    const page = await browser.newPage();
    await openLab(page, `${SMALL}&backend=${backend}`);
    await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', backend);
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => iteration(page), { timeout: 120_000 }).toBe(1);
    const p = (await metricSeries(page))[0] as Point;
    await page.close();
    return p;
  };
  const wasm = await oneStep('wasm');
  const webgpu = await oneStep('webgpu');
  console.log(`wasm   ${JSON.stringify(wasm)}\nwebgpu ${JSON.stringify(webgpu)}`);
  expect(webgpu.meanReward).toBe(wasm.meanReward); // the same rollouts
  for (const k of ['loss', 'kl', 'entropy', 'clipFrac', 'gradNorm'] as const) {
    expect(Math.abs(webgpu[k] - wasm[k]), k).toBeLessThanOrEqual(1e-4 * Math.max(1, Math.abs(wasm[k])));
  }
  // Not the zeros the broken readback gave: the update did something measurable.
  expect(wasm.gradNorm).toBeGreaterThan(0);
  expect(wasm.entropy).toBeGreaterThan(0);
});

test('a diverging update on WebGPU is caught: non-finite weights are seen in the one readback, the weights before the update come back, and the trainer says so', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/bench.html?backend=webgpu&plan=diverge');
  await page.waitForFunction(() => !!(window as unknown as { benchResult?: unknown }).benchResult, null, { timeout: 240_000, polling: 500 });
  const r = await page.evaluate(() => (window as unknown as { benchResult: { status: string; message?: string; check?: { backend: string; diverged: string | null; maxWeightChange: number; nonFiniteAfter: number } } }).benchResult);
  console.log(JSON.stringify(r));
  expect(r.status, r.message).toBe('done');
  expect(r.check?.backend).toBe('webgpu');
  expect(r.check?.diverged).toContain('non-finite weights');
  expect(r.check?.nonFiniteAfter).toBe(0);
  expect(r.check?.maxWeightChange).toBe(0);
});

test('WebGPU keeps its tensor count and its buffer pool flat: the same after 5 and after 15 iterations', async ({ page }) => {
  test.setTimeout(300_000);
  await page.goto('/bench.html?backend=webgpu&plan=memory');
  await page.waitForFunction(() => !!(window as unknown as { benchResult?: unknown }).benchResult, null, { timeout: 280_000, polling: 500 });
  const r = await page.evaluate(() => (window as unknown as { benchResult: { status: string; message?: string; check?: { at: { iterations: number; numTensors: number; gpuBytes: number | null }[] } } }).benchResult);
  console.log(JSON.stringify(r.check));
  expect(r.status, r.message).toBe('done');
  const [a, b] = r.check?.at ?? [];
  expect(a?.iterations).toBe(5);
  expect(b?.iterations).toBe(15);
  expect(b?.numTensors).toBe(a?.numTensors);
  expect(a?.gpuBytes).toBeGreaterThan(0);
  expect(b?.gpuBytes).toBe(a?.gpuBytes);
});
