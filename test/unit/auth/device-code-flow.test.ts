import { afterEach, describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { AuthError } from '../../../src/auth/errors.js';
import { deviceCodeLogin } from '../../../src/auth/oauth/device-code-flow.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { startOAuthServer, type OAuthServer, type OAuthServerOptions } from './oauth-server.js';

describe('device code login (RFC 8628)', () => {
  let oauth: OAuthServer | undefined;
  let pipeline: Pipeline | undefined;
  afterEach(async () => {
    pipeline?.close();
    await oauth?.close();
  });

  const login = async (options: OAuthServerOptions, clock?: { now: number; step: number }) => {
    oauth = await startOAuthServer(options);
    pipeline = createPipeline({ retry: 0 });
    const sleeps: number[] = [];
    let stderr = '';
    const err = new PassThrough();
    err.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const result = deviceCodeLogin({
      auth: { type: 'oauth2-device-code', deviceUrl: oauth.deviceUrl, tokenUrl: oauth.tokenUrl, clientId: 'tool-client', scopes: ['repo'] },
      pipeline,
      stderr: err,
      sleep: async (ms) => {
        sleeps.push(ms);
        if (clock) clock.now += clock.step;
        return true;
      },
      ...(clock ? { now: () => clock.now } : {}),
    }).then(
      (grant) => ({ grant, error: undefined }),
      (error: unknown) => ({ grant: undefined, error: error as AuthError }),
    );
    const outcome = await result;
    return { ...outcome, sleeps, stderr: () => stderr };
  };

  it('prints the verification URI and user code, then polls until approval', async () => {
    const { grant, sleeps, stderr } = await login({ approveAtPoll: 3, interval: 2 });
    expect(grant).toEqual({ accessToken: 'at-1', expiresIn: 3600, refreshToken: 'rt-1' });
    expect(stderr()).toContain('To log in, open https://example.com/device and enter the code: WDJB-MJHT');
    expect(sleeps).toEqual([2000, 2000, 2000]);
    expect(oauth?.grants).toEqual(Array(3).fill('urn:ietf:params:oauth:grant-type:device_code'));
  });

  it('adds 5 seconds to the interval after each slow_down', async () => {
    const { grant, sleeps } = await login({ approveAtPoll: 4, interval: 1, slowDownAtPolls: [1, 2] });
    expect(grant?.accessToken).toBe('at-1');
    expect(sleeps).toEqual([1000, 6000, 11000, 11000]);
  });

  it('stops with ACCESS_DENIED when the user denies', async () => {
    const { error } = await login({ devicePollError: 'access_denied' });
    expect(error?.code).toBe('ACCESS_DENIED');
  });

  it('stops with DEVICE_CODE_EXPIRED when the server says expired_token', async () => {
    const { error } = await login({ devicePollError: 'expired_token' });
    expect(error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(error?.hint).toContain('tool auth login');
  });

  it('stops polling by itself once expires_in has passed', async () => {
    const { error, sleeps } = await login({ approveAtPoll: 1000, interval: 5 }, { now: 0, step: 200_000 });
    expect(error?.code).toBe('DEVICE_CODE_EXPIRED');
    expect(sleeps).toHaveLength(3);
  });
});
