/** Where tool keeps its registry, credentials and tokens (XDG base directories). */

import { isAbsolute, join } from 'node:path';
import { ConfigError } from './errors.js';

export interface ConfigPaths {
  /** `$XDG_CONFIG_HOME/tool` (registry and credentials; mode 0700). */
  configDir: string;
  /** `$XDG_CACHE_HOME/tool` (tokens and cached descriptions). */
  cacheDir: string;
  /** The API registry: names, base URLs, headers, auth schemes; no secrets. */
  apisFile: string;
  /** Secrets: tokens, passwords, API keys, client secrets, refresh tokens (mode 0600). */
  credentialsFile: string;
  /** OAuth access tokens with their expiry (mode 0600). */
  tokensFile: string;
}

/** The paths for the given environment (never process.env); throws ConfigError when neither XDG_* nor HOME is usable. */
export function configPaths(env: Record<string, string | undefined>): ConfigPaths {
  const configDir = join(baseDir(env, 'XDG_CONFIG_HOME', '.config'), 'tool');
  const cacheDir = join(baseDir(env, 'XDG_CACHE_HOME', '.cache'), 'tool');
  return {
    configDir,
    cacheDir,
    apisFile: join(configDir, 'apis.json'),
    credentialsFile: join(configDir, 'credentials.json'),
    tokensFile: join(cacheDir, 'tokens.json'),
  };
}

// The XDG spec says a relative XDG_* path is invalid and must be ignored.
function baseDir(env: Record<string, string | undefined>, variable: string, fallback: string): string {
  const xdg = env[variable];
  if (xdg !== undefined && xdg !== '' && isAbsolute(xdg)) return xdg;
  const home = env.HOME;
  if (home !== undefined && home !== '' && isAbsolute(home)) return join(home, fallback);
  throw new ConfigError('CONFIG_HOME_MISSING', `cannot tell where to keep tool's files: neither ${variable} nor HOME is set to an absolute path`, `Set HOME (or ${variable}) and run the command again.`);
}

/** The three files a configuration change may write, in the order changes write them. */
export function configFiles(paths: ConfigPaths): string[] {
  return [paths.credentialsFile, paths.tokensFile, paths.apisFile];
}
