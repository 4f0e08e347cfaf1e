import { expect, test, type Page } from '@playwright/test';
import { slotsOf } from '../src/core/sim/slots';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import * as tf from '@tensorflow/tfjs-core';
import { initNodeBackend } from '../src/cli/tfBackend';
import { importArtifact } from '../src/core/io/artifact';
import { probeProbabilities } from '../src/core/policy/probe';
import { routingMetrics } from '../src/core/eval/frontier';
import { iteration, openLab, openSettings, probe, watchErrors } from './helpers';

const operatingPoint = (page: Page) => page.getByTestId('operating-point').innerText();

test('moving "Cost weight" moves the operating point of the trade-off view', { tag: '@timing' }, async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const slider = page.getByRole('slider', { name: 'Cost weight' });
  const text = () => page.evaluate(() => document.querySelector('[data-testid=operating-point]')?.textContent ?? '');
  const beforeText = await text();
  const t0 = Date.now();
  await slider.fill('1');
  await page.waitForFunction((b) => document.querySelector('[data-testid=operating-point]')?.textContent !== b, beforeText, { polling: 20, timeout: 5_000 });
  const ms = Date.now() - t0;
  console.log(`trade-off view updated ${ms} ms after moving "Cost weight" (wasm, 250 held-out tasks)`);
  expect(ms).toBeLessThan(1000);
  const budget = await operatingPoint(page);
  await slider.fill('0');
  await expect.poll(() => operatingPoint(page), { timeout: 5_000 }).not.toBe(budget);
  const cost = (s: string) => Number(/at \$([\d.]+)/.exec(s)?.[1]);
  console.log(`operating point at cost weight 1: ${budget}; at 0: ${await operatingPoint(page)}`);
  expect(cost(await operatingPoint(page))).toBeGreaterThan(cost(budget));
});

test('under the operating point, how the held-out tasks ended: the parts add up, solved is its accuracy, and "Avoid API calls" keeps the answer', async ({ page }) => {
  await openLab(page, '?backend=wasm&suite=hle');
  const bar = page.getByTestId('failure-bar');
  await expect(bar).toBeVisible();
  const part = async (k: string) => Number(/([\d.]+)%/.exec(await page.getByTestId(`failure-${k}`).innerText())?.[1]);
  const parts = async () => Promise.all(['solved', 'wrongAnswer', 'missingEvidence', 'outOfTurns'].map(part));
  const before = await parts();
  expect(Math.abs(before.reduce((a, x) => a + x, 0) - 100)).toBeLessThan(0.25); // four shares rounded to 0.1
  const point = await operatingPoint(page);
  expect(before[0]).toBe(Number(/([\d.]+)% at/.exec(point)?.[1])); // solved = the operating point's accuracy
  await page.getByRole('button', { name: 'Avoid API calls' }).click();
  await expect.poll(() => operatingPoint(page), { timeout: 15_000 }).not.toBe(point);
  // The bar may render a moment after the point: read its parts once they add up to the new point's accuracy.
  const accuracy = async () => Number(/([\d.]+)% at/.exec(await operatingPoint(page))?.[1]);
  await expect.poll(async () => (await part('solved')) === (await accuracy()), { timeout: 5_000 }).toBe(true);
  const after = await parts();
  // The shipped policy was trained with the success-first reward: a preference moves calls, not the answer, and it does
  // not answer without the evidence a step needs any more often.
  expect(after[0]).toBeGreaterThan((before[0] as number) - 5);
  expect(after[2]).toBeLessThan((before[2] as number) + 3);
  console.log(`HLE, shipped policy: default ${before.join(' / ')}%; "Avoid API calls" ${after.join(' / ')}% (solved / answered wrong / without the evidence / out of turns)`);
});

test('the trade-off view quotes RouteLLM\'s APGR and CPT of the policy between the cheapest and the most accurate baseline', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const line = page.getByTestId('routing-metrics');
  await expect(line).toContainText('Routing (RouteLLM): APGR');
  type Pt = { label: string; family: string; cost: number; accuracy: number };
  const t = await page.evaluate(() => (window as unknown as { orchestraLab: { getState(): { tradeoff: { baselines: Pt[];
    sweep: Pt[]; current: Pt } } } }).orchestraLab.getState().tradeoff);
  // The references, picked here from the view's own baseline points: the cheapest and the most accurate of one model
  // working alone.
  const base = t.baselines.filter((p) => ['always', 'notools', 'tools+model'].includes(p.family));
  const weak = base.reduce((a, b) => (b.cost < a.cost || (b.cost === a.cost && b.accuracy > a.accuracy) ? b : a));
  const strong = base.reduce((a, b) => (b.accuracy > a.accuracy || (b.accuracy === a.accuracy && b.cost < a.cost) ? b : a));
  const m = routingMetrics([...t.sweep, t.current], weak, strong);
  const text = await line.innerText();
  expect(text).toContain(`APGR ${(m.apgr as number).toFixed(2)}, the share of the gap between`);
  for (const ref of [weak, strong]) expect(text.toLowerCase()).toContain(ref.label.replace(/^(always:|tools\+)/, '')); // each named
  // The shares are padded with figure spaces to the width of "100%" (the line keeps its length as they move).
  expect(text).toMatch(new RegExp(`Half the gap at\\s+${Math.round(100 * (m.cpt50 as number))}% of the way`));
  expect(text).toMatch(new RegExp(`80% at\\s+${Math.round(100 * (m.cpt80 as number))}%\\.`));
  console.log(`routing, shipped policy on the training distribution: ${text}`);
});

test('the trade-off view puts latency or the share of API calls on its x-axis; "Avoid API calls" moves the operating point left on it', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  const view = page.getByTestId('tradeoff');
  await expect(view).toContainText('mean cost per task');
  await view.getByRole('radio', { name: 'latency' }).check();
  await expect(view).toContainText('mean latency per task');
  await view.getByRole('radio', { name: 'API calls' }).check();
  await expect(view).toContainText('share of calls to paid APIs');
  const share = (s: string) => Number(/, (\d+)% API calls/.exec(s)?.[1]);
  const before = share(await operatingPoint(page));
  await view.getByRole('radio', { name: 'cost' }).check();
  // A preset puts on the x-axis what it acts on: the share of API calls, latency, cost.
  await page.getByRole('button', { name: 'Avoid API calls' }).click();
  await expect(view.getByRole('radio', { name: 'API calls' })).toBeChecked();
  await expect.poll(async () => share(await operatingPoint(page)), { timeout: 10_000 }).toBeLessThan(before);
  console.log(`API-call share of the operating point: default ${before}%, "Avoid API calls" ${share(await operatingPoint(page))}%`);
  await page.getByRole('button', { name: 'Fast' }).click();
  await expect(view.getByRole('radio', { name: 'latency' })).toBeChecked();
  await expect(view).toContainText('mean latency per task');
  await page.getByRole('button', { name: 'Budget' }).click();
  await expect(view.getByRole('radio', { name: 'cost' })).toBeChecked();
  // The held-out tasks can be a benchmark suite; the URL keeps the choice.
  await view.getByLabel('held-out tasks').selectOption('hle');
  await expect(view).toContainText(/held-out \d+ HLE-like tasks/, { timeout: 15_000 });
  await expect.poll(() => page.url()).toContain('suite=hle');
});

test('random P per task under the paper\'s reward says what it costs the presets and takes the shipped policy’s recipe in one click', async ({ page }) => {
  // Another schedule to begin with, so that the recipe's own (0 by iteration 3000) shows that the click set it.
  await openLab(page, '?backend=wasm&lrTo0=500');
  const note = page.getByTestId('random-p-reward-note');
  await expect(note).toHaveCount(0);
  await page.getByRole('radio', { name: /random P per task/ }).check();
  await expect(note).toContainText('success-first');
  await note.getByRole('button', { name: 'Use that recipe' }).click();
  await expect(note).toHaveCount(0);
  await expect.poll(() => page.url()).toContain('reward=success-first');
  // The recipe's schedule, 0 by iteration 3000, is the lab's default one: the link leaves it out, the recipe line says it.
  expect(page.url()).not.toContain('lrTo0=');
  await expect(page.getByTestId('recipe-line')).toContainText('lr 0.0015 → 0 by iteration 3000');
  expect(page.url()).toContain('std=0');
  await openSettings(page, 'Training');
  await expect(page.getByRole('combobox', { name: 'reward mode' })).toHaveValue('success-first');
});

test('the formula panel shows the reward and advantage the values beside it were computed with', async ({ page }) => {
  await openLab(page, '?backend=wasm&reward=success-first&std=0');
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  const formulas = page.getByRole('region', { name: 'Formulas' });
  // Before any iteration: the settings' (the next iteration's) formulas.
  await expect(formulas).toContainText('Reward (success first)');
  await expect(formulas).toContainText('Group-relative advantage (no std division)');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBe(1);
  // Another reward for the next iteration: the panel keeps the one its values came from until an iteration runs with the new one.
  await openSettings(page, 'Training');
  await page.getByRole('combobox', { name: 'reward mode' }).selectOption('toolorchestra');
  await expect.poll(() => page.url()).not.toContain('reward=');
  await page.keyboard.press('Escape');
  await expect(formulas).toContainText('Reward (success first)');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBe(2);
  await expect(formulas).not.toContainText('success first');
  await expect(formulas).toContainText('Reward.');
});

test('the "Paper vs lab" tab shows the paper’s Table 1 beside the lab’s numbers for the current policy', async ({ page }) => {
  await openLab(page, '?backend=wasm');
  await page.getByRole('tab', { name: 'Paper vs lab' }).click();
  const view = page.getByTestId('paper-vs-lab');
  const row = view.locator('tr', { hasText: 'tools+gpt-5' });
  await expect(row).toBeVisible({ timeout: 30_000 });
  await expect(row).toContainText('35.1'); // the paper's HLE column
  await expect(view.locator('thead')).toContainText('lab');
  await expect(view.locator('thead')).toContainText('paper');
  const cells = await view.locator('tr', { hasText: 'orchestrator' }).first().locator('td.num').allInnerTexts();
  console.log(`Paper vs lab, this policy: ${cells.join(' | ')}`);
  expect(cells.length).toBe(10);
  expect(Number(cells[0])).toBeGreaterThan(0); // the lab's HLE accuracy, computed live
  expect(cells[1]).toBe('37.1'); // the paper's Orchestrator-8B on HLE
});

test('export downloads both files; they import back with the same action probabilities, in the browser and in Node; a corrupt import is refused and training continues', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(1);
  const original = await probe(page);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const downloads: Record<string, string> = {};
  mkdirSync('test-results/export', { recursive: true });
  const wait = page.waitForEvent('download');
  const wait2 = new Promise<void>((resolve) => {
    let n = 0;
    page.on('download', async (d) => {
      const path = `test-results/export/${d.suggestedFilename()}`;
      await d.saveAs(path);
      downloads[d.suggestedFilename()] = path;
      if (++n === 2) resolve();
    });
  });
  await page.getByRole('button', { name: 'Export weights' }).click();
  await wait;
  await wait2;
  expect(Object.keys(downloads).sort()).toEqual(['orchestrator.json', 'orchestrator.weights.bin']);

  // Node loads the same files and gets the same probabilities (cpu backend vs wasm in the browser).
  await initNodeBackend('cpu');
  const loaded = importArtifact(JSON.parse(readFileSync(downloads['orchestrator.json'] as string, 'utf8')), new Uint8Array(readFileSync(downloads['orchestrator.weights.bin'] as string)));
  if (!loaded.ok) throw new Error(loaded.error);
  const node = await probeProbabilities(loaded.net, slotsOf(loaded.catalog).length);
  loaded.net.dispose();
  expect(tf.memory().numTensors).toBe(0);
  node.forEach((p, i) => expect(Math.abs(p - (original[i] as number))).toBeLessThan(1e-5));

  // The run's metrics as CSV: a header and one row per iteration.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Metrics CSV' }).click()]);
  await csv.saveAs('test-results/export/metrics.csv');
  const rows = readFileSync('test-results/export/metrics.csv', 'utf8').trim().split('\n');
  expect(rows[0]).toMatch(/^iteration,meanReward,accuracy,meanCostUSD/);
  expect(rows).toHaveLength(2);

  // Reset to a random policy, then import the files back: the probabilities return.
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(async () => (await probe(page))[0]).not.toBe(original[0]);
  await page.getByTestId('import-files').setInputFiles([downloads['orchestrator.json'] as string, downloads['orchestrator.weights.bin'] as string]);
  await expect(page.getByRole('note').filter({ hasText: 'Imported policy' }).last()).toBeVisible();
  await expect(page.getByRole('note').filter({ hasText: 'Imported policy' }).last()).toContainText('for 1 iteration (its file says so; the lab counts its own from 0)'); // the one iteration the export recorded
  expect(await probe(page)).toEqual(original);
  // Undo undoes the import, the last thing done: it offers the fresh network the import replaced (the
  // import's own reply says what Undo holds; keeps.spec.ts brings it back).
  await expect(page.getByRole('button', { name: 'Undo' })).toHaveAttribute('title', /before the import \(iteration 0\)/);

  // A corrupt file is refused with a message; the model keeps its weights and keeps training.
  writeFileSync('test-results/export/truncated.bin', readFileSync(downloads['orchestrator.weights.bin'] as string).subarray(0, 100));
  await page.getByTestId('import-files').setInputFiles([downloads['orchestrator.json'] as string, 'test-results/export/truncated.bin']);
  await expect(page.getByRole('alert').filter({ hasText: 'Import refused' })).toContainText('bytes, the manifest needs');
  expect(await probe(page)).toEqual(original);
  const at = await iteration(page);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(at + 1);
  expect(errors).toEqual([]);
});

test('the URL round-trips the configuration; an invalid URL falls back to defaults with a notice', async ({ page, context }) => {
  await openLab(page, '?backend=wasm');
  await page.getByRole('slider', { name: 'Latency weight' }).fill('0.75');
  await openSettings(page, 'Training');
  await page.getByRole('spinbutton', { name: 'G (rollouts per task)' }).fill('6');
  await page.getByRole('combobox', { name: 'reward mode' }).selectOption('weighted');
  await page.getByRole('radio', { name: /random P per task/ }).check();
  await expect.poll(() => page.url()).toContain('G=6');
  const url = page.url();
  expect(url).toContain('reward=weighted');
  expect(url).toContain('mode=random');
  expect(url).toContain('l0.75');
  const second = await context.newPage();
  await openLab(second, new URL(url).search);
  await expect(second.getByRole('slider', { name: 'Latency weight' })).toHaveValue('0.75');
  await openSettings(second, 'Training');
  await expect(second.getByRole('spinbutton', { name: 'G (rollouts per task)' })).toHaveValue('6');
  await expect(second.getByRole('combobox', { name: 'reward mode' })).toHaveValue('weighted');
  await expect(second.getByRole('radio', { name: /random P per task/ })).toBeChecked();
  const bad = await context.newPage();
  await openLab(bad, '?backend=wasm&G=banana&P=o7&zzz=1');
  await expect(bad.getByRole('note').filter({ hasText: 'Ignored invalid link settings (P; G = banana (allowed: an integer from 1 to 64)); using the defaults for those.' })).toContainText('Ignored link parameters the lab does not know (zzz).');
  await openSettings(bad, 'Training');
  await expect(bad.getByRole('spinbutton', { name: 'G (rollouts per task)' })).toHaveValue('8');
  // A stray % and tfjs's own debug flags: the page boots (tfjs does not load on the page, and its
  // worker never reads the page's URL) and names what it ignored.
  const odd = await context.newPage();
  const errors = watchErrors(odd);
  await openLab(odd, '?backend=wasm&note=100%&tfjsflags=DEBUG:true,WEBGL_VERSION:1');
  await expect(odd.getByRole('note').filter({ hasText: 'Ignored link parameters the lab does not know' })).toContainText('(note, tfjsflags)');
  await odd.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(odd)).toBe(1);
  expect(errors).toEqual([]);
});

test('the backend selector switches backend and keeps the policy and what Undo brings back; a bad catalog edit is refused; a policy whose logits would overflow is refused at import and the model keeps training', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  // Space toggles Start / Pause.
  await page.locator('body').press('Space');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await page.locator('body').press('Space');
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible();
  await page.waitForTimeout(1500);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(() => iteration(page)).toBe(0);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(1);
  const before = await probe(page);
  await page.getByRole('combobox', { name: 'Backend' }).selectOption('cpu');
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', 'cpu');
  const after = await probe(page);
  after.forEach((p, i) => expect(Math.abs(p - (before[i] as number))).toBeLessThan(1e-5));
  expect(await iteration(page)).toBe(1);
  expect(page.url()).toContain('backend=cpu');
  // Undo outlives the switch (before: the policy Reset replaced was dropped with the old backend).
  const undo = page.getByRole('button', { name: 'Undo' });
  const keptAt = Number(/before Reset \(iteration (\d+)\)/.exec((await undo.getAttribute('title')) ?? '')?.[1]);
  expect(keptAt).toBeGreaterThan(0);
  await undo.click();
  await expect.poll(() => iteration(page)).toBe(keptAt);

  // An invalid edit in the catalog editor: refused with the validator's message, value restored.
  await openSettings(page, 'Tools');
  const price = page.getByRole('spinbutton', { name: 'gpt-5 $/M in' });
  await price.fill('-1');
  await price.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'Catalog edit refused: gpt-5 $/M in: must be ≥ 0 — the catalog was not changed.' })).toBeVisible();
  await expect(price).toHaveValue('1.25');
  // A second refused edit replaces the first message instead of stacking another.
  await price.fill('1e9');
  await price.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'gpt-5 $/M in: must be at most 10,000 $/M tokens' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'the catalog was not changed' })).toHaveCount(1);
  // An edit that applies ends the refusal on show.
  await price.fill('1.5');
  await price.blur();
  await expect(page.getByRole('alert').filter({ hasText: 'the catalog was not changed' })).toHaveCount(0);
  await price.fill('1.25');
  await price.blur();

  // Finite but enormous weights (1e30) would overflow the logits: the import is refused with one message
  // naming the bound, and the current model keeps training.
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export weights' }).click()]);
  mkdirSync('test-results/huge', { recursive: true });
  await json.saveAs('test-results/huge/orchestrator.json');
  const manifest = JSON.parse(readFileSync('test-results/huge/orchestrator.json', 'utf8'));
  const floats = manifest.weightsManifest[0].weights.reduce((a: number, w: { shape: number[] }) => a + w.shape.reduce((x, y) => x * y, 1), 0);
  writeFileSync('test-results/huge/orchestrator.weights.bin', Buffer.from(new Float32Array(floats).fill(1e30).buffer));
  const kept = await probe(page);
  await page.getByTestId('import-files').setInputFiles(['test-results/huge/orchestrator.json', 'test-results/huge/orchestrator.weights.bin']);
  await expect(page.getByRole('alert').filter({ hasText: 'Import refused' }).last()).toContainText('within ±10000');
  await expect(page.getByRole('note').filter({ hasText: 'Imported policy' })).toHaveCount(0);
  const still = await probe(page);
  still.forEach((p, i) => expect(p).toBe(kept[i]));
  const at = await iteration(page);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(at + 1);
  await expect(page.getByRole('alert').filter({ hasText: 'Training stopped' })).toHaveCount(0);
});

test('a 64-tool catalog travels in the link\'s fragment: the server is never sent it, the page opens with all 64 tools', async ({ page }) => {
  const { defaultConfig, writeUrl } = await import('../src/store/urlState');
  const { presetCatalog } = await import('../src/core/sim/presets');
  const base = presetCatalog('toolorchestra');
  const g = base.tools[0] as (typeof base.tools)[number];
  const catalog = { ...base, tools: Array.from({ length: 64 }, (_, i) => ({ ...structuredClone(g), id: `model-${i}`, description: `model ${i}` })) };
  const link = writeUrl({ ...defaultConfig(), catalog, backend: 'wasm' });
  console.log(`link: ${link.length} characters, query ${link.indexOf('#')}`);
  const response = await page.goto(`/${link}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  await openSettings(page, 'Tools');
  await expect(page.getByRole('checkbox', { name: /^enable model-\d+$/ })).toHaveCount(64);
  await page.getByRole('button', { name: 'Share', exact: true }).click(); // Copy link is in the Share panel
  await page.getByRole('button', { name: 'Copy link' }).click();
  expect(new URL(page.url()).hash).toMatch(/^#catalog=/);
  expect(new URL(page.url()).search.length).toBeLessThan(100);
});
