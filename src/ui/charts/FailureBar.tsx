import type { FailureShares } from '../../core/eval/failures';

/** The operating point's held-out tasks as one bar: solved, then each way a task failed (core/eval/failures.ts). */
const PARTS: { key: 'solved' | keyof FailureShares; label: string; colour: string; why: string }[] = [
  { key: 'solved', label: 'solved', colour: 'var(--good)', why: 'every answer it committed was right' },
  {
    key: 'wrongAnswer',
    label: 'answered wrong',
    colour: 'var(--muted)',
    why: 'the answer had the evidence every step needed and was still wrong',
  },
  {
    key: 'missingEvidence',
    label: 'answered without the evidence',
    colour: 'var(--bad)',
    why:
      'a step needed a tool (a fresh fact, exact big arithmetic, a stored record) and the answer came with no ' +
      'tool result for it',
  },
  {
    key: 'outOfTurns',
    label: 'out of turns',
    colour: 'var(--warn)',
    why: 'the episode used all its turns before its last answer',
  },
];

export function FailureBar({ accuracy, failures }: { accuracy: number; failures: FailureShares }) {
  const share = (k: (typeof PARTS)[number]['key']) => (k === 'solved' ? accuracy : failures[k]);
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return (
    <figure className="failure-bar" data-testid="failure-bar" aria-label="How each task ended at the ★">
      <div
        className="failure-bar-track"
        role="img"
        aria-label={PARTS.map((p) => `${p.label} ${pct(share(p.key))}`).join(', ')}
      >
        {PARTS.map((p) => (
          <span
            key={p.key}
            title={`${p.label}: ${pct(share(p.key))} — ${p.why}`}
            style={{ width: `${100 * share(p.key)}%`, background: p.colour }}
          />
        ))}
      </div>
      <figcaption className="small">
        {PARTS.map((p) => (
          <span key={p.key} data-testid={`failure-${p.key}`}>
            <span className="dot" style={{ background: p.colour }} />
            {p.label} <strong>{pct(share(p.key))}</strong>
          </span>
        ))}
      </figcaption>
      <p className="small muted">
        How the held-out tasks ended at your P. Outvoted: a tool answered a step right, but the world commits the most
        confident answer, and a wrong one was surer — an LLM’s confidence only weakly tells right from wrong.
      </p>
    </figure>
  );
}
