/** A fake OAuth 2.0 authorization server and a protected API, both real node:http servers on 127.0.0.1:0. */

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, startServer, type Hit, type TestServer } from '../http/test-server.js';

export interface OAuthServerOptions {
  clientId?: string;
  clientSecret?: string;
  /** expires_in of issued access tokens (seconds); undefined sends none. */
  expiresIn?: number | undefined;
  /** Issue a refresh token with client-credentials tokens too. */
  refreshWithClientCredentials?: boolean;
  /** Device flow: the poll (1-based) at which the user approves. */
  approveAtPoll?: number;
  /** Device flow: polls answered with slow_down. */
  slowDownAtPolls?: number[];
  /** Device flow: answer every poll with this error instead (access_denied, expired_token). */
  devicePollError?: string;
  /** Device flow: interval sent to the client (seconds). */
  interval?: number;
}

export interface OAuthServer {
  origin: string;
  tokenUrl: string;
  deviceUrl: string;
  authorizeUrl: string;
  /** The grant_type of every request to /token, in order. */
  grants: string[];
  /** Access tokens the API accepts. */
  valid: Set<string>;
  /** Refresh tokens the server accepts. */
  refreshTokens: Set<string>;
  /** Bodies and headers of /token requests. */
  tokenHits: Hit[];
  server: TestServer;
  close(): Promise<void>;
}

/** Starts the authorization server; issued access tokens are `at-<n>`, refresh tokens `rt-<n>`. */
export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<OAuthServer> {
  const clientId = options.clientId ?? 'tool-client';
  const clientSecret = options.clientSecret ?? 'client-s3cret';
  const expiresIn = 'expiresIn' in options ? options.expiresIn : 3600;
  const grants: string[] = [];
  const valid = new Set<string>();
  const refreshTokens = new Set<string>();
  const tokenHits: Hit[] = [];
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  let issued = 0;
  let polls = 0;

  const issue = (res: ServerResponse, withRefresh: boolean): void => {
    issued += 1;
    const accessToken = `at-${issued}`;
    valid.add(accessToken);
    const body: Record<string, unknown> = { access_token: accessToken, token_type: 'Bearer' };
    if (expiresIn !== undefined) body.expires_in = expiresIn;
    if (withRefresh) {
      const refreshToken = `rt-${issued}`;
      refreshTokens.add(refreshToken);
      body.refresh_token = refreshToken;
    }
    sendJson(res, 200, body, { 'cache-control': 'no-store' });
  };
  const basicClient = (hit: Hit): [string, string] | undefined => {
    const header = hit.headers.authorization;
    if (header === undefined || !header.startsWith('Basic ')) return undefined;
    const [id, secret] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    return [decodeURIComponent(id ?? ''), decodeURIComponent(secret ?? '')];
  };

  const server = await startServer((hit, res) => {
    const url = new URL(hit.url, 'http://127.0.0.1');
    const form = new URLSearchParams(hit.body.toString('utf8'));
    if (url.pathname === '/authorize') {
      const code = `code-${codes.size + 1}`;
      codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri: url.searchParams.get('redirect_uri') ?? '' });
      const target = new URL(url.searchParams.get('redirect_uri') ?? '');
      target.searchParams.set('code', code);
      target.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: target.href });
      res.end();
      return;
    }
    if (url.pathname === '/device') {
      if (form.get('client_id') !== clientId) return sendJson(res, 401, { error: 'invalid_client' });
      return sendJson(res, 200, {
        device_code: 'dev-code-1',
        user_code: 'WDJB-MJHT',
        verification_uri: 'https://example.com/device',
        expires_in: 600,
        interval: options.interval ?? 0,
      });
    }
    if (url.pathname !== '/token') return sendJson(res, 404, { error: 'not_found' });
    tokenHits.push(hit);
    const grant = form.get('grant_type') ?? '';
    grants.push(grant);
    if (grant === 'client_credentials') {
      const client = basicClient(hit);
      if (client?.[0] !== clientId || client[1] !== clientSecret) return sendJson(res, 401, { error: 'invalid_client' });
      return issue(res, options.refreshWithClientCredentials === true);
    }
    if (grant === 'refresh_token') {
      const token = form.get('refresh_token') ?? '';
      if (!refreshTokens.has(token)) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'refresh token unknown' });
      refreshTokens.delete(token);
      return issue(res, true);
    }
    if (grant === 'authorization_code') {
      const code = codes.get(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (code === undefined || code.challenge !== challenge || code.redirectUri !== form.get('redirect_uri') || form.get('client_id') !== clientId) {
        return sendJson(res, 400, { error: 'invalid_grant', error_description: 'PKCE or redirect_uri mismatch' });
      }
      codes.delete(form.get('code') ?? '');
      return issue(res, true);
    }
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      polls += 1;
      if (form.get('device_code') !== 'dev-code-1' || form.get('client_id') !== clientId) return sendJson(res, 400, { error: 'invalid_grant' });
      if (options.devicePollError !== undefined) return sendJson(res, 400, { error: options.devicePollError });
      if (options.slowDownAtPolls?.includes(polls)) return sendJson(res, 400, { error: 'slow_down' });
      if (polls < (options.approveAtPoll ?? 1)) return sendJson(res, 400, { error: 'authorization_pending' });
      return issue(res, true);
    }
    return sendJson(res, 400, { error: 'unsupported_grant_type' });
  });
  return {
    origin: server.origin,
    tokenUrl: `${server.origin}/token`,
    deviceUrl: `${server.origin}/device`,
    authorizeUrl: `${server.origin}/authorize`,
    grants,
    valid,
    refreshTokens,
    tokenHits,
    server,
    close: () => server.close(),
  };
}

/** An API that answers 200 with the Authorization it saw when `accept` says yes, else 401. */
export async function startProtectedApi(accept: (hit: Hit) => boolean): Promise<TestServer> {
  return startServer((hit, res) => {
    if (accept(hit)) sendJson(res, 200, { ok: true, path: hit.url });
    else sendJson(res, 401, { error: 'unauthorized' }, { 'www-authenticate': 'Bearer' });
  });
}
