import { describe, expect, it } from '@jest/globals';
import type { LoadedDocument } from '../../../src/arazzo/model.js';
import type { OpenApiDescription } from '../../../src/openapi/types.js';
import { BindingError, bindSources, type ApiLookup, type RegisteredApi } from '../../../src/plan/bind-sources.js';

function documentWith(source: Record<string, unknown>): LoadedDocument {
  return { model: { sourceDescriptions: [{ type: 'openapi', url: './shop.yaml', pointer: '/sourceDescriptions/0', ...source }] } } as unknown as LoadedDocument;
}

function lookup(apis: RegisteredApi[]): ApiLookup {
  return { get: (name) => apis.find((api) => api.name === name), list: () => apis };
}

const description = { location: '/tmp/shop.yaml', servers: ['http://127.0.0.1:4010/v1'], operations: new Map() } as unknown as OpenApiDescription;
const load = async (): Promise<OpenApiDescription> => description;

describe('bindSources suggestions', () => {
  it('suggests the configured API closest to a mistyped x-tool-api', async () => {
    const error = await bindSources(documentWith({ name: 'store', api: 'shopp' }), lookup([{ name: 'shop', baseUrl: 'http://x' }]), load).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BindingError);
    expect((error as Error).message).toContain('did you mean "shop"?');
  });

  it('offers the registered API with the same base URL to an unbound source', async () => {
    const { warnings } = await bindSources(documentWith({ name: 'store' }), lookup([{ name: 'shop', baseUrl: 'http://127.0.0.1:4010/v1/' }]), load);
    expect(warnings.join('\n')).toContain('tool api add store http://127.0.0.1:4010/v1 && tool auth login store');
    expect(warnings.join('\n')).toContain('add x-tool-api: shop to source "store"');
  });

  it('offers nothing more when no registered API has that base URL', async () => {
    const { warnings } = await bindSources(documentWith({ name: 'store' }), lookup([{ name: 'shop', baseUrl: 'http://127.0.0.1:4011' }]), load);
    expect(warnings.join('\n')).not.toContain('x-tool-api');
  });
});
