// The routing view a room can read: who does what by role for the policy on screen, and GPT-5's share
// of the calls to models. Its numbers are checked against the command line's `eval` of the same policy
// (exported from the page) on the same held-out tasks and P; its text is ≥ 18 px in classroom mode.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openLab, saveDownloads } from './helpers';

/** The view's table: model → [writes queries, writes programs, answers, all] per task ('·' is under 0.005). */
const readView = (page: Page) => page.getByTestId('routing-view').locator('tbody tr').evaluateAll((rows) =>
  Object.fromEntries(rows.map((r) => [r.getAttribute('data-model') ?? '',
    [...r.querySelectorAll('td')].map((td) => (td.textContent === '·' ? 0 : Number(td.textContent)))])));

test('the routing view: calls per task by role and GPT-5\'s share, as the CLI\'s eval of the same policy counts them; large in classroom mode', async ({ page }) => {
  test.setTimeout(180_000);
  await openLab(page, '?backend=wasm');
  const view = page.getByTestId('routing-view');
  await expect(view.getByTestId('gpt5-share')).toContainText('of the calls to models', { timeout: 60_000 });
  const rows = await readView(page);
  const share = Number((await view.getByTestId('gpt5-share').locator('strong').innerText()).replace('%', ''));
  for (const [, cells] of Object.entries(rows)) {
    const [q, c, a, all] = cells as number[];
    expect(Math.abs(q! + c! + a! - all!)).toBeLessThanOrEqual(0.02); // each rounded to 0.01
  }
  // The same policy, P and tasks in Node: the page's policy exported, the CLI's eval on the held-out tasks of seed 1 + 1000.
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const dir = test.info().outputPath('export');
  const files = saveDownloads(page, dir);
  await page.getByRole('button', { name: 'Export weights' }).click();
  await expect.poll(() => files.length, { timeout: 30_000 }).toBe(2);
  const pref = join(dir, 'P.json');
  writeFileSync(pref, JSON.stringify({ outcome: 1, cost: 0.5, latency: 0.5 }));
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'eval', '--policy', join(dir, 'orchestrator.json'),
    '--seed', '1001', '--count', '250', '--preference', pref, '--json'], { encoding: 'utf8' });
  const cli = JSON.parse(out) as { callsPerTask: Record<string, number> };
  const models = await page.evaluate(() => (window as unknown as { orchestraLab: { getState(): { catalog: { tools: { id: string; kind: string }[] } } } })
    .orchestraLab.getState().catalog.tools.filter((t) => t.kind !== 'basic').map((t) => t.id));
  let all = 0;
  for (const id of models) {
    const n = cli.callsPerTask[id] ?? 0;
    all += n;
    expect(Math.abs((rows[id]?.[3] ?? 0) - n), id).toBeLessThanOrEqual(0.05);
  }
  expect(Math.abs(share - (100 * (cli.callsPerTask['gpt-5'] ?? 0)) / all)).toBeLessThanOrEqual(1.5); // a whole percentage
  console.log(`routing view: GPT-5 ${share}% of model calls; CLI ${((100 * (cli.callsPerTask['gpt-5'] ?? 0)) / all).toFixed(1)}%; rows ${JSON.stringify(rows)}`);

  // Classroom: every text of the view at 18 px or more.
  await openLab(page, '?backend=wasm&classroom=1');
  await expect(view.getByTestId('gpt5-share')).toContainText('of the calls to models', { timeout: 60_000 });
  const smallest = await view.evaluate((el) => Math.min(...[...el.querySelectorAll('*')].filter((e) => e.childNodes.length
    && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent?.trim())).map((e) => parseFloat(getComputedStyle(e).fontSize))));
  expect(smallest).toBeGreaterThanOrEqual(18);
});
