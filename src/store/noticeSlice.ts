// The notice slice: the page's notices (their rules in notices.ts: one per topic, at most three),
// starting with what the lab ignored in the link the page opened with.

import type { LabSlice, NoticeSlice } from './labState';
import { withNotice } from './notices';
import { openedLink } from './openedLink';

export const createNoticeSlice: LabSlice<NoticeSlice> = (set) => {
  let noticeId = 1;
  const { invalid, refusals, unknown } = openedLink();
  return {
    notices: invalid.length || unknown.length
      ? [{ id: noticeId++, kind: 'warn', text: [
        ...(invalid.length
          ? [`Ignored invalid link settings (${refusals.join('; ')}); using the defaults for those.`] : []),
        ...(unknown.length ? [`Ignored link parameters the lab does not know (${unknown.join(', ')}).`] : []),
      ].join(' ') }]
      : [],
    notify(kind, text, topic, action) {
      set((s) => ({ notices: withNotice(s.notices, { id: noticeId++, kind, text, ...(topic ? { topic } : {}),
        ...(action ? { action } : {}) }) }));
    },
    dismiss(id) {
      set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
    },
  };
};
