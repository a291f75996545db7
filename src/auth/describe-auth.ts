/** One phrase per auth scheme, for banners, `tool api show` and `tool auth status` (never a secret). */

import type { AuthConfig } from '../config/api-entry.js';

/** E.g. "bearer token", "basic (user alice)", "api key in header X-Api-Key", "oauth2 device code". */
export function describeAuth(auth: AuthConfig): string {
  switch (auth.type) {
    case 'bearer':
      return 'bearer token';
    case 'basic':
      return `basic (user ${auth.username})`;
    case 'api-key':
      return `api key in ${auth.in} ${auth.keyName}`;
    case 'oauth2-client-credentials':
      return 'oauth2 client credentials';
    case 'oauth2-authorization-code':
      return 'oauth2 authorization code';
    case 'oauth2-device-code':
      return 'oauth2 device code';
  }
}
