import { describe, expect, it } from '@jest/globals';
import { formatExcerpt } from '../../../src/arazzo/format-excerpt.js';

describe('formatExcerpt', () => {
  it('shows the line with a caret under the column', () => {
    expect(formatExcerpt('a: 1\nb: [1, 2\nc: 3\n', { line: 2, col: 4 })).toBe('2 | b: [1, 2\n  |    ^');
  });

  it('keeps tabs before the caret so it lines up in a terminal', () => {
    expect(formatExcerpt('x:\n\t\tbad', { line: 2, col: 3 })).toBe('2 | \t\tbad\n  | \t\t^');
  });

  it('widens the gutter for multi-digit line numbers', () => {
    const text = `${'x: 1\n'.repeat(11)}oops: [`;
    expect(formatExcerpt(text, { line: 12, col: 7 })).toBe('12 | oops: [\n   |       ^');
  });

  it('puts the caret just past the end when the column is beyond the line', () => {
    expect(formatExcerpt('ab', { line: 1, col: 9 })).toBe('1 | ab\n  |   ^');
  });

  it('returns an empty string for a line that does not exist', () => {
    expect(formatExcerpt('one line', { line: 3, col: 1 })).toBe('');
  });
});
