/** Turning `tool auth login` flags (and, on a terminal, answers) into an auth config and a secret. */

import type { Readable } from 'node:stream';
import { CommandUsageError } from '../../errors/tool-error.js';
import { AUTH_TYPES, KEY_LOCATIONS, type AuthConfig, type AuthType, type KeyLocation } from '../../config/api-entry.js';
import { validateEnvName, validateHeaderName, validateOAuthUrl } from '../../config/validate-input.js';
import type { Prompter } from './prompter.js';
import { readStdinSecret } from './read-stdin-secret.js';

/** The flags of `tool auth login`, as parsed (undefined / false / [] when not given). */
export interface LoginFlags {
  type?: string;
  withToken: boolean;
  tokenEnv?: string;
  username?: string;
  passwordStdin: boolean;
  passwordEnv?: string;
  keyName?: string;
  keyIn?: string;
  tokenUrl?: string;
  authorizeUrl?: string;
  deviceUrl?: string;
  clientId?: string;
  clientSecretStdin: boolean;
  clientSecretEnv?: string;
  scopes: string[];
  noBrowser: boolean;
}

export interface LoginPlan {
  auth: AuthConfig;
  /** The secret to store in credentials.json; undefined when it comes from an environment variable or the flow has none. */
  secret?: string;
}

export interface LoginIo {
  stdin: Readable;
  /** Present only on a terminal: missing flags are then asked for instead of being an error. */
  prompter?: Prompter;
}

const OAUTH: AuthType[] = ['oauth2-client-credentials', 'oauth2-authorization-code', 'oauth2-device-code'];

/** Which types each flag belongs to; any other combination is a usage error. */
const FLAG_TYPES: Array<[keyof LoginFlags, string, AuthType[]]> = [
  ['withToken', '--with-token', ['bearer', 'api-key']],
  ['tokenEnv', '--token-env', ['bearer', 'api-key']],
  ['username', '--username', ['basic']],
  ['passwordStdin', '--password-stdin', ['basic']],
  ['passwordEnv', '--password-env', ['basic']],
  ['keyName', '--key-name', ['api-key']],
  ['keyIn', '--in', ['api-key']],
  ['tokenUrl', '--token-url', OAUTH],
  ['clientId', '--client-id', OAUTH],
  ['scopes', '--scope', OAUTH],
  ['clientSecretStdin', '--client-secret-stdin', ['oauth2-client-credentials']],
  ['clientSecretEnv', '--client-secret-env', ['oauth2-client-credentials']],
  ['authorizeUrl', '--authorize-url', ['oauth2-authorization-code']],
  ['deviceUrl', '--device-url', ['oauth2-device-code']],
  ['noBrowser', '--no-browser', ['oauth2-authorization-code']],
];

/**
 * Checks the flags for the chosen type, asks for what is missing on a terminal, reads a secret
 * from stdin when told to. Throws CommandUsageError naming the missing or misplaced flag, and
 * ConfigError for a bad URL or name.
 */
export async function planLogin(flags: LoginFlags, io: LoginIo): Promise<LoginPlan> {
  const type = await chooseType(flags.type, io.prompter);
  for (const [key, flag, types] of FLAG_TYPES) {
    if (given(flags[key]) && !types.includes(type)) {
      throw new CommandUsageError(`${flag} does not apply to --type ${type}`, `It is used with --type ${types.join(' or ')}.`);
    }
  }
  const ask = asker(type, io.prompter);
  switch (type) {
    case 'bearer': {
      const source = await secretSource({ stdinFlag: '--with-token', envFlag: '--token-env', viaStdin: flags.withToken, envName: flags.tokenEnv, what: 'token' }, io);
      return { auth: { type, ...source.config }, ...source.stored };
    }
    case 'basic': {
      const username = await ask(flags.username, '--username', 'User name: ');
      if (username.includes(':')) throw new CommandUsageError('--username must not contain ":" (HTTP basic auth cannot carry it)');
      const source = await secretSource({ stdinFlag: '--password-stdin', envFlag: '--password-env', viaStdin: flags.passwordStdin, envName: flags.passwordEnv, what: 'password' }, io);
      return { auth: { type, username, ...source.config }, ...source.stored };
    }
    case 'api-key': {
      const keyName = validateHeaderName('--key-name', await ask(flags.keyName, '--key-name', 'Header or query parameter name of the key: '));
      const where = (flags.keyIn ?? 'header') as KeyLocation;
      if (!KEY_LOCATIONS.includes(where)) throw new CommandUsageError(`--in must be one of ${KEY_LOCATIONS.join(', ')}, got ${JSON.stringify(flags.keyIn)}`);
      const source = await secretSource({ stdinFlag: '--with-token', envFlag: '--token-env', viaStdin: flags.withToken, envName: flags.tokenEnv, what: 'API key' }, io);
      return { auth: { type, keyName, in: where, ...source.config }, ...source.stored };
    }
    case 'oauth2-client-credentials': {
      const tokenUrl = validateOAuthUrl('--token-url', await ask(flags.tokenUrl, '--token-url', 'Token URL: '));
      const clientId = await ask(flags.clientId, '--client-id', 'Client ID: ');
      const source = await secretSource(
        { stdinFlag: '--client-secret-stdin', envFlag: '--client-secret-env', viaStdin: flags.clientSecretStdin, envName: flags.clientSecretEnv, what: 'client secret' },
        io,
      );
      return { auth: { type, tokenUrl, clientId, scopes: checkScopes(flags.scopes), ...source.config }, ...source.stored };
    }
    case 'oauth2-authorization-code': {
      const authorizeUrl = validateOAuthUrl('--authorize-url', await ask(flags.authorizeUrl, '--authorize-url', 'Authorization URL: '));
      const tokenUrl = validateOAuthUrl('--token-url', await ask(flags.tokenUrl, '--token-url', 'Token URL: '));
      const clientId = await ask(flags.clientId, '--client-id', 'Client ID: ');
      return { auth: { type, authorizeUrl, tokenUrl, clientId, scopes: checkScopes(flags.scopes) } };
    }
    case 'oauth2-device-code': {
      const deviceUrl = validateOAuthUrl('--device-url', await ask(flags.deviceUrl, '--device-url', 'Device authorization URL: '));
      const tokenUrl = validateOAuthUrl('--token-url', await ask(flags.tokenUrl, '--token-url', 'Token URL: '));
      const clientId = await ask(flags.clientId, '--client-id', 'Client ID: ');
      return { auth: { type, deviceUrl, tokenUrl, clientId, scopes: checkScopes(flags.scopes) } };
    }
  }
}

async function chooseType(type: string | undefined, prompter: Prompter | undefined): Promise<AuthType> {
  let answer = type;
  if (answer === undefined) {
    if (prompter === undefined) throw new CommandUsageError(`missing --type (one of ${AUTH_TYPES.join(', ')})`);
    const menu = AUTH_TYPES.map((name, i) => `  ${i + 1}. ${name}`).join('\n');
    answer = (await prompter.ask(`Auth type:\n${menu}\nChoose 1-${AUTH_TYPES.length}: `)).trim();
    if (/^\d$/.test(answer)) answer = AUTH_TYPES[Number(answer) - 1] ?? answer;
  }
  if (!(AUTH_TYPES as readonly string[]).includes(answer)) {
    throw new CommandUsageError(`--type must be one of ${AUTH_TYPES.join(', ')}, got ${JSON.stringify(answer)}`);
  }
  return answer as AuthType;
}

/** A flag's value, else the terminal's answer, else a usage error naming the flag. */
function asker(type: AuthType, prompter: Prompter | undefined) {
  return async (value: string | undefined, flag: string, question: string): Promise<string> => {
    if (value !== undefined && value.trim() !== '') return value.trim();
    if (value !== undefined) throw new CommandUsageError(`${flag} must not be empty`);
    if (prompter === undefined) throw new CommandUsageError(`missing ${flag} (required with --type ${type})`);
    const answer = (await prompter.ask(question)).trim();
    if (answer === '') throw new CommandUsageError(`no value entered for ${flag}`);
    return answer;
  };
}

interface SecretFlags {
  stdinFlag: string;
  envFlag: string;
  viaStdin: boolean;
  envName: string | undefined;
  what: string;
}

/** Where the secret comes from: an environment variable (only its name is kept), stdin, or a hidden prompt. */
async function secretSource(flags: SecretFlags, io: LoginIo): Promise<{ config: { secretEnv?: string }; stored: { secret?: string } }> {
  if (flags.viaStdin && flags.envName !== undefined) throw new CommandUsageError(`give ${flags.stdinFlag} or ${flags.envFlag}, not both`);
  if (flags.envName !== undefined) return { config: { secretEnv: validateEnvName(flags.envFlag, flags.envName) }, stored: {} };
  // On a terminal, stdin is the keyboard: ask with echo off rather than wait for end-of-file.
  if (io.prompter !== undefined) {
    const secret = await io.prompter.ask(`Paste the ${flags.what} (input is hidden): `, { hidden: true });
    if (secret.trim() === '') throw new CommandUsageError(`no ${flags.what} entered`);
    return { config: {}, stored: { secret: secret.trim() } };
  }
  if (!flags.viaStdin) {
    throw new CommandUsageError(`missing ${flags.stdinFlag} (the ${flags.what} on stdin) or ${flags.envFlag} VARNAME`, `e.g. printf %s "$SECRET" | tool auth login <name> ... ${flags.stdinFlag}`);
  }
  return { config: {}, stored: { secret: await readStdinSecret(io.stdin, flags.stdinFlag) } };
}

function checkScopes(scopes: string[]): string[] {
  for (const scope of scopes) {
    if (scope === '' || /[\s"\\]/.test(scope)) throw new CommandUsageError(`--scope ${JSON.stringify(scope)} is not a single scope`, 'Repeat --scope for each scope: --scope read --scope write.');
  }
  return [...scopes];
}

function given(value: LoginFlags[keyof LoginFlags]): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== false;
}
