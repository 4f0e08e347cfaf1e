// Issue 33 at the command line: reserved names (a tool "constructor", a preset "__proto__"), one
// run per --out folder (a lock naming the run that holds it, a stale one taken over), manifests
// whose weights path leaves the folder or whose entries are out of order, SIGTERM and SIGHUP saved
// as Ctrl-C is, and a stored run past the iteration maximum.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { presetCatalog } from '../src/core/sim/presets';
import { cli, cliArgs, scratchDir } from './cliHelpers';

const dir = scratchDir();

/** `cli`, ended (SIGKILL) after `ms`: a command that reads on forever (/dev/zero, a pipe) must not hold tests up. */
const cliWithin = (ms: number, ...args: string[]): { code: number | null; err: string; ms: number } => {
  const t0 = Date.now();
  // node itself (tsx's launcher would leave its node child running when killed).
  const r = spawnSync(process.execPath, cliArgs(...args), {
    encoding: 'utf8', timeout: ms, killSignal: 'SIGKILL',
  });
  return { code: r.status, err: r.stderr, ms: Date.now() - t0 };
};
/** `cli` without blocking this process (it goes on reading the pipes of runs in the background). */
const cliAsync = (...args: string[]): Promise<{ code: number | null; err: string }> => new Promise((resolve) => {
  const child = spawn(process.execPath, cliArgs(...args));
  let err = '';
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  child.on('close', (code) => resolve({ code, err }));
});
const SMALL = ['--batch', '2', '--group', '2', '--pool', '50'];
const RULE = /"constructor" is reserved: no tool id may be __proto__, constructor, prototype, outcome, cost or latency/;

/** A finished small run in a folder of its own: its orchestrator.json and weights file. */
type Manifest = { weightsManifest: { paths: string[]; weights: { name: string }[] }[] };
function smallRun(name: string): { out: string; manifest: string; json: Manifest } {
  const out = join(dir, name);
  const r = cli('train', '--iterations', '2', ...SMALL, '--out', out);
  expect(r.code, r.err).toBe(0);
  const manifest = join(out, 'orchestrator.json');
  return { out, manifest, json: JSON.parse(readFileSync(manifest, 'utf8')) };
}

/** A long run started in the background, resolved once it has printed its first progress line. */
type Running = { child: ReturnType<typeof spawn>; err: () => string; exit: Promise<number | null> };
async function longRun(out: string): Promise<Running> {
  const args = ['train', '--iterations', '100000', '--progress-every', '1', ...SMALL, '--out', out];
  const child = spawn(process.execPath, cliArgs(...args));
  let err = '';
  // 'close', not 'exit': the exit can come before the last of stderr has been read.
  const exit = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  await new Promise<void>((resolve) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
      if (/it +2 /.test(err)) resolve();
    });
    void exit.then(() => resolve());
  });
  return { child, err: () => err, exit };
}

describe('command line: reserved names', () => {
  it('a catalog with a tool "constructor" is refused naming the rule: train and eval --preference give no NaN', () => {
    const c = presetCatalog('toolorchestra');
    c.tools[1] = { ...c.tools[1]!, id: 'constructor' };
    const file = join(dir, 'constructor.json');
    writeFileSync(file, JSON.stringify(c));
    const pref = join(dir, 'p.json');
    writeFileSync(pref, JSON.stringify({ outcome: 1, cost: 0.5 }));
    const out = join(dir, 'never-trained');
    const t = cli('train', '--catalog', file, '--iterations', '2', ...SMALL, '--out', out);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(RULE);
    expect(t.err).not.toMatch(/NaN/);
    expect(existsSync(out)).toBe(false); // a refused run leaves no folder (nor its lock)
    const e = cli('eval', '--catalog', file, '--policy', 'random', '--preference', pref, '--count', '20');
    expect(e.code).toBe(2);
    expect(e.err).toMatch(RULE);
    expect(e.out).not.toMatch(/preference score NaN/);
  });

  it('__proto__ and constructor name no preset, suite or command: refused in one line, never "{}" or a crash', () => {
    const cases: [string[], RegExp][] = [
      [['catalog', '--preset', '__proto__'],
        /^error: unknown catalog preset "__proto__" \(presets: toolorchestra, seed-004\)$/],
      [['catalog', '--preset', 'constructor'], /^error: unknown catalog preset "constructor"/],
      [['eval', '--catalog', 'constructor', '--policy', 'random', '--count', '5'],
        /^error: unknown catalog preset "constructor" \(presets: toolorchestra, seed-004; or give a path/],
      [['eval', '--suite', '__proto__', '--policy', 'random', '--count', '5'],
        /^error: unknown suite "__proto__" \(known: hle, frames, tau2\)$/],
      [['eval', '--suite', 'constructor', '--policy', 'random', '--count', '5'], /^error: unknown suite "constructor"/],
      [['constructor'], /^error: unknown command "constructor"/],
    ];
    for (const [args, msg] of cases) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toBe('');
      expect(r.err.trim().split('\n')[0], args.join(' ')).toMatch(msg);
    }
  });

  it('reward: a tool "constructor" or "__proto__" is refused naming the rule (not blamed on costs)', () => {
    for (const id of ['constructor', '__proto__']) {
      const input = join(dir, `reward-${id}.json`);
      const trajectories = '[{"calls":{"b":1},"outcome":1,"costUSD":0.1,"latencyS":1},'
        + '{"calls":{"b":2},"outcome":0,"costUSD":0.2,"latencyS":1}]';
      writeFileSync(input, `{"tools":["${id}","b"],"preference":{"outcome":1},"trajectories":${trajectories}}`);
      const r = cli('reward', '--input', input);
      expect(r.code, id).toBe(2);
      expect(r.err).toContain(`invalid reward input: tools[0]: "${id}" is reserved`);
      expect(r.err).not.toMatch(/too large/);
    }
  });
});

describe('command line: one run per folder', () => {
  it('a second train on one --out is refused naming the first; SIGTERM then saves a whole pair, exit 143', async () => {
    const out = join(dir, 'shared');
    const first = await longRun(out);
    const lock = JSON.parse(readFileSync(join(out, '.orchestra-lab.lock'), 'utf8'));
    expect(lock.pid).toBe(first.child.pid);
    // Run while this process goes on reading the first run's stderr (a spawnSync would leave its pipe full).
    const second = await cliAsync('train', '--seed', '2', '--iterations', '3', ...SMALL, '--out', out);
    expect(second.code).toBe(2);
    expect(second.err).toContain(`--out ${out} is in use by another run: pid ${first.child.pid}`);
    expect(second.err).toMatch(/"train --iterations 100000 .*--out .*shared"/);
    first.child.kill('SIGTERM');
    expect(await first.exit).toBe(143);
    expect(first.err()).toMatch(/interrupted \(SIGTERM\): saving after this iteration/);
    const reached = Number(/saved .* at iteration (\d+) of 100000/.exec(first.err())?.[1]);
    expect(reached).toBeGreaterThanOrEqual(2);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training.iterations).toBe(reached);
    expect(existsSync(join(out, model.weightsManifest[0].paths[0]))).toBe(true);
    const pair = ['metrics.jsonl', 'orchestrator.json', model.weightsManifest[0].paths[0]];
    expect(readdirSync(out).sort()).toEqual(pair.sort()); // the lock is gone
    const resumed = cli('train', '--resume', out, '--iterations', String(reached + 2));
    expect(resumed.code, resumed.err).toBe(0);
  }, 120_000);

  it('SIGHUP is saved as Ctrl-C is (exit 129)', async () => {
    const out = join(dir, 'hangup');
    const run = await longRun(out);
    run.child.kill('SIGHUP');
    expect(await run.exit).toBe(129);
    const reached = Number(/saved .* at iteration (\d+) of 100000/.exec(run.err())?.[1]);
    const saved = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(saved.userDefinedMetadata.training.iterations).toBe(reached);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(reached);
  }, 120_000);

  it('a lock left by a process that is gone is taken over with a note; that process\'s temporaries are removed', () => {
    const { out } = smallRun('stale');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    const host = execFileSync('hostname', { encoding: 'utf8' }).trim();
    const lock = { pid: deadPid, host, startedAt: '2026-01-01T00:00:00.000Z', command: 'train --out killed' };
    writeFileSync(join(out, '.orchestra-lab.lock'), JSON.stringify(lock));
    writeFileSync(join(out, `.${deadPid}.tmp-0`), 'half a weights file'); // what a kill -9 mid-write leaves
    const r = cli('train', '--resume', out, '--iterations', '3');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`was left by a run that is no longer going on (pid ${deadPid}, `
      + 'started 2026-01-01T00:00:00.000Z: "train --out killed"); this run takes it over');
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
  });
});

describe('command line: the weights file a manifest names', () => {
  it('is read only as a plain file name in the policy\'s folder, a regular file of the size the manifest needs '
    + '(eval, calibrate, --init, --resume)', () => {
    const { out, manifest, json } = smallRun('paths');
    const name = json.weightsManifest[0]!.paths[0]!;
    const withPath = (p: string) =>
      writeFileSync(manifest, JSON.stringify(
        { ...json, weightsManifest: [{ ...json.weightsManifest[0], paths: [p] }] },
      ));
    execFileSync('mkfifo', [join(out, 'pipe.bin')]);
    symlinkSync('/etc/passwd', join(out, 'outside.bin'));
    writeFileSync(join(out, 'short.bin'), new Uint8Array(100));
    const cases: [string, RegExp][] = [
      ['../../../../dev/zero', /the weights file it names, "(\.\.\/){4}dev\/zero", is not a plain file name/],
      ['../../../../etc/passwd', /is not a plain file name/],
      ['/etc/passwd', /is not a plain file name/],
      ['outside.bin', /"outside.bin", is a link to a file outside that folder/],
      ['pipe.bin', /"pipe.bin", is not a regular file/],
      ['short.bin', /short.bin has 100 bytes, the manifest needs \d+/],
    ];
    const commands = (): string[][] => [
      ['eval', '--policy', manifest, '--count', '5'],
      ['calibrate', '--policy', manifest, '--count', '5'],
      ['train', '--init', manifest, '--iterations', '2', ...SMALL, '--out', join(dir, 'never-init')],
      ['train', '--resume', out, '--iterations', '5'],
    ];
    for (const [p, msg] of cases) {
      withPath(p);
      // Every command reads through the same check: all four on what once hung or read forever, eval on the rest.
      for (const args of /dev\/zero|pipe/.test(p) ? commands() : commands().slice(0, 1)) {
        const r = cliWithin(20_000, ...args); // never reads on forever (dev/zero, a pipe)
        expect(r.code, `${p}: ${args.join(' ')} (${r.ms} ms)`).toBe(2);
        expect(r.err, `${p}: ${args[0]}`).toMatch(msg);
        expect(r.err).not.toMatch(/has \d{4} bytes/); // no other file's size (passwd has some thousand bytes)
      }
    }
    withPath(name);
    expect(cli('eval', '--policy', manifest, '--count', '5').code).toBe(0);
  }, 300_000);

  it('a manifest not in the network\'s order is refused naming the entry (it scrambled the policy silently)', () => {
    const { manifest, json } = smallRun('reordered');
    const w = json.weightsManifest[0]!.weights;
    [w[3], w[4]] = [w[4]!, w[3]!];
    writeFileSync(manifest, JSON.stringify(json));
    const r = cli('eval', '--policy', manifest, '--count', '5');
    expect(r.code).toBe(2);
    expect(r.err).toContain('weightsManifest[0].weights[3] is "scorer/l1/bias", '
      + 'where a policy\'s own order has "scorer/l1/kernel"');
  });
});

describe('command line: bounds that are said', () => {
  it('a stored run of 1e10 iterations is refused naming the maximum, not asked for an --iterations past it', () => {
    const { out, manifest, json } = smallRun('billion');
    const j = json as unknown as { userDefinedMetadata: { training: { iterations: number } } };
    j.userDefinedMetadata.training.iterations = 1e10;
    writeFileSync(manifest, JSON.stringify(j));
    const r = cli('train', '--resume', out, '--iterations', '5');
    expect(r.code).toBe(2);
    // 2³² − 1: each iteration's draws are seeded from its number as a 32-bit integer.
    expect(r.err).toContain('"iterations" must be a whole number of iterations done, at most 4294967295 '
      + '(the most a run may have; got 10000000000)');
    expect(r.err).not.toMatch(/give --iterations above 10000000000/);
  });

  it('a --pool above the 2000 tasks a pool holds says that the run trains on 2000', () => {
    const out = join(dir, 'big-pool');
    mkdirSync(out);
    const r = cli('train', '--iterations', '1', ...SMALL.slice(0, 4), '--pool', '1000000', '--out', out, '--json');
    expect(r.code).toBe(0);
    expect(r.err).toContain('notice: --pool 1000000: a training pool holds at most 2000 tasks (the lab\'s too); this '
      + 'run trains on 2000');
    // The run's files record the pool it trained on.
    const meta = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8')) as { userDefinedMetadata: { training: { poolSize: number } } };
    expect(meta.userDefinedMetadata.training.poolSize).toBe(2000);
  }, 120_000);
});
