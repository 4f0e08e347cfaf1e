import { describe, expect, it } from 'vitest';
import { catalogErrorText } from '../src/store/catalogErrorText';

describe('a refused catalog edit in the editor’s words', () => {
  const candidate = { tools: [{ id: 'gpt-5' }, { id: 'qwen3-32b' }, {}] };
  it('names the tool by its id and the field by the editor’s column', () => {
    expect(catalogErrorText('invalid catalog: tools[0].pricing.inputPerM: must be ≥ 0', candidate)).toBe('Catalog edit refused: gpt-5 $/M in: must be ≥ 0');
    expect(catalogErrorText('invalid catalog: tools[1].skill.reason: must be in [−10, 10]; tools[1].latency.fixedMs: must be ≥ 0', candidate))
      .toBe('Catalog edit refused: qwen3-32b skill reason: must be in [−10, 10]; qwen3-32b fixed ms: must be ≥ 0');
  });
  it('falls back to the tool’s position and the field’s path where it has no name or label', () => {
    expect(catalogErrorText('invalid catalog: tools[2].argument.name: invalid', candidate)).toBe('Catalog edit refused: tool 3 argument.name: invalid');
    expect(catalogErrorText('invalid catalog: name: must not be empty', candidate)).toBe('Catalog edit refused: name: must not be empty');
  });
});
