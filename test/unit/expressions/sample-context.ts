import type { ExpressionContext } from '../../../src/expressions/context.js';

/** A context with one value behind every expression form, used across the expression tests. */
export function sampleContext(): ExpressionContext {
  return {
    inputs: { username: 'ada', count: '3', customer: { firstName: 'Ada', tags: ['a', 'b'] }, 'dotted.name': 'd' },
    url: 'https://api.example.test/pets/7?verbose=true',
    method: 'GET',
    request: {
      url: 'https://api.example.test/pets/7?verbose=true',
      method: 'GET',
      headers: { 'X-Request-Id': 'req-1' },
      query: { verbose: 'true', 'filter[status]': 'sold' },
      path: { petId: '7' },
      body: { name: 'Rex' },
    },
    response: {
      statusCode: 200,
      headers: { 'content-type': 'application/json', 'Set-Cookie': ['a=1', 'b=2'] },
      body: { id: 7, 'a/b': 'slash', 'm~n': 'tilde', items: [{ id: 'first' }, { id: 'second' }], empty: '' },
    },
    outputs: { orderId: 'o-1' },
    steps: {
      login: {
        outputs: { token: 'tok', profile: { name: 'Ada' } },
        request: { headers: { Authorization: 'Basic x' }, query: { q: 'pets' }, path: { id: '1' }, body: { user: 'ada' } },
        response: { statusCode: 201, headers: { Location: '/sessions/1' }, body: { session: { id: 's-1' } } },
      },
    },
    workflows: { refresh: { inputs: { token: 'old' }, outputs: { token: 'new', meta: { ttl: 60 } } } },
    sourceDescriptions: { petstore: { url: 'https://petstore.test/openapi.yaml', type: 'openapi' } },
    components: { parameters: { page: { name: 'page', in: 'query', value: 1 } }, inputs: { pagination: { size: 10 } } },
  };
}
