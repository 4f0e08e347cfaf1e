// Makes sure Debian's Chromium is at /usr/bin/chromium for the browser tests (never downloads a
// browser build of its own): installs the `chromium` package with apt-get when it is missing.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';
if (existsSync(CHROMIUM)) process.exit(0);
if (process.getuid?.() !== 0) {
  console.error(`${CHROMIUM} is missing; install Debian's chromium package (apt-get install chromium) as root.`);
  process.exit(1);
}
console.log(`${CHROMIUM} is missing: installing Debian's chromium with apt-get…`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq', { stdio: 'inherit', env });
execSync('apt-get install -y -qq chromium', { stdio: 'inherit', env });
if (!existsSync(CHROMIUM)) {
  console.error(`apt-get finished but ${CHROMIUM} is still missing.`);
  process.exit(1);
}
