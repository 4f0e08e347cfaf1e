// The backend slice, the page's side of the backend: start tfjs in the worker (forced, the cached
// measurement, or a fresh speed probe), switch or re-measure, and show at once what is happening
// (`backendSwitch`). The probe's reports are cached in this browser (probeCache.ts).

import { slotsOf } from '../core/sim/slots';
import { probeSizeKey, probeSizeOf } from '../core/bench/probeSize';
import type { BackendInfo } from '../worker/protocol';
import type { BackendSlice, LabEnv, LabSlice } from './labState';
import { cachedProbe, rememberProbe } from './probeCache';

export const createBackendSlice = (env: LabEnv): LabSlice<BackendSlice> => (set, get) => {
  const probeSize = () => probeSizeOf(get().train, slotsOf(get().catalog).length);
  const adopt = (b: BackendInfo) => {
    set({ backendInfo: b });
    get().dropPhases(); // a switch closed any slow-motion iteration
    rememberProbe(b.probe);
    if (b.name === 'webgpu' && b.software && b.mode === 'forced') {
      get().notify('warn', `WebGPU runs on a software adapter here (${b.adapter}): every GPU op is emulated on the ` +
        `CPU, so training is slow: the first iteration also compiles the GPU kernels, which can take 20 s or more. ` +
        `Choose "auto" in the backend selector to train on the backend measured fastest (the policy is carried ` +
        `over).`, 'backend');
    }
  };
  return {
    backendInfo: null,
    backendSwitch: null,
    async startBackend() {
      const forced = get().backend;
      const size = probeSize();
      const cached = cachedProbe(probeSizeKey(size));
      set({ backendSwitch: forced ? `starting ${forced}…` : cached ? 'starting the measured backend…' : 'measuring the backends (≤ 2 s)…' });
      try {
        const r = await env.worker().request({ type: 'init', probeSize: size,
          ...(forced ? { backend: forced } : cached ? { cachedProbe: cached } : {}) });
        if (r.type === 'ready') adopt(r.backend);
      } finally {
        set({ backendSwitch: null });
      }
    },
    // The weights move along to the backend switched to.
    async setBackend(name, remeasure = false) {
      if (get().backendSwitch) return; // one switch at a time; the selector is disabled meanwhile
      const auto = name === 'auto';
      const size = probeSize();
      // Training, if it runs, waits for the switch and goes on after it: the page keeps showing it as running (the top bar says what is switching).
      set({ backendSwitch: auto ? (remeasure ? 'measuring the backends (≤ 2 s)…' : 'choosing the fastest backend…') : `switching to ${name}…` });
      if (get().evaluating) set({ backendSwitch: `${get().backendSwitch} (after the running evaluation)` });
      try {
        const cached = remeasure ? undefined : cachedProbe(probeSizeKey(size));
        const r = auto
          ? await env.worker().request({ type: 'chooseBackend', probeSize: size,
            ...(cached ? { cachedProbe: cached } : {}) })
          : await env.worker().request({ type: 'setBackend', backend: name });
        if (r.type === 'ready') {
          adopt(r.backend);
          set({ backend: auto ? null : name });
          env.syncUrl();
          if (!auto && r.backend.name !== name) get().notify('warn',
            `Backend ${name} is not available here; using ${r.backend.name}. ${r.backend.notes.join('; ')}`, 'backend');
          else get().notify('info',
            `${auto ? `Chose ${r.backend.name} by measurement` : `Switched to ${name}`}; the policy's weights were carried over (Adam's moments restart).`,
            'backend');
        }
      } catch (e) {
        env.fail(e);
      } finally {
        set({ backendSwitch: null });
      }
    },
  };
};
