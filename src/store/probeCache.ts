// The backend speed probe's reports, cached in this browser (localStorage) so a later visit starts
// on the measured backend at once. The worker accepts a cached report only for the same adapter,
// training size and lab version (backend.ts); here the page keeps the latest report per size.

import { BACKEND_NAMES, type BackendProbeReport } from '../worker/protocol';

const KEY = 'orchestra-lab:backend-probe';
const KEEP = 8;

/**
 * A report as the worker wrote it. Storage is outside the lab's control (another page of the same
 * origin can write it): a choice that is no backend's name ("__proto__" once stopped the page from
 * booting) makes the whole entry be ignored, and the backends are measured again.
 */
function isReport(r: unknown): r is BackendProbeReport {
  if (typeof r !== 'object' || r === null) return false;
  const x = r as Partial<Record<keyof BackendProbeReport, unknown>>;
  return typeof x.sizeKey === 'string' && typeof x.version === 'string' && typeof x.adapter === 'string'
    && Array.isArray(x.results) && typeof x.choice === 'string'
    && (BACKEND_NAMES as readonly string[]).includes(x.choice);
}

function readAll(): BackendProbeReport[] {
  try {
    const raw = localStorage.getItem(KEY);
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    return Array.isArray(list) ? (list as unknown[]).filter(isReport) : [];
  } catch {
    return []; // storage blocked or corrupt: measure again
  }
}

/** The cached report for this training size, if any. */
export function cachedProbe(sizeKey: string): BackendProbeReport | undefined {
  return readAll().find((r) => r.sizeKey === sizeKey);
}

/** Remembers a fresh report (cached ones are not written back, inconclusive ones are measured again next time). */
export function rememberProbe(report: BackendProbeReport | undefined): void {
  if (!report || report.cached || report.inconclusive) return;
  try {
    localStorage.setItem(KEY, JSON.stringify([report, ...readAll().filter((r) => r.sizeKey !== report.sizeKey)].slice(0, KEEP)));
  } catch {
    // storage full or blocked: the next visit measures again
  }
}
