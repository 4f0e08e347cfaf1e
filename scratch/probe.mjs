import { chromium } from 'playwright';
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--enable-unsafe-webgpu','--enable-unsafe-swiftshader','--no-sandbox','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic'] });
for (const q of (process.env.Q ?? '').split(',')) {
  const p = await b.newPage();
  const t0 = Date.now();
  await p.goto('http://127.0.0.1:4173/' + q);
  await p.waitForSelector('[data-backend][data-mode="auto"]', { timeout: 120000 });
  console.log(q, ((Date.now() - t0) / 1000).toFixed(1), 's', await p.locator('[data-backend]').getAttribute('data-backend'), await p.locator('[data-backend]').getAttribute('title'));
  await p.close();
}
await b.close();
