// The page's messages to the user: what was wrong with an input, a divergence, what was loaded.
// One notice per topic is on show: a newer one on the same topic replaces it, and a notice about a
// state that has ended goes (policy: the current policy's origin, gone when it is replaced; run:
// why training paused, gone when it starts again; catalog: a refused edit, gone when one applies).

export type NoticeTopic = 'policy' | 'settings' | 'recipe' | 'run' | 'backend' | 'worker' | 'catalog' | 'import' | 'lesson'
  | 'storage' | 'link';
/** A button in a notice ("Start fresh"): it runs, and the notice goes. */
export interface NoticeAction { label: string; run: () => void }
export interface Notice { id: number; kind: 'info' | 'warn' | 'error'; text: string; topic?: NoticeTopic; action?: NoticeAction }

/** At most this many notices at once: the oldest goes first. */
const MAX_NOTICES = 3;

/** The notices without those on `topic`. */
export const withoutTopic = (notices: readonly Notice[], topic: NoticeTopic): Notice[] => notices.filter((n) => n.topic !== topic);

/**
 * The notices with `n` added: the same text again moves to the end instead of stacking, a notice on
 * the same topic goes, and only the newest MAX_NOTICES stay.
 */
export function withNotice(notices: readonly Notice[], n: Notice): Notice[] {
  const kept = notices.filter((x) => (x.kind !== n.kind || x.text !== n.text) && (!n.topic || x.topic !== n.topic));
  return [...kept.slice(-(MAX_NOTICES - 1)), n];
}
