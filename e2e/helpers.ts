import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import type { MetricPoint } from '../src/worker/protocol';

/** Collects console errors and page errors of a page. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

export const iteration = async (page: Page): Promise<number> => Number(await page.getByTestId('iteration').innerText());

/** The current policy's action probabilities on the lab's fixed probe decisions (the page's store asks the worker). */
export const probe = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { orchestraLab: { getState(): { probe(): Promise<number[]> } } }).orchestraLab.getState().probe());

/** The current run's metric points, one per iteration, as the page's store holds them. */
export const metricSeries = (page: Page): Promise<MetricPoint[]> => page.evaluate(() => (window as unknown as { orchestraLab: { getState(): { series: MetricPoint[] } } }).orchestraLab.getState().series);

const leaving = new WeakSet<Page>();

/**
 * Opens the lab and waits until the policy and the trade-off view are ready. A page that trained asks before it is left (beforeunload): the tests that reload or
 * navigate go on (accept); other dialogs stay dismissed, as Playwright does by default.
 */
export async function openLab(page: Page, query = ''): Promise<void> {
  if (!leaving.has(page)) {
    leaving.add(page);
    page.on('dialog', (d) => void (d.type() === 'beforeunload' ? d.accept() : d.dismiss()));
  }
  await page.goto(`/${query}`);
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 240_000 });
}

/** Number of points drawn in a line chart (from its SVG path's commands). */
export async function pathPoints(page: Page, testId: string): Promise<number> {
  const d = await page.getByTestId(testId).locator('g.curves path.curve').first().getAttribute('d').catch(() => null);
  return d ? (d.match(/[ML]/g) ?? []).length : 0;
}

type LongTaskWindow = { longTasks: number[] };

/** Starts recording main-thread long tasks (Long Tasks API: every task ≥ 50 ms) from the page's first script on. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as LongTaskWindow;
    w.longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) w.longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: false });
  });
}

/** The long tasks recorded since the last call (their durations in ms), and forgets them. */
export const takeLongTasks = (page: Page): Promise<number[]> =>
  page.evaluate(() => (window as unknown as LongTaskWindow).longTasks.splice(0));

/** "N (longest M ms)" for a log line. */
export const describeLongTasks = (tasks: readonly number[]): string => `${tasks.length} (longest ${tasks.length ? Math.max(...tasks).toFixed(0) : 0} ms)`;

/** Opens the settings drawer (if it is closed) on one of its tabs: 'Training' or 'Tools'. */
export async function openSettings(page: Page, tab: 'Training' | 'Tools'): Promise<void> {
  if (!(await page.getByRole('complementary', { name: 'Settings' }).isVisible())) await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByRole('tab', { name: tab }).click();
}

/** Slow motion from its panel: a new iteration, then Next phase up to phase `k`. */
export async function slowMotionTo(page: Page, k: number): Promise<void> {
  await page.getByRole('tabpanel').getByRole('button', { name: 'Slow motion' }).click();
  await expect(page.getByTestId('phase-1')).toBeVisible();
  for (let i = 2; i <= k; i++) {
    await page.getByRole('button', { name: 'Next phase' }).click();
    await expect(page.getByTestId(`phase-${i}`)).toBeVisible({ timeout: 30_000 });
  }
}

/** Saves every download of the page into `dir` under its suggested name; the list fills as each one lands. */
export function saveDownloads(page: Page, dir: string): string[] {
  const files: string[] = [];
  page.on('download', (d) => { const to = join(dir, d.suggestedFilename()); void d.saveAs(to).then(() => files.push(to)); });
  return files;
}
