import { afterEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { deviceCodeLogin } from '../../../src/auth/oauth/device-code-flow.js';
import { listenForRedirect } from '../../../src/auth/oauth/loopback-redirect.js';
import { postForm } from '../../../src/auth/oauth/post-form.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { toTransportError } from '../../../src/http/to-transport-error.js';
import { sendJson, startServer, type TestServer } from '../http/test-server.js';

const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe('server text in login prompts and errors', () => {
  let server: TestServer | undefined;
  let pipeline: Pipeline | undefined;
  afterEach(async () => {
    pipeline?.close();
    await server?.close();
  });

  it('prints a device code prompt without the escape sequences the device endpoint put in verification_uri and user_code', async () => {
    server = await startServer((hit, res) => {
      if (hit.url === '/device') {
        sendJson(res, 200, {
          device_code: 'dc-1',
          user_code: 'WDJB\u001b[2J-MJHT\u202e',
          verification_uri: 'https://example.com/device\u001b]8;;https://evil.example\u0007',
          verification_uri_complete: 'https://example.com/device?c=1\u009b31m\nFAKE PROMPT',
          interval: 1,
        });
      } else sendJson(res, 400, { error: 'access_denied' });
    });
    pipeline = createPipeline({ retry: 0 });
    let stderr = '';
    const err = new PassThrough();
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const login = deviceCodeLogin({
      auth: { type: 'oauth2-device-code', deviceUrl: `${server.origin}/device`, tokenUrl: `${server.origin}/token`, clientId: 'c', scopes: [] },
      pipeline,
      stderr: err,
      sleep: async () => true,
    });
    await expect(login).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    const lines = stderr.split('\n');
    expect(lines[0]).toBe('To log in, open https://example.com/device and enter the code: WDJB-MJHT');
    expect(lines[1]).toBe('  (or open https://example.com/device?c=1 FAKE PROMPT)');
    expect(stderr.replace(/\n/g, '')).not.toMatch(UNPRINTABLE);
  });

  it('masks the client secret and the refresh token a token endpoint echoes, and keeps its error on one line', async () => {
    server = await startServer((hit, res) => {
      sendJson(res, 400, { error: 'invalid_grant\u001b[31m', error_description: `you sent ${hit.body.toString()} with ${hit.headers.authorization}\r\nand the secret cs-Secret-3`, error_uri: 'https://x\u001b]0;t\u0007' });
    });
    pipeline = createPipeline({ retry: 0 });
    const sending = postForm(pipeline, `${server.origin}/token`, { grant_type: 'refresh_token', refresh_token: 'rt-Secret-5' }, { clientId: 'tool', clientSecret: 'cs-Secret-3' });
    const error = (await sending.catch((e: unknown) => e)) as Error & { oauthError: string };
    expect(error.oauthError).toBe('invalid_grant\u001b[31m');
    expect(error.message).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/token answered invalid_grant: you sent grant_type=refresh_token&refresh_token=\*\*\* with Basic \*\*\* and the secret \*\*\* \(HTTP 400\)$/);
    expect(error.message).not.toMatch(UNPRINTABLE);
  });

  it('prints the error a browser brings back to the loopback listener without escapes, C1 or bidi controls', async () => {
    const redirect = await listenForRedirect({ state: 's1', timeoutMs: 5000 });
    const failed = redirect.code.then(() => new Error('no error'), (e: unknown) => e as Error);
    await fetch(`${redirect.redirectUri}?state=s1&error=denied%1B%5B2J%E2%80%AE&error_description=${encodeURIComponent('no\u009b31m way\u2066')}`);
    const error = await failed;
    expect(error.message).toBe('the authorization server answered denied: no way');
    await redirect.close();
  });

  it('keeps the escape sequences of a low-level error message out of a TransportError', () => {
    const error = toTransportError({ code: 'EWEIRD', message: 'Parse Error: bad header \u001b]0;owned\u0007value\u001b[2J\nsecond' }, 'GET', 'https://api.example.com/x', 1000);
    expect(error.message).toBe('transport error (EWEIRD: Parse Error: bad header value): GET https://api.example.com/x');
  });
});
