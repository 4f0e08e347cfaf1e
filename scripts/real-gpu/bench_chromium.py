#!/usr/bin/env python3
"""Runs the lab's bench page (dist/bench.html) in a carried Chromium on a machine with a real GPU,
with nothing but Python's standard library: a static server for dist/, and Chrome's DevTools
protocol over --remote-debugging-pipe (no Node, no Playwright there). Writes the figures in the
shape of docs/benchmarks.json, so that scripts/benchMarkdown.ts can render them as real-GPU rows.

  python3 bench_chromium.py --chromium PATH --dist DIR --out FILE [--backends webgpu,wasm] [--plan full]

It first probes a few flag sets and keeps the first whose WebGPU adapter is not a software one
(the adapter and WebGL renderer of each are printed), then runs each backend's bench page in a
fresh tab and waits for window.benchResult.
"""
import argparse, fcntl, functools, http.server, json, os, subprocess, sys, threading, time

COMMON = ['--headless=new', '--no-sandbox', '--disable-gpu-sandbox', '--no-first-run', '--disable-sync',
          '--disable-background-networking', '--disable-component-update', '--disable-quic',
          '--disable-breakpad', '--disable-crash-reporter', '--mute-audio', '--enable-unsafe-webgpu',
          '--ignore-gpu-blocklist', '--enable-logging=stderr', '--v=0']
# Flag sets to try, in order (the first is the one Chrome's developer blog gives for NVIDIA GPUs in
# headless Linux; the others in case the GPU process cannot bring up ANGLE on Vulkan here).
FLAG_SETS = [
    ['--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface'],
    ['--use-gl=angle', '--use-angle=vulkan', '--enable-features=Vulkan,VulkanFromANGLE', '--disable-vulkan-surface'],
    ['--enable-features=Vulkan', '--use-webgpu-adapter=default'],
]

PROBE_JS = r"""(async () => {
  const out = {};
  try {
    if (!navigator.gpu) out.webgpu = 'navigator.gpu missing';
    else {
      const a = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
      if (!a) out.webgpu = 'no adapter';
      else { const i = a.info || {}; out.webgpu = { vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description, isFallbackAdapter: !!(i.isFallbackAdapter ?? a.isFallbackAdapter), maxBufferSize: a.limits.maxBufferSize }; }
    }
  } catch (e) { out.webgpu = 'error: ' + e; }
  try {
    const gl = document.createElement('canvas').getContext('webgl2');
    const ext = gl && gl.getExtension('WEBGL_debug_renderer_info');
    out.webgl = gl ? (ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : 'no webgl2';
  } catch (e) { out.webgl = 'error: ' + e; }
  return JSON.stringify(out);
})()"""


def software(info):
    if not isinstance(info, dict):
        return True
    text = ' '.join(str(v) for v in info.values()).lower()
    return info.get('isFallbackAdapter') or 'swiftshader' in text or 'llvmpipe' in text or 'software' in text


class Chrome:
    """One Chromium process driven over --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-framed JSON)."""

    def __init__(self, exe, flags, log_path, env):
        cmd_r, self.cmd_w = os.pipe()
        self.res_r, res_w = os.pipe()
        # copies above fd 4, so that placing them on 3 and 4 in the child cannot clobber one another
        hi_r, hi_w = fcntl.fcntl(cmd_r, fcntl.F_DUPFD_CLOEXEC, 100), fcntl.fcntl(res_w, fcntl.F_DUPFD_CLOEXEC, 100)

        def child():
            os.dup2(hi_r, 3)  # os.dup2 makes 3 and 4 inheritable; everything else stays close-on-exec
            os.dup2(hi_w, 4)

        self.log = open(log_path, 'ab')
        args = [exe, *COMMON, *flags, '--remote-debugging-pipe', f'--user-data-dir=/tmp/chr-profile-{time.time_ns()}', 'about:blank']
        self.log.write(('\n### ' + ' '.join(args) + '\n').encode())
        self.log.flush()
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=self.log, close_fds=False, preexec_fn=child, env=env)
        for fd in (cmd_r, res_w, hi_r, hi_w):
            os.close(fd)
        self.next_id, self.pending, self.lock = 0, {}, threading.Lock()
        self.buf = b''
        threading.Thread(target=self._reader, daemon=True).start()

    def _reader(self):
        while True:
            chunk = os.read(self.res_r, 1 << 16)
            if not chunk:
                break
            self.buf += chunk
            while b'\0' in self.buf:
                raw, self.buf = self.buf.split(b'\0', 1)
                msg = json.loads(raw)
                if 'id' in msg:
                    with self.lock:
                        slot = self.pending.get(msg['id'])
                    if slot:
                        slot[1] = msg
                        slot[0].set()
        with self.lock:
            for slot in self.pending.values():
                slot[0].set()

    def send(self, method, params=None, session=None, timeout=60):
        with self.lock:
            self.next_id += 1
            mid = self.next_id
            slot = self.pending[mid] = [threading.Event(), None]
        msg = {'id': mid, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.cmd_w, json.dumps(msg).encode() + b'\0')
        if not slot[0].wait(timeout) or slot[1] is None:
            raise RuntimeError(f'{method}: no answer within {timeout} s (browser exited: {self.proc.poll()})')
        if 'error' in slot[1]:
            raise RuntimeError(f"{method}: {slot[1]['error']}")
        return slot[1].get('result', {})

    def open(self, url):
        target = self.send('Target.createTarget', {'url': 'about:blank'})['targetId']
        session = self.send('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        self.send('Page.navigate', {'url': url}, session)
        return target, session

    def evaluate(self, session, expr, timeout=60):
        r = self.send('Runtime.evaluate', {'expression': expr, 'returnByValue': True, 'awaitPromise': True}, session, timeout)
        return r.get('result', {}).get('value')

    def close(self):
        try:
            self.send('Browser.close', timeout=10)
        except Exception:  # noqa: BLE001 — it may be gone already
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        for fd in (self.cmd_w, self.res_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()


def serve(directory, port):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, '.js': 'text/javascript', '.wasm': 'application/wasm'}

        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=directory)
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def bench_page(chrome, url, timeout):
    """One bench page in a tab of its own, closed whatever happens."""
    target = None
    try:
        target, s = chrome.open(url)
        return wait_for_page(chrome, s, timeout)
    except Exception as e:  # noqa: BLE001 — reported as the page's result
        return {'status': 'error', 'message': str(e), 'longestTaskMs': 0}
    finally:
        if target:
            try:
                chrome.send('Target.closeTarget', {'targetId': target}, timeout=10)
            except Exception:  # noqa: BLE001
                pass


def wait_for_page(chrome, session, timeout):
    """Polls window.benchResult, printing the page's log as it grows."""
    shown, t0 = 0, time.time()
    while time.time() - t0 < timeout:
        time.sleep(2)
        left = max(5, timeout - (time.time() - t0))
        log = chrome.evaluate(session, "document.getElementById('bench-log')?.textContent ?? ''", left) or ''
        for line in log.splitlines()[shown:]:
            if not line.startswith(('{', ' ', '}')):
                print('   ', line, flush=True)
        shown = len(log.splitlines())
        res = chrome.evaluate(session, 'JSON.stringify(window.benchResult ?? null)', left)
        if res and res != 'null':
            return json.loads(res)
    return {'status': 'error', 'message': f'no result within {timeout} s', 'longestTaskMs': 0}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--chromium', required=True)
    ap.add_argument('--dist', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--log', default='/tmp/chromium.log')
    ap.add_argument('--backends', default='webgpu,wasm,webgl')
    ap.add_argument('--plan', default='full')
    ap.add_argument('--port', type=int, default=4173)
    ap.add_argument('--page-timeout', type=int, default=240)
    ap.add_argument('--extra', default='', help="more bench pages, '|'-separated queries (e.g. backend=webgpu&plan=quick&flags=…), kept under 'extra'")
    ap.add_argument('--lab', default='', help="lab pages to check, '|'-separated queries: the auto backend's choice and iterations in 20 s of training, under 'lab'")
    ap.add_argument('--deadline', type=int, default=100000, help='seconds from start; a backend is skipped when under 130 s are left')
    a = ap.parse_args()
    backends = [b for b in a.backends.split(',') if b]
    unknown = [b for b in backends if b not in ('webgpu', 'webgl', 'wasm', 'cpu')]
    if unknown:  # the bench page ignores a name it does not know, and would never answer
        ap.error(f"unknown backend {', '.join(unknown)}: use webgpu, webgl, wasm, cpu (none: ',')")
    started = time.time()
    serve(a.dist, a.port)
    env = dict(os.environ)
    origin = f'http://127.0.0.1:{a.port}'

    chosen, probes = None, []
    for flags in FLAG_SETS:
        chrome = Chrome(a.chromium, flags, a.log, env)
        try:
            _, s = chrome.open(f'{origin}/bench.html')
            time.sleep(1.5)
            info = json.loads(chrome.evaluate(s, PROBE_JS, 60))
        except Exception as e:  # noqa: BLE001 — a flag set that fails is reported and the next tried
            info = {'error': str(e)}
        print('probe', flags, json.dumps(info), flush=True)
        probes.append({'flags': flags, **info})
        if isinstance(info.get('webgpu'), dict) and not software(info['webgpu']):
            chosen = (flags, chrome, info)
            break
        chrome.close()
    if not chosen:
        print('no hardware WebGPU adapter with any flag set; running on the first set anyway', flush=True)
        chrome = Chrome(a.chromium, FLAG_SETS[0], a.log, env)
        chosen = (FLAG_SETS[0], chrome, probes[0])
    flags, chrome, info = chosen

    try:  # the browser goes whatever happens: never left running on the GPU
        gpu_name = ''
        try:
            gpu_name = subprocess.run(['nvidia-smi', '--query-gpu=name,driver_version', '--format=csv,noheader'], capture_output=True, text=True, timeout=20).stdout.strip()
        except Exception:  # noqa: BLE001
            pass
        doc = {'plan': a.plan, 'date': time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()),
               'machine': f"{gpu_name or 'GPU unknown'}; {os.cpu_count()} CPU cores; Chromium {chrome_version(a.chromium)}",
               'realGpu': True, 'flags': flags, 'probes': probes, 'totalS': 0, 'runs': []}
        due = functools.partial(within_deadline, started=started, deadline=a.deadline)
        for backend, left in due(backends, 130, lambda b: f'Chromium, {b}'):
            r = bench_page(chrome, f'{origin}/bench.html?backend={backend}&plan={a.plan}', min(a.page_timeout, left - 10))
            print('   ', r.get('status'), r.get('message', ''), r.get('adapter', ''), flush=True)
            run = {'where': 'chromium', 'backend': backend, 'status': r.get('status', 'error')}
            for k in ('message', 'adapter', 'software', 'report'):
                if k in r:
                    run[k] = r[k]
            run['longestTaskMs'] = r.get('longestTaskMs') if r.get('status') == 'done' else None
            doc['runs'].append(run)
            save(a.out, doc, started)
        for query, left in due(filter(None, a.extra.split('|')), 60, lambda q: f'bench.html?{q}'):
            r = bench_page(chrome, f'{origin}/bench.html?{query}', min(a.page_timeout, left - 10))
            doc.setdefault('extra', []).append({'query': query, 'status': r.get('status'), 'message': r.get('message'), 'report': r.get('report')})
            save(a.out, doc, started)
        for query, _ in due(filter(None, a.lab.split('|')), 50, lambda q: f'lab ?{q}'):
            try:
                doc.setdefault('lab', []).append(check_lab(chrome, f'{origin}/index.html?{query}'))
            except Exception as e:  # noqa: BLE001 — reported, and the run goes on
                doc.setdefault('lab', []).append({'url': query, 'error': str(e)})
            print('   ', json.dumps(doc['lab'][-1]), flush=True)
            save(a.out, doc, started)
    finally:
        chrome.close()
    print(f'done in {time.time() - started:.0f} s', flush=True)


def within_deadline(items, need, label, started, deadline):
    """The items there is time for (at least `need` seconds of the deadline left), with the seconds left; the others are reported as skipped."""
    for item in items:
        left = deadline - (time.time() - started)
        if left < need:
            print(f'— {label(item)}: skipped, {left:.0f} s left of the deadline', flush=True)
            continue
        print(f'— {label(item)}', flush=True)
        yield item, left


def save(path, doc, started):
    doc['totalS'] = time.time() - started
    with open(path, 'w') as fh:  # written after every page, so a cut-off run keeps what it has
        json.dump(doc, fh, indent=1)


LAB_STATE_JS = r"""JSON.stringify({
  backend: document.querySelector('.badge[data-backend]')?.dataset.backend ?? null,
  mode: document.querySelector('.badge[data-backend]')?.dataset.mode ?? null,
  probe: document.querySelector('[data-testid=backend-probe]')?.textContent ?? null,
  badge: document.querySelector('.badge[data-backend]')?.textContent ?? null,
  iteration: Number(document.querySelector('[data-testid=iteration]')?.textContent ?? NaN),
})"""


def check_lab(chrome, url):
    """Opens the lab, waits for the auto backend's choice, presses Start and counts iterations in 20 s."""
    t0 = time.time()
    target, s = chrome.open(url)
    try:
        return lab_state(chrome, s, url, t0)
    finally:
        chrome.send('Target.closeTarget', {'targetId': target})


def lab_state(chrome, s, url, t0):
    state = {}
    while time.time() - t0 < 40:
        time.sleep(1)
        state = json.loads(chrome.evaluate(s, LAB_STATE_JS))
        if state.get('backend'):
            break
    ready_s = time.time() - t0
    chrome.evaluate(s, "[...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Start')?.click()")
    start_iter, t1 = state.get('iteration'), time.time()
    time.sleep(20)
    end = json.loads(chrome.evaluate(s, LAB_STATE_JS))
    return {'url': url, **state, 'readyS': round(ready_s, 1), 'iterationsIn20s': (end.get('iteration') or 0) - (start_iter if isinstance(start_iter, (int, float)) and start_iter == start_iter else 0), 'seconds': round(time.time() - t1, 1), 'after': end}


def chrome_version(exe):
    try:
        return subprocess.run([exe, '--version', '--no-sandbox'], capture_output=True, text=True, timeout=20).stdout.strip().split(' ')[-1]
    except Exception:  # noqa: BLE001
        return '?'


if __name__ == '__main__':
    sys.exit(main())
