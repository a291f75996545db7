/** Reading the `auth` section of a registry entry as written in apis.json. */

import { AUTH_TYPES, KEY_LOCATIONS, type AuthConfig, type AuthType, type KeyLocation } from './api-entry.js';
import { checked, objectAt, optionalString, ShapeProblem, stringAt, stringList, pointerOf, type Path } from './shape.js';
import { validateEnvName, validateOAuthUrl } from './validate-input.js';

/** The typed auth config at `path`; throws ShapeProblem naming the first bad field. */
export function parseAuthConfig(value: unknown, path: Path): AuthConfig {
  const auth = objectAt(value, path);
  const type = stringAt(auth.type, [...path, 'type']);
  if (!(AUTH_TYPES as readonly string[]).includes(type)) {
    throw new ShapeProblem(pointerOf([...path, 'type']), `${pointerOf([...path, 'type'])} must be one of ${AUTH_TYPES.join(', ')}`);
  }
  const text = (key: string): string => stringAt(auth[key], [...path, key]);
  const url = (key: string): string => checked([...path, key], () => validateOAuthUrl(key, text(key)));
  const envName = optionalString(auth.secretEnv, [...path, 'secretEnv']);
  const fromEnv = envName === undefined ? {} : { secretEnv: checked([...path, 'secretEnv'], () => validateEnvName('secretEnv', envName)) };
  const scopes = (): string[] => stringList(auth.scopes, [...path, 'scopes']);
  switch (type as AuthType) {
    case 'bearer':
      return { type: 'bearer', ...fromEnv };
    case 'basic':
      return { type: 'basic', username: text('username'), ...fromEnv };
    case 'api-key': {
      const where = optionalString(auth.in, [...path, 'in']) ?? 'header';
      if (!(KEY_LOCATIONS as readonly string[]).includes(where)) {
        throw new ShapeProblem(pointerOf([...path, 'in']), `${pointerOf([...path, 'in'])} must be one of ${KEY_LOCATIONS.join(', ')}`);
      }
      return { type: 'api-key', keyName: text('keyName'), in: where as KeyLocation, ...fromEnv };
    }
    case 'oauth2-client-credentials':
      return { type: 'oauth2-client-credentials', tokenUrl: url('tokenUrl'), clientId: text('clientId'), scopes: scopes(), ...fromEnv };
    case 'oauth2-authorization-code':
      return { type: 'oauth2-authorization-code', authorizeUrl: url('authorizeUrl'), tokenUrl: url('tokenUrl'), clientId: text('clientId'), scopes: scopes() };
    case 'oauth2-device-code':
      return { type: 'oauth2-device-code', deviceUrl: url('deviceUrl'), tokenUrl: url('tokenUrl'), clientId: text('clientId'), scopes: scopes() };
  }
}
