import { describe, expect, it } from '@jest/globals';
import { codeSpan } from '../../../src/output/code-span.js';

describe('codeSpan', () => {
  it('quotes a condition with backticks, its quotes as written', () => {
    expect(codeSpan('$response.body#/status == "shipped"')).toBe('`$response.body#/status == "shipped"`');
  });

  it('puts a condition written over several lines on one', () => {
    expect(codeSpan('$statusCode == 200 &&\n  $response.body#/ok == true\n')).toBe('`$statusCode == 200 && $response.body#/ok == true`');
  });

  it('fences a condition holding a backtick with two', () => {
    expect(codeSpan('$response.body#/q == "a`b"')).toBe('`` $response.body#/q == "a`b" ``');
  });
});
