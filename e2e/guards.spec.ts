// The lab's guards, tried as a user would: a learning-rate schedule's end, a collapsing run and
// Restore best, refused field values, the memory bound, a storm of clicks, a catalog with every
// tool disabled, a backend switched while an iteration is in flight, and leaving a page whose
// policy trained. Each leaves the model and the settings as they were and says why.
import { expect, test } from '@playwright/test';
import { readFileSync, mkdirSync } from 'node:fs';
import { iteration, metricSeries, openLab, openSettings, probe, watchErrors } from './helpers';


test('a learning-rate schedule (?lrTo0=3) pauses the run where the rate reaches 0, says so as a note, and counts the lab\'s iterations across a new trainer', async ({ page }) => {
  await openLab(page, '?backend=wasm&lrTo0=3');
  await page.getByRole('button', { name: 'Start' }).click();
  const note = page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 3' });
  await expect(note).toBeVisible({ timeout: 60_000 });
  console.log((await note.innerText()).replace(/\s+/g, ' '));
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  expect(await iteration(page)).toBe(3);
  await page.waitForTimeout(1500);
  expect(await iteration(page)).toBe(3); // paused for real
  await expect(page.getByRole('alert')).toHaveCount(0); // a schedule's end is no failure
  await page.getByRole('button', { name: 'Start' }).click(); // past the end: it pauses again at once, and the note is not repeated
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  await page.waitForTimeout(1000); // the worker's answer to the second Start has come
  expect(await iteration(page)).toBe(3);
  await expect(note).toHaveCount(1);
  await openSettings(page, 'Training');
  const until = page.getByRole('spinbutton', { name: 'lr → 0 by iteration (0 = constant)' });
  await expect(until).toHaveValue('3');
  // A new G builds a new trainer around the same policy (its own count starts at 0): the schedule
  // still counts the lab's iterations, so a run to 5 pauses at 5, not at 3 + 5.
  await page.getByRole('spinbutton', { name: 'G (rollouts per task)' }).fill('6');
  await until.fill('5');
  await expect.poll(() => page.url()).toContain('lrTo0=5');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 5' })).toBeVisible({ timeout: 60_000 });
  expect(await iteration(page)).toBe(5);
  // The rate each iteration used: (3 − k)/3 of 0.0015 for k = 0…2, then (5 − k)/5 for k = 3, 4.
  const rates = (await metricSeries(page)).map((p) => `${p.iteration}:${p.learningRate.toFixed(6)}`);
  expect(rates).toEqual(['1:0.001500', '2:0.001000', '3:0.000500', '4:0.000600', '5:0.000300']);
  // An export records the schedule as the lab counts it, beside the lab's iteration count (as the CLI writes a run).
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const manifest = new Promise<string>((resolve) => {
    page.on('download', async (d) => {
      if (d.suggestedFilename() !== 'orchestrator.json') return;
      mkdirSync('test-results/export-schedule', { recursive: true });
      await d.saveAs('test-results/export-schedule/orchestrator.json');
      resolve(readFileSync('test-results/export-schedule/orchestrator.json', 'utf8'));
    });
  });
  await page.getByRole('button', { name: 'Export weights' }).click();
  expect(JSON.parse(await manifest).userDefinedMetadata.training).toMatchObject({ iterations: 5, lrDecay: { start: 0, end: 5 } });
  // A Step past the end runs at rate 0, and the note says why nothing moves (once).
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(6);
  await expect(page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 5' })).toHaveCount(1);
  expect((await metricSeries(page)).at(-1)).toMatchObject({ iteration: 6, learningRate: 0 });
  // So does a slow-motion iteration opened past the end, from its first phase.
  await page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 5' }).getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 5' })).toHaveCount(0);
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  await page.getByRole('tabpanel').getByRole('button', { name: 'Slow motion' }).click();
  await expect(page.getByTestId('phase-1')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('note').filter({ hasText: 'The learning rate reached 0 at iteration 5' })).toHaveCount(1);
});

test('a collapsing run (learning rate 1) pauses with a message and "Restore best policy" brings the best weights back; Reset can be undone', async ({ page }) => {
  test.setTimeout(240_000);
  // Seed 2: at learning rate 1 the policy goes deterministic within a few iterations. From the shipped policy, seed
  // 1's first updates happen to saturate it onto its own greedy policy, which keeps its reward (62% solved, no
  // collapse to see); seeds 2 to 5 and random P per task collapse within 25 iterations (measured 2026-12-06).
  await openLab(page, '?backend=wasm&lr=1&seed=2');
  const shipped = await probe(page);
  await page.getByRole('button', { name: 'Start' }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'collapsed' });
  await expect(alert).toBeVisible({ timeout: 120_000 });
  console.log((await alert.innerText()).replace(/\s+/g, ' '));
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  const stoppedAt = await iteration(page);
  await page.waitForTimeout(2000);
  expect(await iteration(page)).toBe(stoppedAt); // paused for real
  const best = page.getByRole('button', { name: 'Restore best policy' });
  await expect(best).toBeEnabled();
  const collapsed = await probe(page);
  await best.click();
  await expect(page.getByRole('note').filter({ hasText: 'Restored the best policy of this run' })).toBeVisible();
  const restored = await probe(page);
  expect(restored.some((p, i) => Math.abs(p - (collapsed[i] as number)) > 1e-3)).toBe(true);
  const curve = async () => (await metricSeries(page)).map((p) => p.iteration);
  const trained = await curve();
  // Undo after Restore best brings back the policy it replaced, at its iteration, with its curves;
  // a second Undo brings the restored one back again.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('note').filter({ hasText: `Brought back the policy before Restore best (iteration ${stoppedAt})` })).toBeVisible();
  expect(await probe(page)).toEqual(collapsed); // every probability, and as many
  expect(await iteration(page)).toBe(stoppedAt);
  expect(await curve()).toEqual(trained);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Brought back the policy before the undo' })).toBeVisible();
  expect(await probe(page)).toEqual(restored);
  // Reset, then Undo: the restored policy comes back exactly.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(() => iteration(page)).toBe(0);
  // What was said about the replaced policy goes with it.
  await expect(page.getByRole('note').filter({ hasText: 'Loaded the shipped pretrained policy' })).toHaveCount(0);
  await expect(page.getByRole('note').filter({ hasText: 'Reset: a fresh random policy' })).toBeVisible();
  const fresh = await probe(page);
  expect(fresh.some((p, i) => Math.abs(p - (restored[i] as number)) > 1e-3)).toBe(true);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('note').filter({ hasText: 'Brought back the policy before Reset' })).toBeVisible();
  const back = await probe(page);
  back.forEach((p, i) => expect(p).toBe(restored[i]));
  expect(shipped.length).toBe(back.length);
});

test('a refused value in a field shows the allowed range beside it and changes nothing; empty is never 0', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  await openSettings(page, 'Training');
  const lr = page.getByRole('spinbutton', { name: 'learning rate' });
  const before = page.url();
  await lr.fill(''); // the learning rate's floor is 1e-8: below it no weight could change
  await expect(page.getByRole('alert').filter({ hasText: 'learning rate: empty' })).toContainText('a number from 1e-8 to 1');
  await lr.fill('10');
  await expect(page.getByRole('alert').filter({ hasText: 'learning rate: 10 is out of range' })).toContainText('allowed 1e-8–1');
  await lr.blur();
  await expect(lr).toHaveValue('0.0015');
  // Left, the field shows the value in use again, and the message says the entry was refused (not stale "still").
  await expect(page.getByRole('alert').filter({ hasText: 'learning rate: 10 is out of range' })).toContainText('refused; it stays 0.0015');
  const b = page.getByRole('spinbutton', { name: 'B (tasks per iteration)' });
  await b.fill('0');
  await expect(page.getByRole('alert').filter({ hasText: 'B (tasks per iteration): 0 is out of range' })).toContainText('allowed 1–256');
  await b.fill('2.5');
  await expect(page.getByRole('alert').filter({ hasText: 'is not an integer' })).toBeVisible();
  await b.blur();
  await expect(b).toHaveValue('16');
  expect(page.url()).toBe(before); // nothing was applied
  await openSettings(page, 'Tools');
  const price = page.getByRole('spinbutton', { name: 'gpt-5 $/M in' });
  await price.fill('');
  await price.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'gpt-5 $/M in: empty' })).toContainText('refused; it stays 1.25');
  await expect(price).toHaveValue('1.25');
});

test('sizes past the memory bound are refused before anything is allocated: from a link, and from the fields; the page and the worker never disagree', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm&B=256&G=64');
  const refused = page.getByRole('alert').filter({ hasText: "The link's settings were not applied" });
  await expect(refused).toContainText(/B = 256, G = 64, 40 turns and a 64×2 policy need about \d+\.\d\d GiB .* up to 3\.00 GiB/);
  await openSettings(page, 'Training');
  const b = page.getByRole('spinbutton', { name: 'B (tasks per iteration)' });
  const g = page.getByRole('spinbutton', { name: 'G (rollouts per task)' });
  await expect(b).toHaveValue('16');
  await expect(g).toHaveValue('8');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBeGreaterThanOrEqual(1);
  // From the fields: G = 64 is fine alone; B = 256 with it is not, and the page goes back to what the worker runs.
  await g.fill('64');
  await expect.poll(() => page.url()).toContain('G=64');
  await b.fill('256');
  await expect(page.getByRole('alert').filter({ hasText: 'Not applied: B = 256, G = 64' })).toBeVisible();
  await expect(b).toHaveValue('16');
  await expect.poll(() => page.url()).not.toContain('B=256');
  const at = await iteration(page);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBe(at + 1);
  expect(errors).toEqual([]);
});

test('300 random clicks on Start, Pause, Step and Reset in 2 s: the worker coalesces them, the status says what it does, and the next Step is quick', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm');
  const names = ['Step', 'Reset', 'Start', 'Pause'];
  const t0 = Date.now();
  for (let i = 0; i < 300 && Date.now() - t0 < 2000; i++) {
    const name = names[(i * 7 + (i >> 3)) % 4] as string;
    const b = page.getByRole('button', { name, exact: true });
    if (await b.isVisible()) await b.click({ timeout: 200 }).catch(() => undefined);
  }
  console.log(`burst ended after ${Date.now() - t0} ms; worker: ${await page.getByTestId('worker-activity').innerText()}`);
  if (await page.getByRole('button', { name: 'Pause' }).isVisible()) await page.getByRole('button', { name: 'Pause' }).click();
  const settled = Date.now();
  await expect(page.getByTestId('worker-activity')).toHaveText('worker: idle', { timeout: 20_000 });
  console.log(`worker idle ${((Date.now() - settled) / 1000).toFixed(1)} s after the burst`);
  const shown = await iteration(page);
  const step = Date.now();
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page), { timeout: 10_000 }).toBe(shown + 1);
  console.log(`the next Step took ${((Date.now() - step) / 1000).toFixed(1)} s`);
  expect(errors).toEqual([]);
});

test('disabling every tool is refused as a whole: the page shows why and goes back to the catalog the worker trains on', async ({ page }) => {
  test.setTimeout(120_000);
  await openLab(page, '?backend=wasm');
  await openSettings(page, 'Tools');
  const boxes = page.getByRole('checkbox', { name: /^enable / });
  const n = await boxes.count();
  for (let i = 0; i < n; i++) {
    const box = boxes.nth(i);
    if (await box.isChecked()) {
      await box.click(); // not uncheck(): once the worker refuses, the page puts the box back on by itself
      await page.waitForTimeout(250); // each edit is configured on its own (120 ms debounce)
    }
  }
  await expect(page.getByRole('alert').filter({ hasText: 'Not applied' }).first()).toBeVisible({ timeout: 30_000 });
  const on = await boxes.evaluateAll((els) => els.filter((e) => (e as HTMLInputElement).checked).length);
  console.log(`after disabling all ${n} tools: ${on} still enabled; ${await page.getByRole('alert').filter({ hasText: 'Not applied' }).first().innerText()}`);
  expect(on).toBeGreaterThan(0);
  const at = await iteration(page);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBe(at + 1);
});

test('a backend switched at once after Pause, with an iteration still in flight, keeps the policy\'s count, its label and its weights', async ({ page }) => {
  await openLab(page, '?backend=cpu');
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBeGreaterThanOrEqual(2);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.getByRole('combobox', { name: 'backend' }).selectOption('wasm'); // while cpu's iteration in flight finishes
  await expect(page.getByRole('note').filter({ hasText: 'Switched to wasm' })).toBeVisible({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  const n = await iteration(page);
  expect(n).toBeGreaterThanOrEqual(2); // the count went to 0 here: a status posted mid-switch read a trainer that was gone
  expect((await metricSeries(page)).length).toBe(n); // counter and curves agree
  await expect(page.getByTestId('policy-origin')).toContainText(`trained on for ${n} iterations`);
});

test('leaving a page asks first only where iterations are neither kept by this browser nor exported', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const asked: string[] = [];
  page.on('dialog', (d) => asked.push(d.type()));
  const saved = () => page.evaluate(() => (window as unknown as { orchestraLab: { getState(): { browserSaved: { iteration: number } | null } } })
    .orchestraLab.getState().browserSaved?.iteration ?? null);
  await page.reload(); // nothing trained here: the shipped policy comes back on its own
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 60_000 });
  expect(asked).toEqual([]);
  // A Step is kept by this browser at once: a reload loses nothing and does not ask.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => iteration(page)).toBe(1);
  await expect.poll(saved).toBe(1);
  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 60_000 });
  expect(asked).toEqual([]);
  await expect.poll(() => iteration(page)).toBe(1);
  // Training: the browser keeps a copy every few seconds, so the latest iterations are not kept yet: it asks.
  await page.getByRole('button', { name: 'Start', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBeGreaterThan(5);
  await page.reload(); // asked (the helper accepts: the test goes on)
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 60_000 });
  expect(asked).toEqual(['beforeunload']);
});
