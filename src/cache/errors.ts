/** Errors about the description cache's configuration. */

import { ToolError } from '../errors/tool-error.js';

export type CacheErrorCode = 'CACHE_TTL_INVALID' | 'CACHE_SIZE_INVALID';

/** Thrown when TOOL_CACHE_TTL is not a whole number of seconds, or TOOL_CACHE_MAX_MIB not a whole number of MiB (a usage error). */
export class CacheError extends ToolError {
  declare readonly code: CacheErrorCode;

  constructor(code: CacheErrorCode, message: string, hint?: string) {
    super(code, message, hint);
    this.name = 'CacheError';
  }
}
