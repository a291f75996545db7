import { afterEach, describe, expect, it } from '@jest/globals';
import { AuthError } from '../../../src/auth/errors.js';
import { requestToken } from '../../../src/auth/oauth/token-grant.js';
import { createPipeline, type Pipeline } from '../../../src/http/index.js';
import { startServer, type TestServer } from '../http/test-server.js';

describe('a token endpoint that never answers', () => {
  let server: TestServer | undefined;
  let pipeline: Pipeline | undefined;
  afterEach(async () => {
    pipeline?.close();
    await server?.close();
  });

  it('fails with OAUTH_UNREACHABLE naming the endpoint and the timeout, exit 1', async () => {
    server = await startServer(() => undefined);
    pipeline = createPipeline({ timeoutMs: 200, retry: 0 });
    const error = await requestToken(pipeline, `${server.origin}/token?tenant=x`, { grant_type: 'client_credentials' }, { clientId: 'c', clientSecret: 's' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({
      code: 'OAUTH_UNREACHABLE',
      exitCode: 1,
      message: `could not reach the OAuth endpoint ${server.origin}/token: timed out after 0.2 s`,
      hint: 'Check the endpoint URL and the network connection, then try again.',
    });
  });
});
