// Slow motion that a student can redo by hand: the ranges behind M̃ with the digits that tell min
// from max, the sentence when a tiny difference decides it, phase 8 saying why a trajectory moved
// against its advantage, one iteration counter; and tables that fit their box in classroom mode
// at 1920×1080 (or, at 1280×800, scroll with a visible cue).
import { expect, test, type Page } from '@playwright/test';
import { iteration, openLab } from './helpers';

/** Runs slow motion through phase k of a new iteration (from the Slow motion tab). */
async function slowMotionTo(page: Page, k: number): Promise<void> {
  await page.getByRole('tabpanel').getByRole('button', { name: 'Slow motion' }).click();
  await expect(page.getByTestId('phase-1')).toBeVisible({ timeout: 30_000 });
  for (let i = 2; i <= k; i++) {
    await page.getByRole('button', { name: 'Next phase' }).click();
    await expect(page.getByTestId(`phase-${i}`)).toBeVisible({ timeout: 30_000 });
  }
}

/** Every table box in a region: its width, its table's width, and whether it shows the scroll cue. */
const boxes = (page: Page, selector: string) => page.locator(selector).evaluateAll((els) => els.map((el) => ({
  caption: el.querySelector('caption')?.textContent ?? el.closest('[aria-label]')?.getAttribute('aria-label') ?? '',
  box: el.clientWidth, table: el.scrollWidth, cue: !!el.querySelector('.scroll-cue'),
})));

test('slow motion reconciles by hand: min, max and max − min per dimension, tiny ranges named, phase 8 explains, one counter', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  await page.getByRole('slider', { name: 'Cost weight' }).fill('1');
  await page.getByRole('button', { name: 'Train from scratch' }).click();
  await expect.poll(() => iteration(page), { timeout: 30_000 }).toBeGreaterThan(3);
  await page.getByRole('button', { name: 'Pause' }).click();
  // The iterations in flight at Pause land first (seen: two, 11 → 13): read the count once the worker is idle.
  await expect(page.getByRole('status', { name: 'training status' })).toContainText('worker: idle', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  let explained = false;
  for (let tries = 0; tries < 12 && !explained; tries++) {
    const done = await iteration(page);
    await slowMotionTo(page, 4);
    // One counter: slow motion names the iteration in progress and the top bar's count of those done.
    await expect(page.getByTestId('phase-counter')).toContainText(`iteration ${done + 1} in progress (${done} done`);
    const cells = await page.getByTestId('phase-4').locator('table').first().evaluate((t) =>
      [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '')));
    // Dimensions across (min, max and max − min as rows) or, transposed to fit, down.
    const across = cells.some((r) => r[0] === 'min');
    const ranges = across ? cells : (cells[0] ?? []).map((_, j) => cells.map((r) => r[j] ?? ''));
    const label = (r: string[]) => r[0] ?? '';
    const [head, min, max, diff] = [ranges[0]!, ranges.find((r) => label(r) === 'min')!, ranges.find((r) => label(r) === 'max')!,
      ranges.find((r) => label(r) === 'max − min')!];
    expect(diff, 'a max − min row').toBeTruthy();
    for (let k = 1; k < head.length; k++) {
      const lo = Number((min[k] ?? '').replace('−', '-')), hi = Number((max[k] ?? '').replace('−', '-'));
      const d = Number((diff[k] ?? '').replace('−', '-'));
      // A student redoes the divisor from what is shown: min and max differ exactly when the range is not 0.
      expect(d === 0, `${head[k]}: min ${min[k]} max ${max[k]} range ${diff[k]}`).toBe(min[k] === max[k]);
      expect(Math.abs(hi - lo - d), `${head[k]}`).toBeLessThanOrEqual(Math.max(1e-4, 0.06 * Math.abs(d)));
    }
    const p4 = await page.getByTestId('phase-4').innerText();
    if (/too little to matter/.test(p4)) expect(p4).toContain('Min–max normalisation amplifies any difference');
    for (let i = 5; i <= 8; i++) await page.getByRole('button', { name: 'Next phase' }).click();
    await expect(page.getByTestId('phase-8')).toBeVisible({ timeout: 30_000 });
    const p8 = await page.getByTestId('phase-8').locator('p').first().innerText();
    const m = /(\d+) of (\d+) with A > 0 rose and (\d+) of (\d+) with A < 0 fell/.exec(p8);
    if (!m) continue; // a filtered group: nothing of its own moved
    const against = Number(m[2]) - Number(m[1]) + Number(m[4]) - Number(m[3]);
    if (against > 0) {
      expect(p8).toMatch(/went against its A, and the update allows it: it follows the gradient of the whole batch, \d+ decisions/);
      expect(p8).toMatch(/\d+ of this group's \d+ decisions moved past the clip/);
      explained = true;
    }
    await expect(page.getByTestId('phase-counter')).toContainText(`Iteration ${done + 1} done`);
    await expect.poll(() => iteration(page)).toBe(done + 1);
  }
  console.log(`phase 8 explained a move against A: ${explained}`);
});

test('classroom mode at 1920×1080: every slow-motion and inspector table fits its box; at 1280×800 none hides a column without a cue', async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1920, height: 1080 });
  await openLab(page, '?backend=wasm&classroom=1');
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  await slowMotionTo(page, 8);
  const slow = await boxes(page, '.slowmo .table-wrap');
  console.log('classroom 1920×1080, slow motion:', JSON.stringify(slow));
  expect(slow.length).toBeGreaterThanOrEqual(7);
  for (const b of slow) expect(b.table, b.caption).toBeLessThanOrEqual(b.box + 1);
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const inspector = await boxes(page, '.inspector .table-wrap');
  console.log('classroom 1920×1080, inspector:', JSON.stringify(inspector));
  for (const b of inspector) expect(b.table, 'inspector').toBeLessThanOrEqual(b.box + 1);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/?backend=wasm');
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  await slowMotionTo(page, 8);
  await page.getByRole('tab', { name: 'Inspector' }).click();
  const small = [...await boxes(page, '.inspector .table-wrap')];
  await page.getByRole('tab', { name: 'Slow motion' }).click();
  small.push(...await boxes(page, '.slowmo .table-wrap'));
  console.log('1280×800:', JSON.stringify(small));
  for (const b of small) expect(b.table <= b.box + 1 || b.cue, `${b.caption}: hidden columns without a cue`).toBe(true);
});
