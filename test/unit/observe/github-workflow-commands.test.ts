import { describe, expect, it } from '@jest/globals';
import { markdownText, stepSummary } from '../../../src/observe/github/step-summary.js';
import { addMasks, annotation, escapeData, escapeProperty } from '../../../src/observe/github/workflow-commands.js';

describe('GitHub Actions workflow commands', () => {
  it('escapes %, CR and LF in data, and also : and , in properties', () => {
    expect(escapeData('50% a\r\nb')).toBe('50%25 a%0D%0Ab');
    expect(escapeProperty('C:\\x,y%')).toBe('C%3A\\x%2Cy%25');
  });

  it('words an annotation with its file, line and column, masking secrets and dropping control characters', () => {
    expect(annotation('error', 'bad tok-Secret\u001b[31m here', { file: 'a,b.yaml', line: 3, col: 7, title: 'X: Y' }, { values: ['tok-Secret'] })).toBe('::error file=a%2Cb.yaml,line=3,col=7,title=X%3A Y::bad *** here\n');
    expect(annotation('warning', 'plain')).toBe('::warning::plain\n');
  });

  it('masks each line of a multi-line secret once', () => {
    expect(addMasks(['one\ntwo', 'one', ''])).toBe('::add-mask::one\n::add-mask::two\n');
  });
});

describe('the step summary', () => {
  it('escapes Markdown and masks what servers say', () => {
    expect(markdownText('| *x* <b> [l](u) tok-Secret', { values: ['tok-Secret'] })).toBe('\\| \\*x\\* \\<b\\> \\[l\\]\\(u\\) \\*\\*\\*');
    const text = stepSummary({ command: 'run', file: 'f.yaml', workflowId: 'w', status: 'failed', steps: [{ stepId: 's|1', status: 500, ok: false, durationMs: 3.4, reason: 'HTTP 500\nnext' }] });
    expect(text).toContain('| 1 | s\\|1 | 500 | failed: HTTP 500 next | 3 ms |');
  });
});
