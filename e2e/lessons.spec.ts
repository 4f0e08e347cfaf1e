// A lab a class can follow, walked as a new user would: the first screen's step 1 works at 1280×800
// without scrolling, in plain words; every lesson, at 1280×800 and at 1920×1080, quotes only numbers
// that are on screen at that moment and at their precision, ends with what it talks about in view and
// not under its box, waits for what it asks, names the buttons on screen, and puts back what it changed.
import { expect, test, type Page } from '@playwright/test';
import { openLab, slowMotionTo, watchErrors } from './helpers';

/** The numbers a text quotes: money, decimals (with an exponent), percentages; not bare counts nor names (qwen2.5). */
const NUMBER = /(?<![\w.])(?:\$\d+(?:\.\d+)?|[−-]?\d+\.\d+(?:e[−+-]?\d+)?%?|\d+%)/g;
const numbers = (text: string): string[] => text.match(NUMBER) ?? [];

const dock = (page: Page) => page.getByTestId('lesson-dock');
const PLOT = '[data-testid="tradeoff"] .chart-fill', POINT = '[data-testid="operating-point"]';
const phaseBox = (k: number) => `[data-testid="phase-${k}"]`;
const pointLine = (page: Page) => page.getByTestId('operating-point').innerText();
const slowMotion = (page: Page) => page.getByRole('tabpanel').getByRole('button', { name: 'Slow motion', exact: true });

/** The lesson's text once it is complete. */
async function explanation(page: Page, n: number): Promise<string> {
  await expect(dock(page)).toContainText('Lesson complete', { timeout: 90_000 });
  const text = (await dock(page).locator('p').nth(1).innerText()).replace(/\s+/g, ' ');
  console.log(`lesson ${n}: ${text.slice(0, 600)}`);
  expect(text).not.toMatch(/NaN|undefined|\?/);
  return text;
}

/** Every number the lesson quotes is one of those on screen in `places` (as they show it), and it quotes some. */
async function quotesOnlyShown(page: Page, text: string, places: string[]): Promise<void> {
  const shown = new Set((await Promise.all(places.map((p) => page.locator(p).first().innerText()))).flatMap(numbers));
  const quoted = numbers(text);
  expect(quoted.length).toBeGreaterThanOrEqual(2);
  expect(quoted.filter((q) => !shown.has(q)), `not on screen: ${[...shown].join(' ')}`).toEqual([]);
}

/** What of `selectors` is out of view or under the lesson box (empty: all in view and uncovered); `underOnly`: only the box. */
const hidden = (page: Page, selectors: string[], underOnly = false): Promise<string[]> => page.evaluate(([sels, onlyBox]) => {
  const d = document.querySelector('[data-testid="lesson-dock"]')?.getBoundingClientRect();
  const [vw, vh] = [document.documentElement.clientWidth, window.innerHeight];
  return sels.flatMap((sel) => {
    const els = [...document.querySelectorAll(sel)];
    if (els.length === 0) return [`${sel}: not on the page`];
    return els.flatMap((el) => {
      const r = el.getBoundingClientRect(), out: string[] = [];
      if (!onlyBox && (r.top < -0.5 || r.left < -0.5 || r.bottom > vh + 0.5 || r.right > vw + 0.5)) {
        out.push(`${sel}: out of view (${[r.left, r.top, r.right, r.bottom].map(Math.round).join(', ')})`);
      }
      const under = d && r.left < d.right && d.left < r.right && r.top < d.bottom && d.top < r.bottom;
      if (under) out.push(`${sel}: under the lesson box`);
      return out;
    });
  });
}, [selectors, underOnly] as const);

async function inViewUncovered(page: Page, selectors: string[], shot?: string): Promise<void> {
  await expect.poll(() => hidden(page, selectors), { timeout: 10_000 }).toEqual([]);
  if (shot) await page.screenshot({ path: test.info().outputPath(`${shot}.png`) });
}

/** The tabs' labels (Export / Import among them) are never under the lesson box. */
const TAB_LABELS = '[role="tablist"] [role="tab"]';
async function tabsUncovered(page: Page): Promise<void> {
  await expect.poll(() => hidden(page, [TAB_LABELS], true), { timeout: 10_000 }).toEqual([]);
}

/** Slow motion's phase k: its title and words on screen and not under the box (a tall phase's tables may run below). */
const phaseInView = (page: Page, k: number): Promise<void> => inViewUncovered(page, [`${phaseBox(k)} > h3`, `${phaseBox(k)} > p`]);

/** Slow motion from phase 1 to phase k (or from the phase on show), each phase checked in view as it comes. */
async function stepPhasesInView(page: Page, k: number): Promise<void> {
  const counter = page.getByTestId('phase-counter');
  // Not in slow motion, or its iteration has gone through all 8 phases: a new iteration.
  if (await slowMotion(page).isVisible()) await slowMotion(page).click();
  await expect(counter).toContainText(/Phase \d of 8/, { timeout: 30_000 });
  let at = Number(/Phase (\d) of 8/.exec(await counter.innerText())?.[1]);
  await phaseInView(page, at);
  while (at < k) {
    await page.getByRole('button', { name: 'Next phase' }).click();
    at += 1;
    await expect(page.getByTestId(`phase-${at}`)).toBeVisible({ timeout: 30_000 });
    await phaseInView(page, at);
  }
}

/** From a complete lesson to the next, with its "Next lesson" button, as a class goes. */
async function nextLesson(page: Page, n: number): Promise<void> {
  await page.getByRole('button', { name: /^Next lesson: / }).click();
  await expect(dock(page)).toContainText(`Lesson ${n}`);
  await tabsUncovered(page);
}

async function startLesson(page: Page, n: number): Promise<void> {
  await page.getByRole('tab', { name: 'Lessons' }).click();
  await page.getByRole('button', { name: new RegExp(`^Start lesson ${n}:`) }).click();
  await expect(dock(page)).toContainText(`Lesson ${n}`);
}

/** The hint of a lesson whose group cannot show what it is about: finish this iteration, then the next one. */
const ANOTHER_GROUP = /press "Next phase" until this iteration ends \(phase 8\), then "Slow motion" for the next iteration \(another group\)/;

/** From phase k, what the hint says: Next phase to the iteration's end, then Slow motion; phase 1 of the next iteration. */
async function nextIteration(page: Page, k: number): Promise<void> {
  for (let i = k + 1; i <= 8; i++) await page.getByRole('button', { name: 'Next phase' }).click();
  await expect(page.getByTestId('phase-counter')).toContainText('all 8 phases', { timeout: 30_000 });
  await slowMotion(page).click();
  await expect(page.getByTestId('phase-counter')).toContainText('Phase 1 of 8', { timeout: 30_000 });
}

/**
 * Steps slow motion to phase k until the lesson completes, every phase in view and uncovered as it comes;
 * where the lesson says how to get another group, does exactly that (and where it says nothing, the same).
 */
async function slowMotionUntilComplete(page: Page, k: number, followed: string[]): Promise<void> {
  await stepPhasesInView(page, k);
  for (let tries = 0; tries < 12; tries++) {
    await page.waitForTimeout(300);
    if (await dock(page).getByText('Lesson complete').isVisible()) return;
    const hint = await dock(page).getByTestId('lesson-hint').innerText().catch(() => '');
    if (hint) {
      expect(hint).toMatch(ANOTHER_GROUP);
      followed.push(hint);
    }
    await nextIteration(page, k);
    await stepPhasesInView(page, k);
  }
  await expect(dock(page)).toContainText('Lesson complete');
}

test('the first screen at 1280×800: step 1 works without scrolling; GRPO spelled out where it first appears; '
  + 'a short backend badge with its details in a tooltip; every baseline family and both accuracies say what they are',
async ({ page }) => {
  await openLab(page);
  const step1 = page.locator('.first-steps > li').first();
  await expect(step1).not.toContainText('below');
  // The sliders and presets of step 1, and the ★ they move, are on screen as the page opens.
  const inView = async (box: { x: number; y: number; width: number; height: number } | null) =>
    expect(box && box.y >= 0 && box.y + box.height <= 800 && box.x >= 0 && box.x + box.width <= 1280).toBe(true);
  for (const name of ['Outcome weight', 'Cost weight', 'Latency weight']) {
    await inView(await step1.getByRole('slider', { name }).boundingBox());
  }
  for (const name of ['Budget', 'Avoid API calls']) {
    await inView(await step1.getByRole('button', { name }).boundingBox());
  }
  await inView(await page.locator('.operating-star').boundingBox());
  const before = await pointLine(page);
  await step1.getByRole('slider', { name: 'Cost weight' }).fill('1');
  await expect.poll(() => pointLine(page), { timeout: 10_000 }).not.toBe(before);
  await inView(await page.locator('.operating-star').boundingBox());
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // GRPO, where it first appears: the page's title and its first paragraph.
  expect(await page.title()).toContain('Group Relative Policy Optimization (GRPO)');
  const body = await page.locator('body').innerText();
  expect(body.slice(0, body.indexOf('GRPO') + 4)).toMatch(/Group Relative Policy Optimization \(GRPO$/);
  // The first paragraph's ratio is the ratio of the costs it shows.
  const live = await page.locator('.first-screen .answer').innerText();
  const said = /at \$([\d.]+) each \(★\); GPT-5 with tools solves \d+% at \$([\d.]+) \(the ★ costs (\d+)% of that\)/;
  const [, star, tools, share] = said.exec(live) ?? [];
  expect(Number(share)).toBe(Math.round((100 * Number(star)) / Number(tools)));
  // The top bar says the backend and its speed; how it was chosen and every backend's figure are in its tooltip.
  const badge = page.locator('[data-backend]');
  const shown = (await badge.innerText()).replace(/\s+/g, ' ').trim();
  console.log(`backend badge: "${shown}"; its tooltip: ${await badge.getAttribute('title')}`);
  expect(shown).toMatch(/^(wasm|cpu|webgl|WebGPU)( software)? (≤ )?\d+(\.\d)? it\/s( Re-measure)?$/);
  await expect(badge).toHaveAttribute('title', /speed probe: wasm: .*webgpu/);
  // Each baseline family of the trade-off view says what it is.
  const legend = page.getByTestId('tradeoff').getByRole('list', { name: 'legend' });
  for (const family of ['repeat', 'notools', 'tools+model', 'prompted', 'cascade', 'greedy']) {
    const item = legend.getByRole('listitem').filter({ hasText: new RegExp(`^${family.replace('+', '\\+')}$`) });
    const form = family.replace('+model', '+X').replace('+', '\\+');
    await expect(item).toHaveAttribute('title', new RegExp(`^${form}.{30,}`));
  }
  // Training accuracy (the rollouts) and held-out accuracy (the ★) are named apart.
  await expect(page.getByTestId('chart-accuracy').locator('figcaption')).toContainText('Training accuracy (rollouts)');
  await expect(page.getByTestId('operating-point')).toContainText('held-out accuracy');
  const axis = page.getByTestId('tradeoff').locator('.axis-label');
  await expect(axis.filter({ hasText: 'held-out accuracy' })).toHaveCount(1);
});

test('where a group cannot show what lesson 3 is about, the lesson says which buttons on screen give another group, and they do',
  async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page);
  // At Budget's P (lesson 1), the shipped policy's first slow-motion group at the default seed has a single success
  // (7 of 8 fail: the group lesson 2 shows in the walk), and the lesson asks for another. Should a group show what it
  // is about, the lesson completes, and it is started again on the next iteration's group.
  await startLesson(page, 1);
  await page.getByRole('button', { name: 'Budget' }).click();
  await expect(dock(page)).toContainText('Lesson complete', { timeout: 90_000 });
  let hint = '';
  for (let tries = 0; tries < 8 && !hint; tries++) {
    await startLesson(page, 3);
    await slowMotionTo(page, 5);
    await page.waitForTimeout(300);
    hint = await dock(page).getByTestId('lesson-hint').innerText().catch(() => '');
    if (!hint) await nextIteration(page, 5);
  }
  console.log(`lesson 3's hint: ${hint}`);
  expect(hint).toMatch(ANOTHER_GROUP);
  // The buttons it names, in its order, give the next iteration, and another group (its costs differ).
  const it = Number(/iteration (\d+)/.exec(await page.getByTestId('phase-counter').innerText())?.[1]);
  const group = await page.getByTestId('phase-5').innerText();
  await nextIteration(page, 5);
  expect(Number(/iteration (\d+)/.exec(await page.getByTestId('phase-counter').innerText())?.[1])).toBe(it + 1);
  for (let i = 2; i <= 5; i++) await page.getByRole('button', { name: 'Next phase' }).click();
  await expect(page.getByTestId('phase-5')).toBeVisible({ timeout: 30_000 });
  expect(await page.getByTestId('phase-5').innerText()).not.toBe(group);
});

test('lesson 5 right after lesson 1 sets up its own start and says so, with no correction before the student acts', async ({ page }) => {
  test.setTimeout(120_000);
  await openLab(page);
  await startLesson(page, 1);
  await page.getByRole('button', { name: 'Budget' }).click(); // lesson 1 leaves P at Budget's
  await expect(dock(page)).toContainText('Lesson complete', { timeout: 90_000 });
  await startLesson(page, 5);
  await expect(page.getByRole('note').filter({ hasText: /^Lesson 5 starts from the default preference/ })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Cost weight' })).toHaveValue('0.5');
  await page.waitForTimeout(1000); // a hint, were there one, would show by now
  await expect(dock(page).getByTestId('lesson-hint')).toHaveCount(0);
  await expect(dock(page)).toContainText('Press the instruction preset "Avoid API calls"');
});

for (const [w, h, query] of [[1280, 800, ''], [1920, 1080, '?classroom=1']] as const) {
  test(`lessons 1 → 7 with "Next lesson" at ${w}×${h}${query ? ' (classroom)' : ''}: its numbers are the screen's, at the `
    + 'screen\'s precision; it waits for what it asks; every slow-motion phase and its subject in view, not under its box, '
    + 'nor the tabs\' labels; it puts back what it changed', async ({ page }) => {
    test.setTimeout(600_000);
    const errors = watchErrors(page);
    await page.setViewportSize({ width: w, height: h });
    await openLab(page, query);
    const at = `${w}x${h}`;
    const followed: string[] = [];
    // 1. Why orchestrate: a preset moves the ★; the lesson quotes the first paragraph and the sliders.
    await startLesson(page, 1);
    await page.getByRole('button', { name: 'Budget' }).click();
    const one = await explanation(page, 1);
    await quotesOnlyShown(page, one, ['.first-screen']);
    await inViewUncovered(page, ['.first-screen .answer', 'input[aria-label="Cost weight"]', PLOT], `lesson-1-${at}`);
    // 2. Outcome gating, at phase 5.
    await nextLesson(page, 2);
    await slowMotionUntilComplete(page, 5, followed);
    await quotesOnlyShown(page, await explanation(page, 2), [phaseBox(5)]);
    await inViewUncovered(page, [phaseBox(5)], `lesson-2-${at}`);
    // 3. Normalisation, at phase 5 (where a group has no two successes, the lesson says what to press).
    await nextLesson(page, 3);
    await slowMotionUntilComplete(page, 5, followed);
    await quotesOnlyShown(page, await explanation(page, 3), [phaseBox(5)]);
    await inViewUncovered(page, [phaseBox(5)], `lesson-3-${at}`);
    // 4. The advantage, at phase 6.
    await nextLesson(page, 4);
    await slowMotionUntilComplete(page, 6, followed);
    await quotesOnlyShown(page, await explanation(page, 4), [phaseBox(6)]);
    await inViewUncovered(page, [phaseBox(6)], `lesson-4-${at}`);
    // The finished lesson's box stays off what comes next: phases 7 and 8 of the same iteration.
    await stepPhasesInView(page, 8);
    await tabsUncovered(page);
    // 5. Preference following. P is Budget's already (lesson 1): the lesson sets up its own start, the
    // default P, and says so, with no correction before the student acts; then it waits for "Avoid API
    // calls" and "Budget", in that order, and quotes what the ★'s line showed for each.
    await nextLesson(page, 5);
    await expect(page.getByRole('note').filter({ hasText: 'Lesson 5 starts from the default preference (outcome 1, cost 0.5, '
      + 'latency 0.5); the sliders were at outcome 1 · cost 1 · latency 0.25' })).toBeVisible();
    await expect(page.getByRole('slider', { name: 'Cost weight' })).toHaveValue('0.5');
    await page.waitForTimeout(500); // a hint, were there one, would show by now
    await expect(dock(page).getByTestId('lesson-hint')).toHaveCount(0);
    const start = await pointLine(page);
    await page.getByRole('button', { name: 'Avoid API calls' }).click();
    await expect.poll(() => pointLine(page), { timeout: 15_000 }).not.toBe(start);
    const api = await pointLine(page);
    await expect(dock(page).getByTestId('lesson-hint')).toContainText('Now press "Budget"');
    await quotesOnlyShown(page, await dock(page).getByTestId('lesson-hint').innerText(), [POINT]);
    await expect(dock(page)).not.toContainText('Lesson complete');
    await page.getByRole('button', { name: 'Budget' }).click();
    await expect.poll(() => pointLine(page), { timeout: 15_000 }).not.toBe(api);
    const five = await explanation(page, 5);
    const shownNumbers = new Set([...numbers(api), ...numbers(await pointLine(page))]);
    expect(numbers(five).filter((q) => !shownNumbers.has(q))).toEqual([]);
    await inViewUncovered(page, ['[data-region="prefs"] .presets', PLOT, POINT], `lesson-5-${at}`);
    // 6. Weighted sum against the paper's reward: stopped after 60 iterations, read from the summary.
    await nextLesson(page, 6);
    await page.getByRole('combobox', { name: 'Comparison' }).selectOption('reward');
    await page.getByRole('button', { name: 'Start comparison' }).click();
    // The seed furthest behind ("seed 1: 61/120 · seed 2: 61/120 · seed 3: 60/120").
    const progress = async () => {
      const done = [...(await page.getByTestId('compare-progress').innerText()).matchAll(/seed \d+: (\d+)\//g)];
      return done.length ? Math.min(...done.map((m) => Number(m[1]))) : 0;
    };
    await expect.poll(progress, { timeout: 240_000, intervals: [1000] }).toBeGreaterThanOrEqual(60);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await quotesOnlyShown(page, await explanation(page, 6), ['[data-testid="compare-runs"]']);
    const compared = ['[data-testid="compare-runs"] .charts-grid', '[data-testid="compare-conclusion"]'];
    await inViewUncovered(page, compared, `lesson-6-${at}`);
    // 7. μ = 4 for this lesson only: in the link while it runs, put back when its iteration ends.
    await nextLesson(page, 7);
    await expect.poll(() => new URL(page.url()).searchParams.get('mu')).toBe('4');
    await slowMotionUntilComplete(page, 7, followed);
    await quotesOnlyShown(page, await explanation(page, 7), [phaseBox(7)]);
    await inViewUncovered(page, [phaseBox(7)], `lesson-7-${at}`);
    const putBack = dock(page).getByTestId('lesson-put-back');
    await expect(putBack).toContainText('Back to μ = 2 once this slow-motion iteration ends');
    await page.getByRole('button', { name: 'Next phase' }).click();
    await expect(page.getByTestId('phase-counter')).toContainText('all 8 phases', { timeout: 30_000 });
    await expect.poll(() => new URL(page.url()).searchParams.get('mu')).toBeNull();
    await expect(putBack).toContainText('Back to μ = 2, as before the lesson');
    console.log(`hints followed: ${followed.length ? followed.join(' | ') : 'none'}`);
    // Progress is kept in the browser.
    await page.reload();
    await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
    await page.getByRole('tab', { name: 'Lessons' }).click();
    await expect(page.getByText('7 of 7 complete')).toBeVisible();
    expect(errors).toEqual([]);
  });
}

for (const [w, h, query] of [[1280, 800, ''], [1920, 1080, '?classroom=1']] as const) {
  test(`"Next lesson" from lesson 1 to lesson 2 at ${w}×${h}: every slow-motion phase comes into view, its words not under the lesson box`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width: w, height: h });
    await openLab(page, query);
    await startLesson(page, 1);
    await page.getByRole('button', { name: 'Budget' }).click();
    await expect(dock(page)).toContainText('Lesson complete', { timeout: 90_000 });
    await page.getByRole('button', { name: /^Next lesson: / }).click();
    await expect(dock(page)).toContainText('Lesson 2');
    await slowMotion(page).click();
    for (let k = 1; k <= 8; k++) {
      await expect(page.getByTestId(`phase-${k}`)).toBeVisible({ timeout: 60_000 });
      // The phase's title and its words: on screen, not under the box (a tall phase's tables may run below).
      await inViewUncovered(page, [`${phaseBox(k)} > h3`, `${phaseBox(k)} > p`], `next-lesson-phase-${k}-${w}`);
      if (k < 8) await page.getByRole('button', { name: 'Next phase' }).click();
    }
  });
}
