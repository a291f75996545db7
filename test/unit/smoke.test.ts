import { describe, expect, it } from '@jest/globals';

describe('toolchain', () => {
  it('runs TypeScript tests in ESM mode', () => {
    expect(typeof import.meta.url).toBe('string');
  });
});
