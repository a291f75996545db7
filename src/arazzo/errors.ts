import { EXIT, ToolError } from '../cli/errors.js';
import type { Position } from './model.js';

export type ArazzoLoadErrorCode =
  | 'YAML_SYNTAX'
  | 'NOT_AN_OBJECT'
  | 'ALIAS_LIMIT'
  | 'TOO_DEEP'
  | 'FILE_TOO_LARGE'
  | 'FILE_NOT_FOUND'
  | 'IS_A_DIRECTORY'
  | 'FILE_UNREADABLE';

// A file that cannot be read is a usage problem (exit 2); a file that reads but is not a
// document we can model is an invalid document (exit 10).
const EXIT_FOR: Record<ArazzoLoadErrorCode, number> = {
  YAML_SYNTAX: EXIT.INVALID_DOCUMENT,
  NOT_AN_OBJECT: EXIT.INVALID_DOCUMENT,
  ALIAS_LIMIT: EXIT.INVALID_DOCUMENT,
  TOO_DEEP: EXIT.INVALID_DOCUMENT,
  FILE_TOO_LARGE: EXIT.USAGE,
  FILE_NOT_FOUND: EXIT.USAGE,
  IS_A_DIRECTORY: EXIT.USAGE,
  FILE_UNREADABLE: EXIT.USAGE,
};

/**
 * Thrown by `loadDocument` / `parseDocumentText` when a file cannot be turned into a document:
 * unreadable, too large, not YAML, or not a mapping at the top. `message` already names the file
 * (and `file:line:col` when the position is known); `hint` holds the caret excerpt or what to do.
 */
export class ArazzoLoadError extends ToolError {
  declare readonly code: ArazzoLoadErrorCode;

  constructor(
    code: ArazzoLoadErrorCode,
    message: string,
    readonly file: string,
    readonly position?: Position,
    hint?: string,
  ) {
    super(code, message, EXIT_FOR[code], hint);
    this.name = 'ArazzoLoadError';
  }
}
