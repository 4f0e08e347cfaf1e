// The link the page opened with, read once before anything rewrites the address bar: the settings
// start from it (settingsSlice.ts), its refusals are the first notices (noticeSlice.ts), its
// `#policy=` is the share slice's to import, and boot puts this browser's saved lab back only under
// the lab's own link (no fragment, nothing refused).

import { withoutPolicyParam } from '../core/io/shareBundle';
import { readUrl } from './urlState';

export type OpenedLink = ReturnType<typeof readUrl> & {
  /** The fragment as the page opened (#policy=, #catalog=), before share code takes #policy= out. */
  hash: string;
};

let opened: OpenedLink | null = null;

export function openedLink(): OpenedLink {
  if (opened) return opened;
  const search = typeof location === 'undefined' ? '' : location.search;
  const hash = typeof location === 'undefined' ? '' : location.hash;
  opened = { ...readUrl(search, withoutPolicyParam(hash)), hash }; // a link's #policy= is the share slice's bootPolicy
  return opened;
}

/** Whether this is the lab's own link: no fragment and nothing the lab refused or ignored in it. */
export const ownLink = (link: OpenedLink): boolean =>
  link.hash.length <= 1 && !link.invalid.length && !link.unknown.length;
