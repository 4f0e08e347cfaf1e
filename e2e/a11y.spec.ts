// A page every student can use: axe-core on the built page finds no serious or critical violation on
// any tab, in the light and the dark theme and in classroom mode; and the whole loop works from the
// keyboard alone (Tab, Enter, arrows): train, open slow motion and step a phase, open a group's
// trajectory, browse the tasks, export and import a policy.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { openLab, saveDownloads } from './helpers';

/** The serious and critical violations axe finds on the page as it is now, one line each. */
async function seriousViolations(page: Page, onlyContrast: boolean): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  const r = await (onlyContrast ? builder.withRules(['color-contrast'])
    : builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])).analyze();
  return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Every tab's violations; `onlyContrast`: the colour contrast alone (the dark theme changes colours only, not the page). */
async function everyTab(page: Page, where: string, onlyContrast = false): Promise<string[]> {
  const found: string[] = [];
  const tabs = page.getByRole('tab');
  const names = await tabs.allInnerTexts();
  expect(names.length).toBeGreaterThan(3);
  found.push(...(await seriousViolations(page, onlyContrast)).map((v) => `${where}, first screen: ${v}`));
  for (const name of names) {
    await page.getByRole('tab', { name, exact: true }).click();
    await expect(page.getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
    found.push(...(await seriousViolations(page, onlyContrast)).map((v) => `${where}, ${name}: ${v}`));
  }
  return found;
}

test('axe: no serious or critical violation on any tab, in the light and dark themes and in classroom mode', async ({ page }) => {
  test.setTimeout(300_000);
  await openLab(page, '?backend=wasm');
  // Notices are read out as they come: their live region is on the page before the first one.
  await expect(page.locator('.notices')).toHaveAttribute('aria-live', 'polite');
  const found: string[] = [];
  for (const theme of ['light', 'dark']) {
    if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
      await page.getByRole('button', { name: theme === 'dark' ? 'Dark theme' : 'Light theme' }).click();
    }
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    found.push(...await everyTab(page, theme, theme === 'dark'));
  }
  await openLab(page, '?backend=wasm&classroom=1');
  found.push(...await everyTab(page, 'classroom'));
  console.log(`axe: ${found.length} serious or critical violations`);
  expect(found).toEqual([]);
});

/** Presses Tab until the focused element matches `pick` (at most `max` presses); fails if it never does. */
async function tabTo(page: Page, pick: (el: { role: string | null; name: string; tag: string }) => boolean, what: string, max = 250): Promise<void> {
  for (let k = 0; k < max; k++) {
    await page.keyboard.press('Tab');
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return { role: a?.getAttribute('role') ?? null, name: (a?.getAttribute('aria-label') ?? a?.innerText ?? '').trim(), tag: a?.tagName ?? '' };
    });
    if (pick(el)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

test('the keyboard alone: train, step slow motion, open a trajectory, browse the tasks, export and import', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  const button = (name: string | RegExp) => (el: { tag: string; name: string }) => el.tag === 'BUTTON'
    && (typeof name === 'string' ? el.name === name : name.test(el.name));
  const tab = (name: string) => (el: { role: string | null; name: string }) => el.role === 'tab' && el.name === name;

  // Train: Step runs one iteration.
  await tabTo(page, button('Step'), 'Step');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('iteration')).toHaveText('1', { timeout: 60_000 });

  // Slow motion: its tab, its start, Next phase, Leave.
  await tabTo(page, tab('Slow motion'), 'the Slow motion tab');
  await page.keyboard.press('Enter');
  await tabTo(page, button('Slow motion'), 'slow motion\'s start');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('phase-counter')).toContainText('Phase 1 of 8', { timeout: 60_000 });
  await page.keyboard.press('Tab'); // from the button that became Next phase: to Leave, then back
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('phase-counter')).toContainText('Phase 2 of 8', { timeout: 60_000 });
  await tabTo(page, button('Leave'), 'Leave');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('phase-counter')).toContainText('One GRPO iteration', { timeout: 60_000 });

  // The inspector: a trajectory opens from its row's button.
  await tabTo(page, tab('Inspector'), 'the Inspector tab');
  await page.keyboard.press('Enter');
  await tabTo(page, button('Trajectory 2: show its turns'), 'trajectory 2'); // the first is open already
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Trajectory 2: hide its turns' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('table.group tr.detail')).toHaveCount(1);

  // The task list: arrows move the selection.
  await tabTo(page, tab('Data'), 'the Data tab');
  await page.keyboard.press('Enter');
  await tabTo(page, (el) => el.role === 'listbox', 'the task list');
  const selected = page.getByRole('listbox', { name: 'tasks' }).getByRole('option', { selected: true });
  const first = await selected.innerText();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('listbox', { name: 'tasks' })).toHaveAttribute('aria-activedescendant', 'task-option-2');
  expect(await selected.innerText()).not.toBe(first);

  // Export the policy (its two files), then import them back.
  await tabTo(page, tab('Export / Import'), 'the Export / Import tab');
  await page.keyboard.press('Enter');
  const dir = test.info().outputPath('export');
  const files = saveDownloads(page, dir);
  await tabTo(page, button('Export weights'), 'Export weights');
  await page.keyboard.press('Enter');
  await expect.poll(() => files.length, { timeout: 30_000 }).toBe(2);
  const chooser = page.waitForEvent('filechooser');
  await tabTo(page, button('Import weights'), 'Import weights');
  await page.keyboard.press('Enter');
  await (await chooser).setFiles(files);
  await expect(page.getByRole('note').filter({ hasText: 'Imported policy' })).toBeVisible({ timeout: 60_000 });
});
