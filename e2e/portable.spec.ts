// The policy for other tools from the page: Export for Python writes the same safetensors, input spec
// and forward.py as the CLI's `export` of the same policy (byte for byte), and forward.py runs on them.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openLab, saveDownloads } from './helpers';

test('Export for Python: the page writes the safetensors, the input spec and forward.py the CLI writes for the same policy, and forward.py runs', async ({ page }) => {
  test.setTimeout(120_000);
  await openLab(page, '?backend=wasm');
  await page.getByRole('tab', { name: 'Export / Import' }).click();
  const dir = test.info().outputPath('files');
  const files = saveDownloads(page, dir);
  await page.getByRole('button', { name: 'Export weights' }).click();
  await expect.poll(() => files.length, { timeout: 30_000 }).toBe(2);
  await page.getByRole('button', { name: 'Export for Python (safetensors)' }).click();
  await expect.poll(() => files.length, { timeout: 30_000 }).toBe(5);
  const cliDir = join(dir, 'cli');
  execFileSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'export', '--policy', join(dir, 'orchestrator.json'), '--out', cliDir]);
  for (const f of ['orchestrator.safetensors', 'input-spec.json', 'forward.py']) {
    expect(readFileSync(join(dir, f)).equals(readFileSync(join(cliDir, f))), f).toBe(true);
  }
  const spec = JSON.parse(readFileSync(join(dir, 'input-spec.json'), 'utf8')) as { state: { dim: number }; slot: { dim: number }; slots: unknown[] };
  writeFileSync(join(dir, 'decisions.json'), JSON.stringify({ decisions: [{ state: new Array(spec.state.dim).fill(0.1),
    slots: spec.slots.map((_, s) => (s % 2 ? null : new Array(spec.slot.dim).fill(0.2))) }] }));
  const out = JSON.parse(execFileSync('python3', [join(dir, 'forward.py'), join(dir, 'orchestrator.safetensors'), join(dir, 'input-spec.json'),
    join(dir, 'decisions.json')], { encoding: 'utf8' })) as { probabilities: number[][] };
  const p = out.probabilities[0]!;
  expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
  p.forEach((x, k) => { if (k < spec.slots.length && k % 2) expect(x).toBe(0); });
});
