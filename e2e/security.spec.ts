import { expect, test } from '@playwright/test';
import { iteration, openLab } from './helpers';

// The guards that keep the next defect out: a strict Content-Security-Policy on the built pages.
// No inline script runs, nothing is requested off the page's origin, and using the lab (boot,
// training, export) trips no violation.

test('a strict Content-Security-Policy holds: no inline script, no request off the page\'s origin, no violation while training', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL as string).origin;
  const offOrigin: string[] = [];
  page.on('request', (r) => { const u = new URL(r.url()); if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) offOrigin.push(r.url()); });
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await openLab(page, '?backend=wasm');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain('unsafe-inline');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(1);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export weights' }).click()]);
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
  // An injected inline script does not run, and the attempt is reported as a violation.
  const ran = await page.evaluate(async () => {
    const s = document.createElement('script');
    s.textContent = '(window as any).injected = 1'.replace('(window as any)', 'window');
    document.body.appendChild(s);
    await new Promise((r) => setTimeout(r, 100));
    return (window as unknown as { injected?: number }).injected === 1;
  });
  expect(ran).toBe(false);
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations.join('\n'))).toContain('script-src');
  expect(offOrigin).toEqual([]);
});
