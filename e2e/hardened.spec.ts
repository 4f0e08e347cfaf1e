// Issue 33, tried through the page as a user would: a tool named "constructor" (the editor, a
// #catalog= link, a share file), reserved names in a link and in this browser's storage, a
// training worker that stops mid-run or never loads, a reordered or mutated policy, and garbage
// lesson progress. Each is refused or recovered with a message, and the trained policy is not lost.
import { expect, test, type Page, type Worker } from '@playwright/test';
import LZString from 'lz-string';
import { readFileSync } from 'node:fs';
import { weightsFingerprint } from '../src/core/io/artifactCheck';
import { encodePolicyParam, encodeShareFile } from '../src/core/io/shareBundle';
import { iteration, openLab, openSettings, probe, watchErrors } from './helpers';

const labWorker = async (page: Page): Promise<Worker> => {
  await expect.poll(() => page.workers().some((w) => w.url().includes('lab.worker'))).toBe(true);
  return page.workers().find((w) => w.url().includes('lab.worker')) as Worker;
};

// A worker that stops mid-run is noticed and started afresh from the page's copy; Step and Export work again.
test('a training worker that stops mid-run is started afresh from the page\'s copy', async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBeGreaterThan(10);
  await page.waitForTimeout(8000); // the page's copy is refreshed at most every 3 s while training: more have come
  const before = await iteration(page);
  const dying = await labWorker(page);
  await dying.evaluate(() => self.close());
  const stoppedAt = await iteration(page);
  const alert = page.getByRole('alert').filter({ hasText: 'The training worker stopped' });
  await expect(alert).toBeVisible({ timeout: 30_000 });
  console.log((await alert.innerText()).replace(/\s+/g, ' '));
  await expect(alert).toContainText('it gave no sign of life for');
  const back = page.getByRole('note').filter({ hasText: 'The training worker runs again' });
  await expect(back).toBeVisible({ timeout: 60_000 });
  console.log((await back.innerText()).replace(/\s+/g, ' '));
  const copied = Number(/weights of iteration (\d+)/.exec(await back.innerText())?.[1]);
  // The copy is at most a few seconds old: taken after the first 10 iterations, and no later than the stop.
  expect(copied).toBeGreaterThan(10);
  console.log(`iteration ${before} 8 s into the run, ${stoppedAt} at the stop; the copy was of iteration ${copied}`);
  expect(copied).toBeLessThanOrEqual(stoppedAt);
  expect(await iteration(page)).toBe(copied);
  await expect(page.getByRole('button', { name: 'Start' })).toBeVisible(); // paused: no "training" any more
  await expect(page.getByTestId('worker-activity')).not.toContainText('training');
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page), { timeout: 60_000 }).toBe(copied + 1);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const exported = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export weights' }).click();
  const download = await exported;
  expect(download.suggestedFilename()).toBe('orchestrator.json');
  expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
});

// A worker script that does not load is said so, and the badge stops saying "starting tfjs…".
test('a training worker whose script does not load is said so', async ({ page }) => {
  test.setTimeout(120_000);
  await page.route(/lab\.worker[^/]*\.js/, (route) => route.abort());
  await page.goto('/?backend=wasm');
  const stopped = page.getByRole('alert').filter({ hasText: 'could not be started again' });
  await expect(stopped).toBeVisible({ timeout: 60_000 });
  console.log((await stopped.innerText()).replace(/\s+/g, ' '));
  await expect(stopped).toContainText('its script could not be loaded');
  await expect(stopped).toContainText('Reload the page');
  await expect(page.getByText('worker failed: undefined')).toHaveCount(0);
  await expect(page.getByTestId('backend-stopped')).toBeVisible();
  await expect(page.getByTestId('backend-pending')).toHaveCount(0);
});

/** The shipped policy's files (a CLI-trained policy, its manifest in the network's order). */
const shipped = () => ({
  json: JSON.parse(readFileSync('public/pretrained/orchestrator.json', 'utf8')) as ModelJson,
  weights: new Uint8Array(readFileSync('public/pretrained/orchestrator.weights.bin')),
});
type ModelJson = {
  weightsManifest: { paths: string[]; weights: { name: string; shape: number[]; dtype: string }[] }[];
  userDefinedMetadata: { catalog: { tools: { id: string }[] } };
};
const alertWith = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

// A tool id "constructor" is refused naming the rule, in the editor, in a #catalog= link and in a share
// file; the run and the model are kept.
test('a tool id "constructor" is refused naming the rule, wherever it comes from', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await openLab(page, '?backend=wasm');
  for (let i = 1; i <= 2; i++) {
    await page.getByRole('button', { name: 'Step' }).click();
    await expect.poll(() => iteration(page)).toBe(i);
  }
  const before = await probe(page);
  const url = page.url();
  await openSettings(page, 'Tools');
  await page.getByRole('textbox', { name: 'New tool id' }).fill('constructor');
  await page.getByRole('button', { name: 'Add tool' }).click();
  const refused = page.getByRole('alert').filter({ hasText: 'Catalog edit refused' });
  await expect(refused).toContainText('"constructor" is reserved: no tool id may be __proto__, constructor, prototype, '
    + 'outcome, cost or latency');
  await page.getByRole('textbox', { name: 'New tool id' }).fill('a'.repeat(65));
  await page.getByRole('button', { name: 'Add tool' }).click();
  await expect(alertWith(page, 'Catalog edit refused')).toContainText('must be 1 to 64 lowercase letters');
  expect(await iteration(page)).toBe(2);
  expect(await probe(page)).toEqual(before);
  expect(page.url()).toBe(url);
  // The skill column reads decimal numbers only: 0x10 is refused, not read as 16.
  const skill = page.getByRole('textbox', { name: 'gpt-5 skill reason' });
  const was = await skill.inputValue();
  await skill.fill('0x10');
  await skill.blur();
  await expect(alertWith(page, 'Catalog edit refused')).toContainText('gpt-5 skill reason: must be a number');
  await expect(skill).toHaveValue(was);

  // The same catalog through a link: the page boots, says it ignored the catalog, and runs the preset.
  const catalog = shipped().json.userDefinedMetadata.catalog;
  const bad = { ...catalog, tools: [...catalog.tools, { ...catalog.tools[0], id: 'constructor' }] };
  const other = await page.context().newPage();
  const badLink = `?backend=wasm#catalog=${LZString.compressToEncodedURIComponent(JSON.stringify(bad))}`;
  await openLab(other, badLink);
  await expect(other.getByRole('note').filter({ hasText: 'Ignored invalid link settings (catalog)' })).toBeVisible();
  await other.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(other)).toBe(1);
  await other.close();

  // And through a share file: refused before anything changes.
  const { json, weights } = shipped();
  const file = encodeShareFile(badLink, json, weights);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const shared = { name: 'orchestra-lab-share.json', mimeType: 'application/json', buffer: Buffer.from(file) };
  await page.getByTestId('import-files').setInputFiles(shared);
  await expect(alertWith(page, 'Import refused'))
    .toContainText('the file\'s settings hold values the lab refuses or parameters it does not know (catalog)');
  expect(await probe(page)).toEqual(before);
  expect(await iteration(page)).toBe(2);
  expect(errors.filter((e) => !e.includes('favicon'))).toEqual([]);
});

// Reserved names in a link (?preset=__proto__) and in this browser's storage (a probe cache choosing
// "__proto__", lesson progress of 200,000 ids) do not stop the page.
test('reserved names in a link and in this browser\'s storage do not stop the page', async ({ page }) => {
  test.setTimeout(180_000);
  await openLab(page, '?preset=__proto__&backend=wasm');
  const ignored = 'Ignored invalid link settings (preset = __proto__ (allowed: toolorchestra, seed-004))';
  await expect(page.getByRole('note').filter({ hasText: ignored })).toBeVisible();
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(1);

  // An auto start caches the probe's report; one whose choice is "__proto__" is ignored, and the
  // backends are measured again.
  await openLab(page, '');
  await expect(page.getByTestId('backend-probe')).toBeVisible();
  await page.evaluate(() => {
    const key = 'orchestra-lab:backend-probe';
    const list = JSON.parse(localStorage.getItem(key) ?? '[]') as { choice: string }[];
    localStorage.setItem(key, JSON.stringify(list.map((r) => ({ ...r, choice: '__proto__' }))));
    const lessons = Array.from({ length: 200_000 }, (_, i) => `x${i}`);
    localStorage.setItem('orchestra-lab.lessons.v1', JSON.stringify(lessons));
  });
  await openLab(page, '');
  await expect(page.locator('[data-backend]')).not.toHaveAttribute('title', /cached/);
  await page.getByRole('button', { name: 'Step' }).click();
  await expect.poll(() => iteration(page)).toBe(1);
  await page.getByRole('tab', { name: 'Lessons' }).click();
  await expect(page.getByText(/\d+ of 7 complete/)).toContainText('0 of 7 complete');
});

// A reordered manifest is refused naming the entry out of place (file import and #policy=); another
// run's weights are said to be no pair; a mutated #policy= is refused by its checksum, an old one loads
// with a notice.
test('a reordered manifest, another run\'s weights and a mutated #policy= are refused', async ({ page }) => {
  test.setTimeout(240_000);
  const { json, weights } = shipped();
  const reordered = structuredClone(json);
  const w = reordered.weightsManifest[0]!.weights;
  [w[0], w[1]] = [w[1]!, w[0]!];
  await openLab(page, '?backend=wasm');
  const before = await probe(page);
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  await page.getByTestId('import-files').setInputFiles([
    { name: 'orchestrator.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(reordered)) },
    { name: 'orchestrator.weights.bin', mimeType: 'application/octet-stream', buffer: Buffer.from(weights) },
  ]);
  await expect(alertWith(page, 'Import refused'))
    .toContainText('weightsManifest[0].weights[0] is "scorer/l0/tool", where a policy\'s own order has "scorer/l0/');
  expect(await probe(page)).toEqual(before);

  // Two files of different runs: said as such, not blamed on the weights file's name.
  const fp = (b: Uint8Array) => weightsFingerprint(b);
  const other = Uint8Array.from(weights);
  new DataView(other.buffer).setFloat32(0, 0.125, true);
  const paths = [`orchestrator.weights.${fp(weights)}.bin`];
  const named = { ...json, weightsManifest: [{ ...json.weightsManifest[0]!, paths }] };
  await page.getByTestId('import-files').setInputFiles([
    { name: 'orchestrator.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(named)) },
    { name: `orchestrator.weights.${fp(other)}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.from(other) },
  ]);
  await expect(alertWith(page, 'not one pair'))
    .toContainText(`chosen is "orchestrator.weights.${fp(other)}.bin": the two files are not one pair`);
  expect(await probe(page)).toEqual(before);

  const catalogLink = (value: string) => `?backend=wasm#policy=${value}`;
  const good = encodePolicyParam(json, weights);
  // One character of the weights flipped: refused by the checksum, as a damaged file is.
  const [v, head, body, sum] = good.split('.') as [string, string, string, string];
  const at = Math.floor(body.length / 2);
  const flipped = `${v}.${head}.${body.slice(0, at)}${body[at] === 'A' ? 'B' : 'A'}${body.slice(at + 1)}.${sum}`;
  await openLab(page, catalogLink(flipped));
  await expect(alertWith(page, "The link's policy could not be read")).toContainText('does not match its checksum');
  await expect(page.getByRole('note').filter({ hasText: 'Loaded the shipped pretrained policy' })).toBeVisible();
  // A reordered header: refused naming the entry.
  await openLab(page, catalogLink(encodePolicyParam(reordered, weights)));
  await expect(page.getByRole('alert').filter({ hasText: "The link's policy was refused" })).toBeVisible();
  await expect(alertWith(page, 'Import refused')).toContainText('weightsManifest[0].weights[0] is "scorer/l0/tool"');
  // A link of version 1 (before the checksum) loads, and says it could not be checked.
  await openLab(page, catalogLink(`1.${head}.${body}`));
  await expect(page.getByRole('note').filter({ hasText: 'Loaded the trained policy from the link' })).toBeVisible();
  const older = page.getByRole('note').filter({ hasText: 'made by an older version of the lab, without a checksum' });
  await expect(older).toBeVisible();
});
