/** Errors about the configuration files and what is stored in them. */

import { ToolError } from '../errors/tool-error.js';

export type ConfigErrorCode =
  | 'CONFIG_SYNTAX'
  | 'CONFIG_SHAPE'
  | 'CONFIG_VERSION'
  | 'CONFIG_UNREADABLE'
  | 'CONFIG_WRITE_FAILED'
  | 'CONFIG_READ_ONLY'
  | 'CONFIG_LOCKED'
  | 'CONFIG_LOCK_LOST'
  | 'CONFIG_HOME_MISSING'
  | 'API_NOT_FOUND'
  | 'API_EXISTS'
  | 'API_CHANGED'
  | 'CREDENTIAL_ORIGIN_MISMATCH'
  | 'CREDENTIAL_WITHOUT_SCHEME'
  | 'INVALID_API_NAME'
  | 'INVALID_URL'
  | 'INVALID_HEADER'
  | 'INVALID_ENV_NAME'
  | 'INVALID_SPEC';

/** Thrown for a configuration problem (a broken file, an unknown API, a bad name or URL); always a usage error. */
export class ConfigError extends ToolError {
  declare readonly code: ConfigErrorCode;

  constructor(code: ConfigErrorCode, message: string, hint?: string) {
    super(code, message, hint);
    this.name = 'ConfigError';
  }
}

/** What a user does about a broken file: the same advice wherever the file is read. */
export const BROKEN_FILE_HINT = 'The file was left untouched. Fix it by hand, or move it aside to start over, then run the command again.';
