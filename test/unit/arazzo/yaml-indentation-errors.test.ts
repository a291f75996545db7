import { describe, expect, it } from '@jest/globals';
import { ArazzoLoadError } from '../../../src/arazzo/errors.js';
import { parseWithYaml } from '../../../src/arazzo/parse-with-yaml.js';

function failure(text: string): ArazzoLoadError {
  try {
    parseWithYaml(text, 'wf.arazzo.yaml', 100).value;
  } catch (error) {
    if (error instanceof ArazzoLoadError) return error;
    throw error;
  }
  throw new Error('expected a YAML error');
}

const HEAD = 'arazzo: 1.0.1\ninfo:\n  title: t\n  version: 1.0.0\nsourceDescriptions:\n';

describe('YAML indentation errors', () => {
  it('points at a key indented one space short of its siblings and says so in words', () => {
    const error = failure(`${HEAD}  - name: a\n    url: ./x.yaml\n   type: openapi\nworkflows: []\n`);
    expect(error.message).toMatch(/^wf\.arazzo\.yaml:8:4: invalid YAML: line 8 is indented 3 spaces, which matches no line above it/);
    expect(error.message).not.toContain('Sequence item without - indicator');
    expect(error.hint).toContain('8 |    type: openapi');
    expect(error.hint).toMatch(/\|    \^/);
  });

  it('points at a line indented under a key that already has a value', () => {
    const error = failure(`${HEAD}  - name: a\n    url: ./x.yaml\n      type: openapi\nworkflows: []\n`);
    expect(error.message).toMatch(/^wf\.arazzo\.yaml:8:7: invalid YAML: line 8 is indented more than line 7, but "url" on line 7 already has a value/);
  });

  it('points at a mapping key dedented below its siblings', () => {
    const error = failure('a:\n  b: 1\n c: 2\n');
    expect(error.message).toMatch(/^wf\.arazzo\.yaml:3:2: invalid YAML: line 3 is indented 1 space/);
  });
});
