/** v2 inputs schemas: compiled one after another (one Ajv shared by those that name no resource), each on its own. */
import { describe, expect, it } from '@jest/globals';
import { parseDocumentText } from '../../../src/arazzo/parse-document-text.js';
import { compileInputSchema } from '../../../src/plan/input-schema.js';

function documentWith(workflows: Record<string, unknown>): ReturnType<typeof parseDocumentText> {
  const text = JSON.stringify({
    arazzo: '1.0.1',
    info: { title: 't', version: '1' },
    sourceDescriptions: [{ name: 'api', url: './api.yaml', type: 'openapi' }],
    workflows: Object.entries(workflows).map(([workflowId, inputs]) => ({ workflowId, inputs, steps: [{ stepId: 's', operationId: 'op' }] })),
  });
  return parseDocumentText(text, 'flow.arazzo.json', '/tmp/flow.arazzo.json');
}

async function compiled(doc: ReturnType<typeof documentWith>, workflowId: string) {
  const workflow = doc.model.workflows.find((w) => w.workflowId === workflowId)!;
  return compileInputSchema(doc, workflow);
}

describe('compileInputSchema', () => {
  it('compiles schemas one after another, each checking only its own inputs and filling its own defaults', async () => {
    const doc = documentWith({
      a: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, size: { type: 'integer', default: 3 } } },
      b: { type: 'object', properties: { name: { type: 'integer' }, colour: { type: 'string', default: 'red' } } },
    });
    const a = (await compiled(doc, 'a'))!;
    const b = (await compiled(doc, 'b'))!;
    expect(a({ name: 'x' })).toEqual({ inputs: { name: 'x', size: 3 } });
    expect(b({})).toEqual({ inputs: { colour: 'red' } });
    expect(a({})).toMatchObject({ problem: { keyword: 'required' } });
    expect(b({ name: 'x' })).toMatchObject({ problem: { keyword: 'type', instancePath: '/name' } });
    // Compiled again (a later run in the same process): the same answers.
    expect((await compiled(doc, 'a'))!({ name: 'y' })).toEqual({ inputs: { name: 'y', size: 3 } });
  });

  it('keeps schemas apart: one cannot refer to a resource another named, and two may use the same $id', async () => {
    const doc = documentWith({
      named: { $id: 'urn:tool:test:shared', type: 'object', properties: { n: { type: 'integer' } } },
      again: { $id: 'urn:tool:test:shared', type: 'object', properties: { n: { type: 'string' } } },
      referring: { type: 'object', properties: { inner: { $ref: 'urn:tool:test:shared' } } },
      embedding: { type: 'object', properties: { n: { $ref: '#/$defs/n' } }, $defs: { n: { $id: 'urn:tool:test:embedded', type: 'integer' } } },
      reaching: { type: 'object', properties: { inner: { $ref: 'urn:tool:test:embedded' } } },
    });
    const named = (await compiled(doc, 'named'))!;
    const again = (await compiled(doc, 'again'))!;
    expect(named({ n: 1 })).toEqual({ inputs: { n: 1 } });
    expect(again({ n: 'one' })).toEqual({ inputs: { n: 'one' } });
    await expect(compiled(doc, 'referring')).rejects.toMatchObject({ code: 'INPUT_SCHEMA_INVALID' });
    // A resource named deep inside a schema is that schema's alone too.
    expect((await compiled(doc, 'embedding'))!({ n: 1 })).toEqual({ inputs: { n: 1 } });
    await expect(compiled(doc, 'reaching')).rejects.toMatchObject({ code: 'INPUT_SCHEMA_INVALID' });
  });

  it('reports an invalid schema with its position, and compiles the next valid one as before', async () => {
    const doc = parseDocumentText(
      `arazzo: 1.0.1
info: { title: t, version: '1' }
sourceDescriptions: [{ name: api, url: ./api.yaml, type: openapi }]
workflows:
  - workflowId: bad
    inputs:
      type: object
      properties:
        n: { type: strin }
    steps: [{ stepId: s, operationId: op }]
  - workflowId: good
    inputs: { type: object, properties: { n: { type: number } } }
    steps: [{ stepId: s, operationId: op }]
`,
      'flow.arazzo.yaml',
      '/tmp/flow.arazzo.yaml',
    );
    const error = await compiled(doc, 'bad').then(
      () => undefined,
      (thrown: unknown) => thrown as { code?: string; message?: string },
    );
    expect(error?.code).toBe('INPUT_SCHEMA_INVALID');
    expect(error?.message).toMatch(/^flow\.arazzo\.yaml:6:5: the inputs schema of workflow "bad" is not valid JSON Schema 2020-12: /);
    expect((await compiled(doc, 'good'))!({ n: 2 })).toEqual({ inputs: { n: 2 } });
    await expect(compiled(doc, 'bad')).rejects.toMatchObject({ code: 'INPUT_SCHEMA_INVALID' });
  });

  it('checks a schema that names its meta-schema or refers outside itself as Ajv always did', async () => {
    const doc = documentWith({
      exact: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'integer', default: 1 } } },
      draft7: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      notString: { $schema: 7, type: 'object' },
      meta: { type: 'object', properties: { s: { $ref: 'https://json-schema.org/draft/2020-12/schema' } } },
      plain: { type: 'object', properties: { n: { type: 'integer', default: 2 } } },
    });
    expect((await compiled(doc, 'exact'))!({})).toEqual({ inputs: { n: 1 } });
    const messageOf = (workflowId: string) => compiled(doc, workflowId).then(() => '', (error: Error) => error.message);
    expect(await messageOf('draft7')).toMatch(/is not valid JSON Schema 2020-12: no schema with key or ref "http:\/\/json-schema\.org\/draft-07\/schema#"$/);
    expect(await messageOf('notString')).toMatch(/is not valid JSON Schema 2020-12: \$schema must be a string$/);
    const meta = (await compiled(doc, 'meta'))!;
    expect(meta({ s: { type: 'string' } })).toEqual({ inputs: { s: { type: 'string' } } });
    expect(meta({ s: { type: 'strin' } })).toMatchObject({ problem: { instancePath: '/s/type' } });
    // The plain schemas that follow compile as before.
    expect((await compiled(doc, 'plain'))!({})).toEqual({ inputs: { n: 2 } });
  });
});
