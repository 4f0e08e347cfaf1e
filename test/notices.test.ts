// One notice per topic: a newer one on the same topic replaces the older, the same text again moves
// to the end, notices without a topic stack, and at most three stay.
import { describe, expect, it } from 'vitest';
import { withNotice, withoutTopic, type Notice } from '../src/store/notices';

const n = (id: number, text: string, topic?: Notice['topic'], kind: Notice['kind'] = 'info'): Notice =>
  ({ id, kind, text, ...(topic ? { topic } : {}) });

describe('notices', () => {
  it('a newer notice on a topic replaces the older; other topics stay', () => {
    const a = withNotice([n(1, 'lr 0.0015 → 0.0005', 'settings'), n(2, 'Loaded', 'policy')], n(3, 'reward → weighted', 'settings'));
    expect(a.map((x) => x.id)).toEqual([2, 3]);
  });
  it('the same text again moves to the end; notices without a topic stack; three at most, the oldest goes', () => {
    const a = withNotice([n(1, 'x'), n(2, 'y')], n(3, 'x'));
    expect(a.map((x) => x.id)).toEqual([2, 3]);
    const b = withNotice([n(1, 'a'), n(2, 'b'), n(3, 'c')], n(4, 'd'));
    expect(b.map((x) => x.id)).toEqual([2, 3, 4]);
  });
  it('a state that ended takes its topic away', () => {
    expect(withoutTopic([n(1, 'paused at the schedule’s end', 'run'), n(2, 'other')], 'run').map((x) => x.id)).toEqual([2]);
  });
});
