// errorMessage: what the worker, the page and the CLI say of anything thrown (worked by hand).
import { describe, expect, it } from 'vitest';
import { errorMessage } from '../src/core/errorMessage';

describe('errorMessage', () => {
  it('says an error\'s message, or the thrown value as a string', () => {
    expect(errorMessage(new Error('the disk is full'))).toBe('the disk is full');
    expect(errorMessage(new TypeError('x is not a function'))).toBe('x is not a function');
    // An error copied through postMessage may arrive as a plain object that still carries its message.
    expect(errorMessage({ name: 'Error', message: 'from the worker' })).toBe('from the worker');
    expect(errorMessage('a plain string')).toBe('a plain string');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(null)).toBe('null');
    expect(errorMessage(undefined)).toBe('undefined');
    // No message to say: the value's own string, not an empty line.
    expect(errorMessage(new Error(''))).toBe('Error');
    expect(errorMessage({ message: 7 })).toBe('[object Object]');
  });
});
