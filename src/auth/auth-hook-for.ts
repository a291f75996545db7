/** An API's auth chain as the request pipeline's hook: registry headers, then the scheme's credentials. */

import type { ApiEntry } from '../config/api-entry.js';
import { urlOrigin } from '../config/validate-input.js';
import type { ConfigPaths } from '../config/paths.js';
import type { Pipeline } from '../http/create-pipeline.js';
import { credentialParts, isSecretName } from '../output/redact.js';
import type { AuthHook } from '../http/types.js';
import { oauth2Scheme } from './oauth/oauth2-scheme.js';
import type { Scheme } from './scheme.js';
import { staticScheme } from './static-scheme.js';

export interface AuthHookDeps {
  paths: ConfigPaths;
  env: Record<string, string | undefined>;
  /** Carries OAuth token requests (so they get the same timeout, retry and redaction). */
  pipeline: Pipeline;
  /** Clock for token expiry (tests inject one). */
  now?: () => number;
}

/**
 * The hook for `api`, or undefined when it has neither an auth scheme nor extra headers. Reads no
 * file until the first request; apply() then throws AuthError/ConfigError when credentials are
 * missing or broken.
 */
export function authHookFor(api: ApiEntry, deps: AuthHookDeps): AuthHook | undefined {
  const headers = Object.entries(api.headers);
  if (api.auth === undefined && headers.length === 0) return undefined;
  const scheme = api.auth === undefined ? undefined : schemeFor(api, deps);
  // What the chain has sent, so that printers can mask a server's echo of it (redact.ts).
  const sent = new Set(headers.filter(([name]) => isSecretName(name)).flatMap(([, value]) => credentialParts(value)));
  return {
    // Credentials only ever go to the base URL's own scheme://host:port.
    origin: urlOrigin(api.baseUrl),
    refreshOn401: scheme?.refreshOn401 ?? false,
    describe: () => scheme?.description ?? 'none (registry headers only)',
    secretNames: () => [...(scheme?.secretNames ?? [])],
    secretValues: () => [...sent],
    applyMasked(req) {
      const present = new Set(Object.keys(req.headers).map((name) => name.toLowerCase()));
      for (const [name, value] of headers) if (!present.has(name.toLowerCase())) req.headers[name] = value;
      scheme?.placeholder(req);
    },
    async apply(req, ctx) {
      const present = new Set(Object.keys(req.headers).map((name) => name.toLowerCase()));
      // A header the request sets itself wins over the registry's default.
      for (const [name, value] of headers) if (!present.has(name.toLowerCase())) req.headers[name] = value;
      const before = { ...req.headers };
      await scheme?.apply(req, ctx);
      for (const [name, value] of Object.entries(req.headers)) if (before[name] !== value) credentialParts(value).forEach((part) => sent.add(part));
      for (const [name, value] of req.url.searchParams) if (scheme?.secretNames.includes(name.toLowerCase())) sent.add(value);
    },
  };
}

function schemeFor(api: ApiEntry, deps: AuthHookDeps): Scheme | undefined {
  const auth = api.auth;
  if (auth === undefined) return undefined;
  switch (auth.type) {
    case 'bearer':
    case 'basic':
    case 'api-key':
      return staticScheme(api, auth, deps);
    default:
      return oauth2Scheme(api, auth, { paths: deps.paths, env: deps.env, pipeline: deps.pipeline, now: deps.now ?? Date.now });
  }
}
