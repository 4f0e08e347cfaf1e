// The page's store (zustand), made of slices (zustand's slices pattern): each *Slice.ts makes its part
// of LabState (labState.ts) with the whole store's set and get, and the slices share one LabEnv
// (labEnv.ts: the worker, failures, the settings' trip to the worker, the address bar, boot's gate).
// The configuration lives in the URL (urlState.ts); the worker owns training and evaluation: the store
// only holds results and routes intent — no training maths here.

import { create } from 'zustand';
import { createBackendSlice } from './backendSlice';
import { createBootSlice } from './bootSlice';
import { createDataSlice } from './dataSlice';
import { createEvalSlice } from './evalSlice';
import { createKeepSlice } from './keepSlice';
import { labEnv } from './labEnv';
import type { LabState } from './labState';
import { createNoticeSlice } from './noticeSlice';
import { createPolicyFileSlice } from './policyFileSlice';
import { createRunSlice } from './runSlice';
import { createSettingsSlice } from './settingsSlice';
import { createShareSlice } from './shareSlice';
import { createTeachSlice } from './teachSlice';

export type { Notice, NoticeTopic } from './notices';
export type { LabState } from './labState';
export { onRunStart } from './runSlice';

export const useLab = create<LabState>()((...a) => {
  const env = labEnv(a[2]);
  return {
    ...createSettingsSlice(env)(...a),
    ...createRunSlice(env)(...a),
    ...createBackendSlice(env)(...a),
    ...createTeachSlice(env)(...a),
    ...createPolicyFileSlice(env)(...a),
    ...createShareSlice(env)(...a),
    ...createKeepSlice(env)(...a),
    ...createEvalSlice(env)(...a),
    ...createDataSlice(env)(...a),
    ...createNoticeSlice(...a),
    ...createBootSlice(env)(...a),
  };
});
