// The share slice, the page's side of sharing a lab with its policy (encodings in core/io/shareBundle.ts):
// "Share with policy" (the file, and a link whose fragment carries int8 weights when it fits),
// importing a share file (settings, then the policy, through the worker's validated import), and
// the `#policy=` of a link opened at boot. A refused import changes nothing: settings and model stay.

import { errorMessage } from '../core/errorMessage';
import {
  decodePolicyParam, decodeShareFile, minPolicyParamChars, policyParamOf, SHARE_FILE, withPolicyParam,
} from '../core/io/shareBundle';
import type { LabEnv, LabSlice, ShareSlice } from './labState';
import { openedLink } from './openedLink';
import { bytesBlob, jsonBlob } from './policyBlobs';
import { saveFile } from './saveFile';
import { linkTooLong, MAX_FRAGMENT_CHARS, readUrl, urlConfigOf, writeUrl, type UrlConfig } from './urlState';


export const createShareSlice = (env: LabEnv): LabSlice<ShareSlice> => (set, get) => {
  /** The weights a link opened this page with, taken before anything rewrites the address bar. */
  let linkPolicy = policyParamOf(openedLink().hash);

  /** Applies settings through the worker; false when it refused them (configure said why and went back). */
  const applySettings = async (next: UrlConfig): Promise<boolean> => {
    const catalogChanged = JSON.stringify(next.catalog) !== JSON.stringify(get().catalog);
    const preset = get().preset;
    set({ ...next });
    env.syncUrl();
    await env.configure();
    const applied = writeUrl(urlConfigOf(get())) === writeUrl(next);
    if (!applied) {
      set({ preset }); // configure put the rest back
      env.syncUrl();
    }
    if (catalogChanged) void get().regenerate();
    return applied;
  };

  return {
    async shareWithPolicy() {
      const config = urlConfigOf(get());
      env.syncUrl();
      const settings = writeUrl(config);
      const tooLong = linkTooLong(config);
      // The worker encodes (a large policy takes a second); it skips the link when the weights alone could not fit one.
      const r = await env.worker().request({ type: 'sharePolicy', settings,
        linkBudget: tooLong ? 0 : MAX_FRAGMENT_CHARS });
      if (r.type !== 'shared') throw new Error('the worker did not export the policy');
      const { file } = r;
      set({ savedPoint: get().series.at(-1) ?? null }); // the file (and the link, where one fits) carries this policy
      if (tooLong) return { file, link: null, note: `No link with the policy: ${tooLong}. The file carries the settings and the policy.` };
      const tooLarge = (what: string) => ({ file, link: null,
        note: `The policy is too large for a link: ${what} (a link carries at most ${MAX_FRAGMENT_CHARS / 1000} KB). ` +
          `Share the file instead.` });
      if (r.param === null) return tooLarge(`its weights alone would take at least ${(minPolicyParamChars(r.floats) / 1000).toFixed(1)} KB`);
      const link = withPolicyParam(location.href, r.param); // the settings link, as Copy link gives it
      const fragment = link.length - link.indexOf('#');
      if (fragment > MAX_FRAGMENT_CHARS) return tooLarge(`its fragment would take ${(fragment / 1000).toFixed(1)} KB`);
      return { file, link, note: `The link (${(link.length / 1000).toFixed(1)} KB) carries the settings and the ` +
        `policy, its weights rounded to int8 (each within 1/254 of the largest in its column); the file keeps them ` +
        `exact.` };
    },

    saveShareFile(text) {
      saveFile(SHARE_FILE, text, 'application/json');
    },

    async importShareFile(file) {
      const refuse = (why: string) => {
        get().notify('error', `Import refused: ${why}. The current model and settings are unchanged.`, 'import');
        return false;
      };
      let bundle: ReturnType<typeof decodeShareFile>;
      try {
        bundle = decodeShareFile(await file.text());
      } catch (e) {
        return refuse(errorMessage(e));
      }
      const { artifact, weights } = bundle;
      const parsed = readUrl(bundle.settings);
      const ignored = [...parsed.invalid, ...parsed.unknown];
      if (ignored.length) return refuse(`the file's settings hold values the lab refuses or parameters it does not know (${ignored.join(', ')})`);
      const prev = urlConfigOf(get());
      const next: UrlConfig = { ...parsed.config, backend: prev.backend }; // the backend belongs to this machine
      const policy = () => get().importWeights(jsonBlob(artifact), bytesBlob(weights), { quiet: true, replacedBy: 'sharedLab' });
      if (writeUrl(next) === writeUrl(prev)) {
        const ok = await policy();
        if (ok) get().notify('info', 'Imported the shared policy (its settings were already these).', 'policy');
        return ok;
      }
      // New settings may replace the network (another seed or size): keep the current policy to put back.
      const backup = await env.worker().request({ type: 'export' }).catch(() => null);
      if (!(await applySettings(next))) return false;
      if (await policy()) {
        get().notify('info', 'Imported the shared lab: its settings and its trained policy.', 'policy');
        return true;
      }
      await applySettings(prev);
      if (backup?.type === 'exported') await get().importWeights(jsonBlob(backup.json), bytesBlob(backup.weights), { quiet: true, replacedBy: 'previousPolicy' });
      get().notify('warn', 'The shared lab was not imported: the previous settings and policy were put back.', 'import');
      return false;
    },

    async bootPolicy() {
      const value = linkPolicy;
      linkPolicy = null;
      if (value === null) return false;
      try {
        let decoded;
        try {
          decoded = decodePolicyParam(value, get().catalog);
        } catch (e) {
          get().notify('error', `The link's policy could not be read: ${errorMessage(e)}. Starting from the default policy.`, 'link');
          return false;
        }
        const ok = await get().importWeights(jsonBlob(decoded.artifact), bytesBlob(decoded.weights), { quiet: true, replacedBy: 'linkPolicy' });
        if (ok) get().notify('info', "Loaded the trained policy from the link (int8 weights, each within 1/254 of the largest in its column).", 'policy');
        if (ok && decoded.unchecked) {
          get().notify('warn', 'The link was made by an older version of the lab, without a checksum: '
            + 'its policy was loaded, but whether it was altered or damaged on the way could not be checked. '
            + 'A link made now carries one.', 'link');
        } else if (!ok) get().notify('error', "The link's policy was refused (see above); starting from the default policy.", 'link');
        return ok;
      } finally {
        env.syncUrl(); // the weights leave the address bar (the settings stay)
      }
    },
  };
};
