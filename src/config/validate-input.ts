/** Checking what a user types for an API: its name, URLs, headers and environment variable names. */

import { ConfigError } from './errors.js';

const API_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Headers that carry credentials belong in credentials.json, not in the registry.
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/** The name unchanged; throws ConfigError (INVALID_API_NAME) unless it matches ^[A-Za-z][A-Za-z0-9_-]{0,63}$. */
export function validateApiName(name: string): string {
  if (API_NAME.test(name)) return name;
  throw new ConfigError(
    'INVALID_API_NAME',
    `${JSON.stringify(name)} is not a valid API name`,
    'An API name starts with a letter and has at most 64 letters, digits, "-" or "_" (e.g. petstore, github-v3).',
  );
}

/** Schemes of brokers and message servers an API may also be (Arazzo 1.1 AsyncAPI sources bind to them). */
const MESSAGE_SCHEMES = ['mqtt:', 'mqtts:', 'ws:', 'wss:'];

/**
 * The base URL in canonical form (no trailing slash): http(s), or a broker's mqtt(s)/ws(s) URL.
 * Throws ConfigError (INVALID_URL) for another scheme, credentials, a query or a fragment.
 */
export function normaliseBaseUrl(raw: string): string {
  const url = parseHttpUrl('base URL', raw, MESSAGE_SCHEMES);
  if (raw.includes('?') || raw.includes('#')) {
    throw new ConfigError('INVALID_URL', `the base URL must not have a query string or fragment`, 'Give only scheme, host, port and path, e.g. https://api.example.com/v1');
  }
  return `${urlOrigin(url)}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * `scheme://host:port` of a URL, for every scheme: URL.origin is "null" for mqtt: and ws-like
 * schemes outside the special ones, and credentials bound to "null" would match any broker.
 */
export function urlOrigin(url: URL | string): string {
  const parsed = typeof url === 'string' ? new URL(url) : url;
  // Host names are case-insensitive: a special scheme's URL lower-cases them, the others do not.
  return parsed.origin !== 'null' ? parsed.origin : `${parsed.protocol}//${parsed.host.toLowerCase()}`;
}

/** An absolute http(s) URL without user:password; throws ConfigError (INVALID_URL) otherwise. */
export function parseHttpUrl(what: string, raw: string, otherSchemes: readonly string[] = []): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('INVALID_URL', `the ${what} ${JSON.stringify(raw)} is not an absolute URL`, 'Write it in full, e.g. https://api.example.com/v1');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:' && !otherSchemes.includes(url.protocol)) {
    const schemes = ['http', 'https', ...otherSchemes.map((scheme) => scheme.slice(0, -1))];
    throw new ConfigError('INVALID_URL', `the ${what} must use ${schemes.slice(0, -1).join(', ')} or ${schemes[schemes.length - 1]}, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never echo the URL: it holds a password.
    throw new ConfigError('INVALID_URL', `the ${what} must not contain a user name or password`, 'Store credentials with `tool auth login <name>` instead.');
  }
  return url;
}

/**
 * An OAuth endpoint URL (token, authorize, device). RFC 6749 requires TLS for these, so http is
 * accepted only for a loopback host (local development and tests). Throws ConfigError otherwise.
 */
export function validateOAuthUrl(flag: string, raw: string): string {
  const url = parseHttpUrl(`${flag} URL`, raw);
  if (url.hash !== '') throw new ConfigError('INVALID_URL', `${flag} must not have a fragment`);
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
    throw new ConfigError('INVALID_URL', `${flag} must use https (OAuth 2.0 sends secrets to it); http is allowed only for localhost`);
  }
  return url.href;
}

/** `Name: value` split into a trimmed name and value; throws ConfigError (INVALID_HEADER) for a bad name, a control character or a credential header. */
export function parseHeaderFlag(flag: string): [string, string] {
  const colon = flag.indexOf(':');
  const name = colon === -1 ? '' : flag.slice(0, colon).trim();
  if (colon === -1 || !HEADER_NAME.test(name)) {
    throw new ConfigError('INVALID_HEADER', `--header ${JSON.stringify(flag)} is not "Name: value" with a valid header name`, "Write it as --header 'X-Tenant: acme'.");
  }
  const value = flag.slice(colon + 1).trim();
  if (/[\0\r\n]/.test(value)) throw new ConfigError('INVALID_HEADER', `the value of header ${name} contains a line break or NUL`);
  if (CREDENTIAL_HEADERS.has(name.toLowerCase())) {
    throw new ConfigError('INVALID_HEADER', `${name} carries credentials and is not kept in the registry (apis.json is not secret)`, 'Use `tool auth login <name>` (bearer, basic or api-key) so it is stored with mode 0600.');
  }
  return [name, value];
}

/** The header name unchanged; throws ConfigError (INVALID_HEADER) unless it is an HTTP token. */
export function validateHeaderName(what: string, name: string): string {
  if (HEADER_NAME.test(name)) return name;
  throw new ConfigError('INVALID_HEADER', `${what} ${JSON.stringify(name)} is not a valid header or parameter name`);
}

/** The variable name unchanged; throws ConfigError unless it is a portable environment variable name. */
export function validateEnvName(flag: string, name: string): string {
  if (ENV_NAME.test(name)) return name;
  throw new ConfigError('INVALID_ENV_NAME', `${flag} ${JSON.stringify(name)} is not an environment variable name`, 'Give the name only (API_TOKEN), not its value or $API_TOKEN.');
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}
