/** An OAuth endpoint that never answers: a timeout or an interruption is an AuthError with its exit code, never a raw transport error. */
import { afterEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { AuthError } from '../../../src/auth/errors.js';
import { deviceCodeLogin } from '../../../src/auth/oauth/device-code-flow.js';
import { requestToken } from '../../../src/auth/oauth/token-grant.js';
import { exitCodeFor } from '../../../src/cli/exit-codes.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { startServer, type TestServer } from '../http/test-server.js';

describe('an OAuth endpoint that never answers', () => {
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
      message: `could not reach the OAuth endpoint ${server.origin}/token: timed out after 0.2 s`,
      hint: 'Check the endpoint URL and the network connection, then try again.',
    });
    expect(exitCodeFor((error as AuthError).kind)).toBe(1);
  });

  it('stops a device code login interrupted while waiting for the device endpoint with exit 130', async () => {
    const controller = new AbortController();
    server = await startServer(() => controller.abort());
    pipeline = createPipeline({ retry: 0 });
    const error = await deviceCodeLogin({
      auth: { type: 'oauth2-device-code', deviceUrl: `${server.origin}/device`, tokenUrl: `${server.origin}/token`, clientId: 'c', scopes: [] },
      pipeline,
      stderr: new PassThrough(),
      signal: controller.signal,
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'LOGIN_ABORTED', message: `interrupted while waiting for ${server.origin}/device` });
    expect(exitCodeFor((error as AuthError).kind)).toBe(130);
  });
});
