/** The run memo of `arazzo test`: values kept for the suite, a failure forgotten, and findings kept only when every description was read. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRunMemo } from '../../../src/plan/run-memo.js';
import { prepareDocument } from '../../../src/plan/prepare-document.js';
import { DEFAULT_PROFILE } from '../../../src/arazzo/runner-profile.js';

const dir = mkdtempSync(join(tmpdir(), 'tool-run-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('createRunMemo', () => {
  it('keeps a value, forgets a rejected promise and a forgotten key', async () => {
    const memo = createRunMemo();
    let made = 0;
    expect(memo.get('a', () => ++made)).toBe(1);
    expect(memo.get('a', () => ++made)).toBe(1);
    memo.forget('a');
    expect(memo.get('a', () => ++made)).toBe(2);
    const failed = memo.get('b', () => Promise.reject(new Error('down')));
    await expect(failed).rejects.toThrow('down');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await memo.get('b', () => Promise.resolve('up'))).toBe('up');
  });
});

describe('prepareDocument with a memo', () => {
  const file = join(dir, 'flow.arazzo.yaml');
  writeFileSync(file, 'arazzo: 1.0.1\ninfo: { title: t, version: 1.0.0 }\nsourceDescriptions:\n  - { name: api, url: ./api.openapi.yaml, type: openapi }\nworkflows:\n  - workflowId: w\n    steps:\n      - { stepId: s, operationId: getA }\n');
  const prepare = (memo: ReturnType<typeof createRunMemo>, read: () => void, allRead: boolean) =>
    prepareDocument({
      file,
      cwd: dir,
      env: { XDG_CACHE_HOME: join(dir, 'cache') },
      profile: DEFAULT_PROFILE,
      descriptions: () => ({
        loadOperations: async () => {
          read();
          return undefined;
        },
        allRead: () => allRead,
      }),
      findings: () => true,
      upTo: 'findings',
      memo,
    });

  it('validates once while every description is read, and again after one could not be', async () => {
    const memo = createRunMemo();
    let reads = 0;
    await prepare(memo, () => reads++, false);
    await prepare(memo, () => reads++, true);
    await prepare(memo, () => reads++, true);
    expect(reads).toBe(2);
  });
});
