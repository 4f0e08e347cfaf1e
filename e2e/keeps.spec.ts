// Settings that speak and runs that keep: a change in Settings says what changed from what to what
// within a second (one notice for the topic), the recipe line follows it; the metrics export holds
// every iteration; a trained policy survives a reload (same iteration, same action probabilities,
// its curves) with a notice offering "Start fresh".
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { iteration, openLab, openSettings, probe, saveDownloads } from './helpers';

type Saved = { browserSaved: { iteration: number } | null; history: { points: unknown[] } };
const store = (page: Page) => page.evaluate(() => {
  const s = (window as unknown as { orchestraLab: { getState(): Saved } }).orchestraLab.getState();
  return { saved: s.browserSaved?.iteration ?? null, logged: s.history.points.length };
});

test('a settings change shows a notice naming the setting and both values within a second; the recipe line follows', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const recipe = page.getByTestId('recipe-line');
  await expect(recipe).toContainText('reward paper (normalised, gated) · advantage (R − mean)/std · lr 0.0015 → 0 by iteration 3000 · B × G = 16 × 8');
  await openSettings(page, 'Training');
  await page.getByRole('combobox', { name: 'reward mode' }).selectOption('weighted');
  const notice = page.getByRole('note').filter({ hasText: 'Settings changed' });
  await expect(notice).toContainText('reward mode "paper (normalised, gated)" → "weighted sum (fixed costs)"', { timeout: 1000 });
  await expect(notice).toContainText('Training uses it from the next iteration');
  const lr = page.getByLabel('learning rate', { exact: true });
  await lr.fill('0.0005');
  await lr.press('Tab');
  // One notice on the topic: the newer replaces the older.
  await expect(notice).toHaveCount(1);
  await expect(notice).toContainText('learning rate 0.0015 → 0.0005', { timeout: 1000 });
  await page.keyboard.press('Escape');
  await expect(recipe).toContainText('reward weighted sum (fixed costs)');
  await expect(recipe).toContainText('lr 0.0005 → 0 by iteration 3000');
});

test('a policy trained for 50 iterations survives a reload: same iteration, same probabilities, its curves; Start fresh goes back', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 120_000 }).toBeGreaterThanOrEqual(50);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  // Paused (the iteration in flight finishes first): the worker's copy of the policy at the last iteration is kept.
  await expect.poll(async () => (await store(page)).saved === await iteration(page), { timeout: 20_000 }).toBe(true);
  const at = await iteration(page);
  const before = await probe(page);
  const logged = (await store(page)).logged;
  expect(logged).toBe(at);
  // The export holds every iteration.
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Metrics CSV' }).click();
  const rows = readFileSync(await (await download).path(), 'utf8').trim().split('\n');
  expect(rows.length - 1).toBe(at);

  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  const restored = page.getByRole('note').filter({ hasText: 'Restored from this browser' });
  await expect(restored).toContainText(`the policy of iteration ${at}`);
  await expect.poll(() => iteration(page)).toBe(at);
  const after = await probe(page);
  expect(after.length).toBe(before.length);
  const worst = Math.max(...after.map((p, i) => Math.abs(p - (before[i] as number))));
  console.log(`reload at iteration ${at}: max |Δp| = ${worst.toExponential(2)} over ${after.length} probabilities`);
  expect(worst).toBeLessThan(1e-6);
  expect((await store(page)).logged).toBe(at);
  await expect(page.getByTestId('policy-origin')).toContainText(`your policy from this browser, trained for ${at} iterations`);

  await restored.getByRole('button', { name: 'Start fresh' }).click();
  await expect(page.getByTestId('policy-origin')).toContainText('shipped pretrained policy', { timeout: 30_000 });
  expect(await iteration(page)).toBe(0);
});

test('Undo after an Import brings back the policy the import replaced, even a fresh one; the Export tab says what the file carries', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBe(1);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const dir = test.info().outputPath('export');
  const files = saveDownloads(page, dir);
  await page.getByRole('button', { name: 'Export weights' }).click();
  await expect.poll(() => files.length, { timeout: 30_000 }).toBe(2);
  const trained = await probe(page);
  // Reset (the trained policy is kept for Undo), then import the file: the import replaces the fresh network.
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect.poll(() => iteration(page)).toBe(0);
  const fresh = await probe(page);
  await page.getByTestId('import-files').setInputFiles(files);
  await expect(page.getByRole('note').filter({ hasText: 'Imported policy' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('imported-file-carries')).toContainText('This policy came from a file (imported), trained for 1 iteration where it was made');
  await expect(page.getByTestId('imported-file-carries')).toContainText('not the run\'s curves');
  await expect(page.getByTestId('metrics-recorded')).toContainText('in this lab, since it came in: 0 (none yet: Start or Step trains it)');
  (await probe(page)).forEach((p, i) => expect(p).toBeCloseTo(trained[i]!, 6));
  // Undo undoes the import, the last thing done: the fresh network comes back, not the policy before Reset.
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Brought back the policy before the import (iteration 0)' })).toBeVisible();
  (await probe(page)).forEach((p, i) => expect(p).toBeCloseTo(fresh[i]!, 6));
});
