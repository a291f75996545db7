import { afterEach, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { AuthError } from '../../../src/auth/errors.js';
import { authorizationCodeLogin } from '../../../src/auth/oauth/authorization-code-flow.js';
import { s256 } from '../../../src/auth/oauth/pkce.js';
import { createPipeline, type Pipeline } from '../../../src/http/create-pipeline.js';
import { startOAuthServer, type OAuthServer } from './oauth-server.js';

/** GET a URL with node:http; returns the status and Location header. */
function httpGet(url: string): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    })
      .on('error', reject)
      .end();
  });
}

describe('authorization code login with PKCE', () => {
  let oauth: OAuthServer | undefined;
  let pipeline: Pipeline | undefined;
  afterEach(async () => {
    pipeline?.close();
    await oauth?.close();
  });

  /** Starts the login and hands the printed authorization URL to `browser` (the scripted user). */
  const login = async (browser: (authorizeUrl: URL) => Promise<void>, timeoutMs = 10_000) => {
    oauth = await startOAuthServer();
    pipeline = createPipeline({ retry: 0 });
    const err = new PassThrough();
    let stderr = '';
    let browsed: Promise<void> | undefined;
    err.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /^ {2}(http\S+)$/m.exec(stderr);
      if (match && browsed === undefined) browsed = browser(new URL(match[1]!));
    });
    const outcome = await authorizationCodeLogin({
      auth: { type: 'oauth2-authorization-code', authorizeUrl: oauth.authorizeUrl, tokenUrl: oauth.tokenUrl, clientId: 'tool-client', scopes: ['read', 'profile'] },
      pipeline,
      stderr: err,
      timeoutMs,
    }).then(
      (grant) => ({ grant, error: undefined }),
      (error: unknown) => ({ grant: undefined, error: error as AuthError }),
    );
    await browsed;
    return { ...outcome, stderr };
  };

  it('prints the URL, receives the code on 127.0.0.1 and exchanges it with the PKCE verifier', async () => {
    let seen: URL | undefined;
    const { grant, error } = await login(async (url) => {
      seen = url;
      const authorize = await httpGet(url.href);
      expect(authorize.status).toBe(302);
      const landed = await httpGet(authorize.location!);
      expect(landed.status).toBe(200);
    });
    expect(error).toBeUndefined();
    expect(grant).toEqual({ accessToken: 'at-1', expiresIn: 3600, refreshToken: 'rt-1' });
    const params = seen!.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe('tool-client');
    expect(params.get('scope')).toBe('read profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(params.get('state')).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const exchange = new URLSearchParams(oauth!.tokenHits[0]!.body.toString());
    expect(exchange.get('grant_type')).toBe('authorization_code');
    expect(s256(exchange.get('code_verifier')!)).toBe(params.get('code_challenge'));
  });

  it('ignores a redirect whose state does not match, and exchanges nothing', async () => {
    const { error } = await login(async (url) => {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      redirect.searchParams.set('code', 'stolen');
      redirect.searchParams.set('state', 'forged');
      expect((await httpGet(redirect.href)).status).toBe(400);
    }, 300);
    expect(error?.code).toBe('LOGIN_TIMEOUT');
    expect(oauth?.grants).toEqual([]);
  });

  it('reports an error the authorization server put in the redirect', async () => {
    const { error } = await login(async (url) => {
      const redirect = new URL(url.searchParams.get('redirect_uri')!);
      redirect.searchParams.set('error', 'access_denied');
      redirect.searchParams.set('error_description', 'user said no');
      redirect.searchParams.set('state', url.searchParams.get('state')!);
      await httpGet(redirect.href);
    });
    expect(error?.message).toBe('the authorization server answered access_denied: user said no');
  });

  it('times out with a clear error when no browser comes back', async () => {
    const { error, stderr } = await login(async () => undefined, 200);
    expect(error?.code).toBe('LOGIN_TIMEOUT');
    expect(error?.message).toMatch(/^no browser came back to http:\/\/127\.0\.0\.1:\d+\/callback within 0.2 s$/);
    expect(stderr).toContain('Open this URL to log in:');
  });
});
