import { describe, expect, it } from '@jest/globals';
import { didYouMean } from '../../../src/arazzo/suggest.js';

describe('didYouMean', () => {
  it('suggests a candidate one typo away', () => {
    expect(didYouMean('successCritera', ['successCriteria', 'outputs'])).toBe(' (did you mean "successCriteria"?)');
  });

  it('suggests a candidate that differs only in case', () => {
    expect(didYouMean('PAR', ['Par', 'Token'])).toBe(' (did you mean "Par"?)');
  });

  it('suggests nothing when no candidate is close', () => {
    expect(didYouMean('createPet', ['deleteOrder', 'listStores'])).toBe('');
    expect(didYouMean('x', [])).toBe('');
  });
});
