/** Inputs with a secret-like name are masked wherever they sit in the inputs, not only at the top. */
import { afterAll, describe, expect, it } from '@jest/globals';
import { makeWorkspace } from '../e2e/helpers/workspace.js';
import { isSecretName } from '../../src/output/redact.js';
import { resolveInputs, secretNamedStrings } from '../../src/cli/input-flags.js';

const ws = makeWorkspace('tool-secret-inputs-');
afterAll(() => ws.remove());

describe('secret-named inputs', () => {
  it('finds strings under a secret-like name at any depth, and every string inside a secret-named object', () => {
    const inputs = { petId: '7', login: { token: 'nested-tok3n', user: 'ada' }, credentials: { id: 'cid', parts: ['p1-secret'] }, deep: [{ api_key: 'k3y-value' }] };
    expect(secretNamedStrings(inputs, isSecretName).sort()).toEqual(['cid', 'k3y-value', 'nested-tok3n', 'p1-secret']);
  });

  it('reports them as secrets of the run when they come from --inputs-file', async () => {
    ws.write('inputs.yaml', 'petId: "7"\nauth:\n  token: nested-tok3n\n');
    const resolved = await resolveInputs({ input: [], inputEnv: [], inputsFile: 'inputs.yaml' }, {}, ws.dir);
    expect(resolved.secrets).toContain('nested-tok3n');
    expect(resolved.secrets).not.toContain('7');
  });
});
