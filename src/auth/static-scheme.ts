/** The schemes whose secret is used as is: bearer token, HTTP basic, API key. */

import type { ApiEntry, AuthConfig } from '../config/api-entry.js';
import { describeAuth } from './describe-auth.js';
import { once, resolveSecret, type SecretDeps } from './resolve-secret.js';
import { maskedAuthorization, type Scheme } from './scheme.js';
import { MASK } from '../output/redact.js';

type StaticAuth = Extract<AuthConfig, { type: 'bearer' | 'basic' | 'api-key' }>;

/** The scheme for a bearer, basic or api-key entry; the secret is read on first use. */
export function staticScheme(api: ApiEntry, auth: StaticAuth, deps: SecretDeps): Scheme {
  const secret = once(() => resolveSecret(api, auth, deps));
  switch (auth.type) {
    case 'bearer':
      return {
        description: describeAuth(auth),
        secretNames: ['authorization'],
        refreshOn401: false,
        async apply(req) {
          req.headers.authorization = `Bearer ${await secret()}`;
        },
        placeholder: maskedAuthorization,
      };
    case 'basic':
      return {
        description: describeAuth(auth),
        secretNames: ['authorization'],
        refreshOn401: false,
        async apply(req) {
          req.headers.authorization = `Basic ${Buffer.from(`${auth.username}:${await secret()}`, 'utf8').toString('base64')}`;
        },
        placeholder: maskedAuthorization,
      };
    case 'api-key':
      return apiKeyScheme(auth, secret);
  }
}

function apiKeyScheme(auth: Extract<AuthConfig, { type: 'api-key' }>, secret: () => Promise<string>): Scheme {
  const name = auth.keyName;
  const base = { description: describeAuth(auth), refreshOn401: false };
  if (auth.in === 'header') {
    return {
      ...base,
      secretNames: [name.toLowerCase()],
      async apply(req) {
        req.headers[name.toLowerCase()] = await secret();
      },
      placeholder(req) {
        req.headers[name] = MASK;
      },
    };
  }
  if (auth.in === 'query') {
    return {
      ...base,
      secretNames: [name.toLowerCase()],
      async apply(req) {
        setQueryParam(req.url, name, await secret());
      },
      placeholder(req) {
        setQueryParam(req.url, name, MASK);
      },
    };
  }
  return {
    ...base,
    secretNames: ['cookie'],
    async apply(req) {
      const pair = `${name}=${await secret()}`;
      const existing = req.headers.cookie;
      req.headers.cookie = existing === undefined || existing === '' ? pair : `${existing}; ${pair}`;
    },
    placeholder(req) {
      const pair = `${name}=${MASK}`;
      const existing = req.headers.Cookie ?? req.headers.cookie;
      delete req.headers.cookie;
      req.headers.Cookie = existing === undefined || existing === '' ? pair : `${existing}; ${pair}`;
    },
  };
}

// URLSearchParams.set would re-encode every other parameter (%20 becomes +); only ours changes here.
function setQueryParam(url: URL, name: string, value: string): void {
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => pair !== '' && decodeName(pair.split('=', 1)[0] ?? '') !== name);
  kept.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  url.search = `?${kept.join('&')}`;
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return raw;
  }
}
