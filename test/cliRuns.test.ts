// The CLI's training runs that are never lost or half-written: --out checked before any work,
// checkpoints and --resume (with a stored run checked against the command line's bounds), the
// learning-rate schedule across a resume, and Ctrl-C.
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, scratchDir } from './cliHelpers';

const dir = scratchDir();

describe('command line: output that is never lost or half-written', () => {
  it('checks --out before any work: an existing file, an unwritable place, a directory for generate', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const cases: [string[], RegExp][] = [
      [['train', '--iterations', '2', '--out', file], /--out ".*a-file" is an existing file; give a directory/],
      [['train', '--iterations', '2', '--out', join(file, 'run')], /--out: cannot write in ".*a-file\/run": ENOTDIR/],
      [['generate', '--catalog', 'toolorchestra', '--count', '5', '--out', dir], /--out ".*" is a directory; give a file name/],
    ];
    for (const [args, msg] of cases) {
      const t0 = Date.now();
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim()).toMatch(msg);
      expect(r.err).not.toMatch(/it +1 /); // refused before training
      expect(Date.now() - t0).toBeLessThan(20_000);
    }
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]); // no stray temporaries
  });

  it('never replaces what it did not write: a folder with a run\'s files, an earlier reproduction, a named pipe; writes through a link', () => {
    const partial = join(dir, 'partial');
    mkdirSync(partial);
    writeFileSync(join(partial, 'metrics.jsonl'), '{"precious":true}\n');
    writeFileSync(join(partial, 'orchestrator.weights.bin'), 'weights');
    const t = cli('train', '--iterations', '2', '--out', partial);
    expect(t.code).toBe(2);
    expect(t.err).toMatch(/--out .*partial already holds metrics\.jsonl, orchestrator\.weights\.bin, which a run writes or replaces/);
    expect(readFileSync(join(partial, 'metrics.jsonl'), 'utf8')).toBe('{"precious":true}\n');
    expect(readFileSync(join(partial, 'orchestrator.weights.bin'), 'utf8')).toBe('weights');
    const rep = join(dir, 'rep');
    mkdirSync(rep);
    writeFileSync(join(rep, 'REPRODUCTION.md'), 'earlier');
    const r = cli('reproduce', '--quick', '--out', rep);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/already holds REPRODUCTION\.md: give another --out/);
    expect(readFileSync(join(rep, 'REPRODUCTION.md'), 'utf8')).toBe('earlier');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const g = cli('generate', '--count', '3', '--out', fifo);
    expect(g.code).toBe(2);
    expect(g.err).toMatch(/--out ".*pipe" is a named pipe; give a file name/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const target = join(dir, 'target.jsonl'), link = join(dir, 'link.jsonl');
    writeFileSync(target, '');
    symlinkSync(target, link);
    expect(cli('generate', '--count', '3', '--out', link).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true); // the link stays a link
    expect(readFileSync(target, 'utf8').trim().split('\n')).toHaveLength(3); // and the tasks went where it points
  });

  it('checkpoints, and --resume goes on from the saved iteration; the folder always holds one whole pair', () => {
    const out = join(dir, 'resumable');
    const first = cli('train', '--seed', '4', '--iterations', '6', '--checkpoint-every', '3', '--batch', '2', '--group', '4', '--pool', '60', '--out', out);
    expect(first.code, first.err).toBe(0);
    const weightsFiles = () => readdirSync(out).filter((f) => /^orchestrator\.weights.*\.bin$/.test(f));
    expect(weightsFiles()).toHaveLength(1);
    const r = cli('train', '--resume', out, '--iterations', '10', '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/trained 4 iterations \(from 6\)/);
    expect(JSON.parse(r.out)).toMatchObject({ iteration: 10, iterations: 10 });
    const lines = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).iteration);
    expect(lines).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training).toMatchObject({ iterations: 10, batchTasks: 2, groupSize: 4, seed: 4 });
    expect(weightsFiles()).toEqual([model.weightsManifest[0].paths[0]]);
    expect(cli('train', '--resume', out, '--iterations', '10').err).toMatch(/has 10 iterations already/);
    expect(cli('train', '--resume', out, '--out', `${out}/`, '--iterations', '10').err).toMatch(/has 10 iterations already/); // the same folder, written another way
    expect(cli('train', '--resume', out).err).toMatch(/--resume .*resumable: give --iterations N, the total to reach \(this run has done 10\)/); // a constant rate names no end
    // A new run into the same folder would replace this one: refused, and nothing is touched.
    const before = readFileSync(join(out, 'orchestrator.json'), 'utf8');
    const again = cli('train', '--seed', '5', '--iterations', '2', '--batch', '2', '--group', '4', '--pool', '60', '--out', out);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/--out .*resumable already holds a run \(orchestrator\.json\): go on with it \(--resume .*\), or give another --out/);
    expect(readFileSync(join(out, 'orchestrator.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(10);
  });

  it('--resume refuses a hand-edited run it could not have started, and options that would change the run, and leaves the run as it was', () => {
    const out = join(dir, 'edited');
    expect(cli('train', '--seed', '4', '--iterations', '2', '--batch', '2', '--group', '4', '--pool', '60', '--out', out).code).toBe(0);
    const manifest = join(out, 'orchestrator.json'), metrics = join(out, 'metrics.jsonl');
    const original = readFileSync(manifest, 'utf8'), originalMetrics = readFileSync(metrics, 'utf8');
    type T = Record<string, unknown> & { sim: Record<string, unknown>; preference: Record<string, unknown> };
    const cases: [(t: T) => void, RegExp][] = [
      [(t) => { t.iterations = -5; }, /"iterations" must be a whole number of iterations done \(got -5\)/],
      [(t) => { t.iterations = 2.5; }, /"iterations" must be a whole number/],
      [(t) => { t.learningRate = 'abc'; }, /"learningRate" must be a finite number \(got "abc"\)/],
      [(t) => { t.learningRate = 1e6; }, /"learningRate" must be a number in \[1e-8, 1\] \(as --lr; got 1000000\)/],
      [(t) => { t.batchTasks = 0; }, /"batchTasks" must be an integer in \[1, 1024\] \(as --batch; got 0\)/],
      [(t) => { t.batchTasks = 'x'; }, /"batchTasks" must be a finite number \(got "x"\)/],
      [(t) => { t.sim.maxTurns = 0; }, /"sim\.maxTurns" must be an integer in \[2, 100\]/],
      [(t) => { t.epochs = 0; }, /"epochs" must be an integer in \[1, 32\]/],
      [(t) => { t.reward = 'bogus'; }, /"reward" must be one of toolorchestra/],
      [(t) => { t.aggregation = 'bogus'; }, /"aggregation" must be token-mean or seq-mean-token-mean/],
      [(t) => { t.preferenceMode = 'bogus'; }, /"preferenceMode" must be fixed or random/],
      [(t) => { t.preference.tools = { bogus: 1 }; }, /"preference" weighs "bogus", which is not a tool of the run's catalog/],
      [(t) => { delete t.poolSize; }, /"poolSize" is missing/],
      [(t) => { (t.advantage as Record<string, unknown>).clip = -1; }, /"advantage\.clip" must be null \(off\) or > 0 \(got -1\)/],
      [(t) => { (t.weighted as Record<string, unknown>).perCall = 1e300; }, /"weighted\.perCall" must be in \[−1e6, 1e6\]/],
      [(t) => { (t.sim.spread as Record<string, unknown>).retrieve = -7; }, /"sim\.spread\.retrieve" must be ≥ 0 \(got -7\)/],
    ];
    for (const [edit, message] of cases) {
      const m = JSON.parse(original);
      edit(m.userDefinedMetadata.training);
      writeFileSync(manifest, JSON.stringify(m));
      const r = cli('train', '--resume', out, '--iterations', '4');
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(/orchestrator\.json: userDefinedMetadata\.training: /);
      expect(r.err).toMatch(message);
      expect(readFileSync(metrics, 'utf8')).toBe(originalMetrics);
    }
    writeFileSync(manifest, original);
    const changed = cli('train', '--resume', out, '--iterations', '4', '--lr', '0.5', '--seed', '9', '--random-preferences');
    expect(changed.code).toBe(2);
    expect(changed.err).toMatch(/--resume keeps the settings the run was started with \(in .*edited\/orchestrator\.json\); leave out --seed, --lr, --random-preferences, or start a new run from it: --init/);
    expect(readFileSync(manifest, 'utf8')).toBe(original);
    // A damaged metrics file is said; its readable lines are kept, the damaged one alone is lost, and
    // a later resume loses nothing more.
    writeFileSync(metrics, `${originalMetrics.split('\n')[0]}\ngarbage{\n`);
    const r = cli('train', '--resume', out, '--iterations', '4');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/metrics\.jsonl lacks the metrics of 1 of its 2 iterations \(unreadable, out of order or missing lines\); the resumed file keeps the 1 it has/);
    const iterations = () => readFileSync(metrics, 'utf8').trim().split('\n').map((l) => JSON.parse(l).iteration);
    expect(iterations()).toEqual([1, 3, 4]);
    const again = cli('train', '--resume', out, '--iterations', '6');
    expect(again.err).toMatch(/lacks the metrics of 1 of its 4 iterations/);
    expect(iterations()).toEqual([1, 3, 4, 5, 6]);
  });

  it('a success-first run records the weight of its preference part; a resume under another weight, or an unrecorded one, says so and goes on', () => {
    const out = join(dir, 'weighed');
    expect(cli('train', '--seed', '4', '--iterations', '2', '--batch', '2', '--group', '4', '--pool', '60', '--reward', 'success-first', '--out', out).code).toBe(0);
    const manifest = join(out, 'orchestrator.json');
    const written = JSON.parse(readFileSync(manifest, 'utf8'));
    expect(written.userDefinedMetadata.training.preferencePart).toBe(1.5); // R = outcome·(1 + 1.5·P·M̃/ΣP)
    const same = cli('train', '--resume', out, '--iterations', '3');
    expect(same.code, same.err).toBe(0);
    expect(same.err).not.toMatch(/preference part/);
    const edit = (f: (t: Record<string, unknown>) => void) => {
      const m = JSON.parse(readFileSync(manifest, 'utf8'));
      f(m.userDefinedMetadata.training);
      writeFileSync(manifest, JSON.stringify(m));
    };
    edit((t) => { t.preferencePart = 1; });
    const other = cli('train', '--resume', out, '--iterations', '4');
    expect(other.code, other.err).toBe(0);
    expect(other.err).toMatch(/weighed\/orchestrator\.json was trained with the success-first reward's preference part weighing 1; the run goes on under 1\.5/);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).userDefinedMetadata.training.preferencePart).toBe(1.5); // what it goes on under
    edit((t) => { delete t.preferencePart; });
    expect(cli('train', '--resume', out, '--iterations', '5').err).toMatch(/does not record the weight of the success-first reward's preference part \(1 in runs written before 2026-12-06 11:41 UTC, 1\.5 since\); the run goes on under 1\.5/);
    edit((t) => { t.preferencePart = 'heavy'; });
    const bad = cli('train', '--resume', out, '--iterations', '6');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/"preferencePart" must be a number ≥ 0, the weight of the success-first reward's preference part \(got "heavy"\)/);
  });

  it('--lr-decay lowers the learning rate linearly to 0 over the run, logs it, and a resumed run keeps the schedule', () => {
    const out = join(dir, 'decayed');
    const small = ['--seed', '4', '--batch', '2', '--group', '4', '--pool', '60', '--lr', '0.002'];
    expect(cli('train', ...small, '--iterations', '4', '--lr-decay', '2', '--out', out).err).toMatch(/--lr-decay must be a number in \[0, 1\] \(got "2"\)/);
    const r = cli('train', ...small, '--iterations', '4', '--lr-decay', '1', '--out', out);
    expect(r.code, r.err).toBe(0);
    // (4 − k)/4 of 0.002 at iterations k = 0…3: 0.002, 0.0015, 0.001, 0.0005.
    const rates = readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).learningRate);
    expect(rates.map((x: number) => x.toFixed(6))).toEqual(['0.002000', '0.001500', '0.001000', '0.000500']);
    expect(cli('train', '--resume', out, '--iterations', '6').err).toMatch(/reached 0 at iteration 4, where this run stopped: more iterations would not change the weights/);
    expect(cli('train', '--resume', out, '--iterations', '4').err).toMatch(/reached 0 at iteration 4/); // not "give --iterations above 4", which it would refuse
    expect(cli('train', '--resume', out, '--iterations', '6', '--lr-decay', '0.5').err).toMatch(/a resumed run keeps the schedule/);
    const manifest = join(out, 'orchestrator.json');
    const model = JSON.parse(readFileSync(manifest, 'utf8'));
    model.userDefinedMetadata.training.lrDecay = { start: 4, end: 4 }; // hand-edited: would divide by zero
    writeFileSync(manifest, JSON.stringify(model));
    expect(cli('train', '--resume', out, '--iterations', '4').err).toMatch(/learning-rate schedule must run from an iteration to a later one/);
  });

  it('Ctrl-C saves the run at the end of the iteration in flight and says how to resume', async () => {
    const out = join(dir, 'interrupted');
    // A terminal's Ctrl-C can reach the CLI twice (the whole process group gets it, and npm relays
    // it again to the script it runs), the second a moment after the first: sent here as two signals 10 ms apart,
    // inside one iteration (width 128: about 0.1 s), to the CLI's own node process, it is still one Ctrl-C.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'train', '--iterations', '100000', '--progress-every', '1', '--width', '128', '--pool', '60', '--out', out]);
    let err = '', sent = false;
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/it +3 /.test(err) && !sent) {
          sent = true;
          child.kill('SIGINT');
          setTimeout(() => child.kill('SIGINT'), 10);
        }
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toMatch(/saved .* at iteration (\d+) of 100000; go on with: npm run cli -- train --resume/);
    const reached = Number(/at iteration (\d+) of/.exec(err)?.[1]);
    const model = JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8'));
    expect(model.userDefinedMetadata.training.iterations).toBe(reached);
    expect(readFileSync(join(out, 'metrics.jsonl'), 'utf8').trim().split('\n')).toHaveLength(reached);
  }, 120_000);

  it('Ctrl-C from a terminal (the whole process group) saves a run started with npm run cli, even one whose iterations are slow', async () => {
    // tsx's own launcher would SIGKILL a child whose event loop is busy when the signal comes; the
    // `cli` script runs node with tsx as a loader, so the iteration in flight ends and the run is saved.
    const out = join(dir, 'interrupted-npm');
    const child = spawn('npm', ['run', '-s', 'cli', '--', 'train', '--iterations', '100000', '--progress-every', '1', '--width', '256', '--pool', '60', '--out', out], { detached: true });
    let err = '', sent = false;
    const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (/it +2 /.test(err) && !sent) {
          sent = true;
          setTimeout(() => process.kill(-(child.pid as number), 'SIGINT'), 100); // inside the next iteration (about 0.25 s at width 256), while the loop is busy
        }
      });
      child.on('exit', (code, signal) => resolve({ code, signal }));
    });
    expect(ended.code === 130 || ended.signal === 'SIGINT', JSON.stringify(ended)).toBe(true); // npm gets the signal too, so its own exit says little: the saved run below is the check
    expect(err).toMatch(/saved .* at iteration (\d+) of 100000; go on with: npm run cli -- train --resume/);
    const reached = Number(/at iteration (\d+) of/.exec(err)?.[1]);
    expect(JSON.parse(readFileSync(join(out, 'orchestrator.json'), 'utf8')).userDefinedMetadata.training.iterations).toBe(reached);
  }, 120_000);
});
