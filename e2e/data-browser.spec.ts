import { expect, test } from '@playwright/test';

test('the page reports the webgpu backend and shows the generated tasks and the catalog', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  const status = page.getByRole('status');
  await expect(status).toContainText('WebGPU');
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', 'webgpu');
  console.log(`backend badge: ${(await status.innerText()).replace(/\s+/g, ' ')}`);
  await expect(page.getByRole('listbox', { name: 'tasks' }).getByRole('option')).toHaveCount(120);
  await expect(page.getByTestId('gen-stats')).toContainText('120 kept');
  await expect(page.locator('table.catalog')).toContainText('claude-opus-4.1');
  // Selecting a task shows its steps and golden path.
  await page.getByRole('option').nth(5).click();
  await expect(page.locator('.task-detail table tbody tr').first()).toBeVisible();
  // The seed-004 preset swaps the catalog and regenerates.
  await page.getByLabel('Catalog preset').selectOption('seed-004');
  await expect(page.locator('table.catalog')).toContainText('code-executor');
  await expect(page.getByTestId('gen-stats')).toContainText('120 kept');
  // JSONL download.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSONL' }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.jsonl$/);
  await page.screenshot({ path: 'docs/screenshots/data-browser.png' });
  expect(errors).toEqual([]);
});

test('?backend=wasm falls back to the wasm backend', async ({ page }) => {
  await page.goto('/?backend=wasm');
  await expect(page.locator('[data-backend]')).toHaveAttribute('data-backend', 'wasm');
});
