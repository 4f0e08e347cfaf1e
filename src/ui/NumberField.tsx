import { useState } from 'react';

/**
 * A number input that never guesses: the text typed stays as typed; a value is applied only when
 * it is a finite number in [min, max] (an integer where `integer`); anything else — empty, 1e999,
 * out of range — is refused with the allowed range shown beside the field (never read as 0), and
 * leaving the field puts back the value in use and says the entry was refused. With
 * `applyOnCommit`, a valid value is applied only on Enter or when the field is left (for a value
 * whose every change costs something, such as the seed, which builds a new network).
 */
export function NumberField({ label, value, onChange, min, max, step, integer = false, hint, applyOnCommit = false, className = 'field' }: {
  label: string; value: number; onChange: (v: number) => void; min: number; max: number; step: number;
    integer?: boolean; hint?: string; applyOnCommit?: boolean; className?: string;
}) {
  const [draft, setDraft] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    // The value changed from outside (URL, preset, import): show it (React's "adjust state on a prop change").
    setShown(value);
    setDraft(String(value));
    setError(null);
    setRefused(false);
  }
  const range = `${integer ? 'an integer' : 'a number'} from ${min} to ${max}`;
  const check = (raw: string, badInput: boolean): number | string => {
    if (badInput) return `not a finite number: enter ${range}`; // e.g. 1e999, which the browser reads as ""
    if (raw.trim() === '') return `empty: enter ${range}`;
    const v = Number(raw);
    if (!Number.isFinite(v)) return `"${raw}" is not a finite number: enter ${range}`;
    if (integer && !Number.isInteger(v)) return `${raw} is not an integer: enter ${range}`;
    if (v < min || v > max) return `${raw} is out of range: allowed ${min}–${max}`;
    return v;
  };
  const commit = () => {
    if (error && refused) {
      // Committed again with the value in use on show (the refusal was read): the message goes.
      setError(null);
      setRefused(false);
      return;
    }
    if (error) {
      setDraft(String(value));
      setRefused(true);
      return;
    }
    const r = check(draft, false);
    if (applyOnCommit && typeof r === 'number' && r !== value) onChange(r);
  };
  return (
    <label className={`${className}${error && !refused ? ' invalid' : ''}`} title={hint}>
      <span>{label}</span>
      <input type="number" aria-label={label} value={draft} min={min} max={max} step={step} aria-invalid={!!error && !refused}
        onChange={(e) => {
          setDraft(e.target.value);
          setRefused(false);
          const r = check(e.target.value, e.target.validity.badInput);
          if (typeof r === 'number') { setError(null); if (!applyOnCommit && r !== value) onChange(r); } else setError(r);
        }}
        onKeyDown={(e) => { if (e.key === 'Enter') commit(); }}
        onBlur={commit} />
      {error && <span className="field-error" role="alert">{label}: {error} {refused ? `— refused; it stays ${value}` : `(still ${value})`}</span>}
    </label>
  );
}
