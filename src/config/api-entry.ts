/** What the registry knows about one API: where it lives and how to authenticate (never the secret). */

/** The schemes `tool auth login --type` accepts, in menu order. */
export const AUTH_TYPES = [
  'bearer',
  'basic',
  'api-key',
  'oauth2-client-credentials',
  'oauth2-authorization-code',
  'oauth2-device-code',
] as const;

export type AuthType = (typeof AUTH_TYPES)[number];

/** Where an API key can go (`--in`). */
export const KEY_LOCATIONS = ['header', 'query', 'cookie'] as const;

export type KeyLocation = (typeof KEY_LOCATIONS)[number];

/** Secret read from this environment variable at request time instead of credentials.json. */
interface FromEnv {
  secretEnv?: string;
}

export type AuthConfig =
  | ({ type: 'bearer' } & FromEnv)
  | ({ type: 'basic'; username: string } & FromEnv)
  | ({ type: 'api-key'; keyName: string; in: KeyLocation } & FromEnv)
  | ({ type: 'oauth2-client-credentials'; tokenUrl: string; clientId: string; scopes: string[] } & FromEnv)
  | { type: 'oauth2-authorization-code'; authorizeUrl: string; tokenUrl: string; clientId: string; scopes: string[] }
  | { type: 'oauth2-device-code'; deviceUrl: string; tokenUrl: string; clientId: string; scopes: string[] };

export type OAuth2Config = Extract<AuthConfig, { type: `oauth2-${string}` }>;

export interface ApiEntry {
  name: string;
  /** Absolute http(s) URL without credentials, query, fragment or trailing slash. */
  baseUrl: string;
  /** The API's description: an absolute file path or an http(s) URL. */
  spec?: string;
  /** Extra headers sent with every request to the API (not secrets: they are stored in apis.json). */
  headers: Record<string, string>;
  auth?: AuthConfig;
}

/** Whether the scheme is one of the OAuth 2.0 flows (tokens cached, refreshed on 401). */
export function isOAuth2(auth: AuthConfig): auth is OAuth2Config {
  return auth.type.startsWith('oauth2-');
}

/** The environment variable an entry's secret comes from, if it is not stored in credentials.json. */
export function secretEnvOf(auth: AuthConfig): string | undefined {
  return 'secretEnv' in auth ? auth.secretEnv : undefined;
}
