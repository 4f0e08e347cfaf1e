// The lab kept in this browser, when reloaded, shared between tabs, damaged or refused: two reloads
// keep every iteration's metrics; two tabs keep a lab each; a record holding a null point gives back
// the good points and keeps saving; a garbage record and a newer lab's are announced and never
// written over; a save the browser refuses is announced.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { iteration, openLab, watchErrors } from './helpers';

type Lab = { browserSaved: { iteration: number } | null; history: { points: unknown[] } };
const state = (page: Page) => page.evaluate(() => {
  const s = (window as unknown as { orchestraLab: { getState(): Lab } }).orchestraLab.getState();
  return { saved: s.browserSaved?.iteration ?? null, logged: s.history.points.length };
});

/** The record under `key` in the lab's IndexedDB store (the test's own reader); `tab` = this tab's key. */
const readRecord = (page: Page, key: string) => page.evaluate((k) => new Promise<unknown>((resolve, reject) => {
  const open = indexedDB.open('orchestra-lab', 1);
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const key = k === 'tab' ? `tab:${sessionStorage.getItem('orchestra-lab-tab')}` : k;
    const r = db.transaction('saved').objectStore('saved').get(key);
    r.onsuccess = () => { db.close(); resolve(r.result); };
    r.onerror = () => reject(r.error);
  };
}), key);

/** Writes `value` under this tab's key (null: keeps it, and edits its history with `history`). */
const writeOwnRecord = (page: Page, value: unknown, history?: unknown[]) => page.evaluate(([v, h]) => new Promise<string>((resolve, reject) => {
  const open = indexedDB.open('orchestra-lab', 1);
  open.onsuccess = () => {
    const db = open.result;
    const key = `tab:${sessionStorage.getItem('orchestra-lab-tab')}`;
    const st = db.transaction('saved', 'readwrite').objectStore('saved');
    const r = st.get(key);
    r.onsuccess = () => {
      const put = st.put(v === null ? { ...(r.result as object), history: h } : v, key);
      put.onsuccess = () => { db.close(); resolve(key); };
      put.onerror = () => reject(put.error);
    };
  };
  open.onerror = () => reject(open.error);
}), [value, history] as const);

const pointsOf = (record: unknown): number => ((record as { history?: unknown[] } | undefined)?.history ?? []).length;

async function step(page: Page, times: number): Promise<void> {
  for (let k = 0; k < times; k++) {
    const at = await iteration(page);
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => iteration(page), { timeout: 60_000 }).toBe(at + 1);
  }
}

async function csvRows(page: Page): Promise<number> {
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Metrics CSV' }).click();
  return readFileSync(await (await download).path(), 'utf8').trim().split('\n').length - 1;
}

const restored = (page: Page) => page.getByRole('note').filter({ hasText: 'Restored from this browser' });

test('two reloads in a row keep every iteration of the metrics, in the page and in the kept record', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  await step(page, 5);
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(5);
  for (const reload of [1, 2]) {
    await page.reload();
    await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
    await expect(restored(page), `reload ${reload}`).toContainText('the policy of iteration 5');
    // The reload's own save comes after the curves are back: the record keeps all five.
    await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(5);
    expect(pointsOf(await readRecord(page, 'tab')), `reload ${reload}`).toBe(5);
    expect((await state(page)).logged).toBe(5);
  }
  expect(await csvRows(page)).toBe(5);
});

test('two tabs keep a lab each: a reset and two steps in the second leave the first tab\'s six iterations', async ({ context }) => {
  test.setTimeout(300_000);
  const a = await context.newPage();
  await openLab(a, '?backend=wasm');
  await step(a, 6);
  await expect.poll(async () => (await state(a)).saved, { timeout: 20_000 }).toBe(6);
  const b = await context.newPage();
  await openLab(b, '?backend=wasm');
  // A new tab starts from the newest lab this browser keeps, and keeps its own from then on.
  await expect(restored(b)).toContainText('the policy of iteration 6');
  await expect(restored(b)).toContainText('this tab keeps its own from now on');
  await b.getByRole('button', { name: 'Reset' }).click();
  await expect.poll(() => iteration(b)).toBe(0);
  await step(b, 2);
  await expect.poll(async () => (await state(b)).saved, { timeout: 20_000 }).toBe(2);
  await a.reload();
  await expect(a.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  await expect(restored(a)).toContainText('the policy of iteration 6');
  expect(await iteration(a)).toBe(6);
  expect((await state(a)).logged).toBe(6);
  // And the second tab's reload brings back its own.
  await b.reload();
  await expect(b.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  await expect(restored(b)).toContainText('the policy of iteration 2');
  expect((await state(b)).logged).toBe(2);
});

test('a link with other settings leaves this tab\'s lab as it was, and "Open it" brings it back whole', async ({ page }) => {
  test.setTimeout(240_000);
  await openLab(page, '?backend=wasm');
  await step(page, 3);
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(3);
  const ownKey = await page.evaluate(() => `tab:${sessionStorage.getItem('orchestra-lab-tab')}`);
  await openLab(page, '?backend=wasm&B=4');
  const kept = page.getByRole('note').filter({ hasText: 'under other settings' });
  await expect(kept).toContainText('This browser keeps a lab trained for 3 iterations under other settings; this link\'s settings are on show.');
  // The link's lab is saved beside it: the tab's own record is as it was.
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(0);
  expect(await readRecord(page, ownKey)).toMatchObject({ iteration: 3 });
  expect(pointsOf(await readRecord(page, ownKey))).toBe(3);
  await kept.getByRole('button', { name: 'Open it' }).click();
  await expect(restored(page)).toContainText('the policy of iteration 3');
  await expect.poll(() => iteration(page)).toBe(3);
  expect((await state(page)).logged).toBe(3);
});

test('a kept record with a null and a malformed point gives back the good points, says so, and keeps saving', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm');
  await step(page, 3);
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(3);
  const [p1, p2, p3] = (await readRecord(page, 'tab') as { history: unknown[] }).history;
  await writeOwnRecord(page, null, [p1, null, p3, { ...(p2 as object), accuracy: 'high' }]);
  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  await expect(restored(page)).toContainText('the policy of iteration 3');
  await expect(restored(page)).toContainText('2 of its 4 curve points could not be read and were left out; the other 2 are back');
  expect((await state(page)).logged).toBe(2);
  await step(page, 1);
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(4);
  expect(pointsOf(await readRecord(page, 'tab'))).toBe(3); // iterations 1, 3 and 4
  expect(errors).toEqual([]);
});

test('a garbage record and a newer lab\'s record are announced in words and never written over', async ({ page }) => {
  test.setTimeout(300_000);
  await openLab(page, '?backend=wasm');
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(0);
  const garbageKey = await writeOwnRecord(page, 'garbage');
  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  const notice = page.getByRole('note').filter({ hasText: 'cannot read' });
  await expect(notice).toContainText('This browser held a saved lab that this page cannot read: it is a string, not a saved lab. It was set aside');
  await expect(notice).not.toContainText('Import refused');
  await expect(page.getByTestId('policy-origin')).toContainText('shipped pretrained policy');
  // Set aside as it was; this tab's save (iteration 0) lands beside it.
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(0);
  const aside = await page.evaluate(() => new Promise<unknown[]>((resolve) => {
    const open = indexedDB.open('orchestra-lab', 1);
    open.onsuccess = () => {
      const st = open.result.transaction('saved').objectStore('saved');
      const keys = st.getAllKeys();
      keys.onsuccess = () => {
        const asideKeys = (keys.result as string[]).filter((k) => k.startsWith('aside:'));
        const values = asideKeys.map((k) => st.get(k));
        let left = values.length;
        if (!left) resolve([]);
        for (const v of values) v.onsuccess = () => { if (--left === 0) resolve(values.map((x) => x.result)); };
      };
    };
  }));
  expect(aside).toEqual(['garbage']);
  const download = page.waitForEvent('download');
  await notice.getByRole('button', { name: 'Download it' }).click();
  expect(readFileSync(await (await download).path(), 'utf8')).toBe('"garbage"');

  const newer = { version: 2, savedAt: Date.now(), iteration: 7, somethingNew: { weights: [1, 2, 3] } };
  const newerKey = await writeOwnRecord(page, newer);
  expect(newerKey).toBe(garbageKey); // the tab kept its key: the garbage went aside, not the key
  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  const said = page.getByRole('note').filter({ hasText: 'newer version' });
  await expect(said).toContainText('This browser keeps a lab saved by a newer version of Orchestra Lab (its record is '
    + 'version 2; this page reads version 1), trained for 7 iterations');
  await expect(said).toContainText('open the newer version of the lab to get it back');
  await expect.poll(async () => (await state(page)).saved, { timeout: 20_000 }).toBe(0);
  expect(await readRecord(page, newerKey)).toEqual(newer); // this tab saves under another key now
  expect(await readRecord(page, 'tab')).toMatchObject({ version: 1, iteration: 0 });

  // A record of the right shape whose weights the worker refuses (not finite): said as what it is, not as an import.
  await page.evaluate(() => new Promise<void>((resolve, reject) => {
    const open = indexedDB.open('orchestra-lab', 1);
    open.onsuccess = () => {
      const st = open.result.transaction('saved', 'readwrite').objectStore('saved');
      const key = `tab:${sessionStorage.getItem('orchestra-lab-tab')}`;
      const r = st.get(key);
      r.onsuccess = () => {
        const rec = r.result as { weights: ArrayBuffer; iteration: number };
        const put = st.put({ ...rec, iteration: 9, weights: new Float32Array(rec.weights.byteLength / 4).fill(Number.NaN).buffer }, key);
        put.onsuccess = () => resolve();
        put.onerror = () => reject(put.error);
      };
    };
  }));
  await page.reload();
  await expect(page.getByTestId('operating-point')).toBeVisible({ timeout: 120_000 });
  const refused = page.getByRole('note').filter({ hasText: 'could not be put back' });
  await expect(refused).toContainText('The lab saved in this browser (trained for 9 iterations, saved');
  await expect(refused).toContainText('its policy did not load (');
  await expect(refused).toContainText('It was set aside in this browser as it was, not written over');
  await expect(page.getByRole('note').filter({ hasText: 'Import refused' })).toHaveCount(0);
  await expect(page.getByTestId('policy-origin')).toContainText('shipped pretrained policy');
});

test('a save the browser refuses is announced, and the lab goes on', async ({ page }) => {
  test.setTimeout(240_000);
  await page.addInitScript(() => {
    const put = IDBObjectStore.prototype.put;
    IDBObjectStore.prototype.put = function (value: unknown, key?: IDBValidKey) {
      if (typeof key === 'string' && key.startsWith('tab:')) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.call(this, value, key);
    };
  });
  await openLab(page, '?backend=wasm');
  await expect(page.getByRole('note').filter({ hasText: 'This browser did not keep the lab' }))
    .toContainText('The quota has been exceeded.');
  await step(page, 1);
  expect((await state(page)).saved).toBeNull();
});

test('at 320 px wide every chart\'s names and every formula stay inside the screen', async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await browser.newPage({ viewport: { width: 320, height: 800 } });
  await openLab(page, '?backend=wasm');
  await page.evaluate(() => document.fonts.ready);
  // A name or a formula past the right edge (or one that needs scrolling sideways) is a miss.
  const misses = () => page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll('svg text')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5)) out.push(`"${el.textContent}" at ${r.left.toFixed(0)}–${r.right.toFixed(0)} px`);
    }
    for (const el of document.querySelectorAll<HTMLElement>('.math-formula')) {
      if (el.scrollWidth > el.clientWidth + 1) out.push(`formula "${el.getAttribute('aria-label')?.slice(0, 40)}…" ${el.scrollWidth} px in ${el.clientWidth} px`);
    }
    return { out, labels: document.querySelectorAll('svg text.point-label').length, formulas: document.querySelectorAll('.math-formula').length };
  });
  await expect.poll(async () => (await misses()).out, { timeout: 10_000 }).toEqual([]);
  const seen = await misses();
  expect(seen.labels).toBeGreaterThanOrEqual(4);
  expect(seen.formulas).toBeGreaterThanOrEqual(3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.close();
});
