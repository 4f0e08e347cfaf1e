import { expect, test } from '@playwright/test';
import { openLab, watchErrors } from './helpers';

// The formulas panel on the built page (App mounts <FormulaPanel /> in <section aria-label="Formulas">
// and calls useSymbolLinking() once): KaTeX renders under the strict CSP without a violation, and
// symbols and values light each other on hover and on keyboard focus.

test('formulas render with KaTeX under the CSP, and symbols link to their values both ways', async ({ page }) => {
  test.setTimeout(300_000);
  const errors = watchErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await openLab(page, '?backend=wasm');

  const region = page.getByRole('region', { name: 'Formulas' });
  await region.scrollIntoViewIfNeeded();
  await expect(region.locator('.katex').first()).toBeVisible();
  expect(await region.locator('.katex').count()).toBeGreaterThanOrEqual(3);
  await expect(region.locator('.katex-error')).toHaveCount(0);
  await expect(region.getByRole('math').first()).toHaveAttribute('aria-label', /.{20}/);
  // KaTeX's fonts are bundled with the page: the formula's glyphs use them.
  await expect.poll(() => page.evaluate(() => [...document.fonts].some((f) => f.family.replace(/"/g, '') === 'KaTeX_Main' && f.status === 'loaded'))).toBe(true);

  // Formula → value: hovering R lights R's value on screen and R itself.
  const symR = region.locator('[data-sym="R"]').first();
  const valueR = page.locator('[data-sym-value="R"]').first();
  // Inside KaTeX's aria-hidden drawing: never focusable (the keyboard reaches it from the values, below).
  await expect(symR).not.toHaveAttribute('tabindex');
  await expect(symR.locator('xpath=ancestor::*[@aria-hidden="true"]')).toHaveCount(1);
  await symR.hover();
  await expect(valueR).toHaveClass(/\bsym-hot\b/);
  await expect(symR).toHaveClass(/\bsym-hot\b/);
  await expect(region.locator('[data-sym="A"].sym-hot')).toHaveCount(0);
  await page.mouse.move(1, 1);
  await expect(page.locator('.sym-hot')).toHaveCount(0);

  // Value → formula, by keyboard focus: every occurrence of A in the formulas lights.
  const valueA = page.locator('[data-sym-value="A"]').first();
  await valueA.focus();
  await expect(valueA).toHaveClass(/\bsym-hot\b/);
  const symA = region.locator('[data-sym="A"]');
  expect(await symA.count()).toBeGreaterThanOrEqual(2);
  expect(await region.locator('[data-sym="A"].sym-hot').count()).toBe(await symA.count());
  await page.keyboard.press('Shift+Tab');
  await expect(valueA).not.toHaveClass(/\bsym-hot\b/);

  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  expect(errors).toEqual([]);
});

test('the page\'s main script is within its 600 kB budget, and KaTeX comes in a chunk of its own with the first formula', async ({ page }) => {
  const scripts: { url: string; bytes: number }[] = [];
  page.on('response', (r) => {
    if (/\.js$/.test(new URL(r.url()).pathname)) void r.body().then((b) => scripts.push({ url: r.url(), bytes: b.length }), () => undefined);
  });
  await openLab(page, '?backend=wasm');
  await expect(page.getByRole('region', { name: 'Formulas' }).locator('.katex').first()).toBeAttached();
  await expect.poll(() => scripts.some((s) => /\/katex-[\w-]+\.js$/.test(s.url))).toBe(true);
  const main = scripts.find((s) => /\/main-[\w-]+\.js$/.test(s.url));
  console.log(`page scripts: ${scripts.filter((s) => !s.url.includes('worker')).map((s) => `${s.url.replace(/^.*\//, '')} ${(s.bytes / 1000).toFixed(1)} kB`).join(', ')}`);
  expect(main?.bytes).toBeLessThanOrEqual(600_000);
});
