import { describe, expect, it } from '@jest/globals';
import type { AuthHook, HttpRequest, HttpResponse } from '../../../src/http/types.js';
import { formatResponseLines } from '../../../src/request/format-exchange.js';

const queryKey: AuthHook = {
  origin: 'http://127.0.0.1:9',
  describe: () => 'api key (query api_key)',
  apply: async (req) => {
    req.url.searchParams.append('api_key', 'k-1');
  },
  secretNames: () => ['api_key'],
  secretValues: () => ['k-1'],
};

function response(url: string): HttpResponse {
  return { status: 200, headers: {}, body: undefined, url, durationMs: 3, retries: 0 };
}

describe('formatResponseLines', () => {
  it('does not call the api key the auth hook added to the query a redirect', () => {
    const req: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:9/pets?limit=2', headers: {}, auth: queryKey };
    const lines = formatResponseLines(req, response('http://127.0.0.1:9/pets?limit=2&api_key=k-1'));
    expect(lines.join('\n')).not.toContain('redirected');
  });

  it('reports a real redirect, with the key masked', () => {
    const req: HttpRequest = { method: 'GET', url: 'http://127.0.0.1:9/pets', headers: {}, auth: queryKey };
    const lines = formatResponseLines(req, response('http://127.0.0.1:9/v2/pets?api_key=k-1'));
    expect(lines.at(-1)).toContain('redirected to http://127.0.0.1:9/v2/pets?api_key=***');
  });
});
