import { ToolError } from '../errors/tool-error.js';
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
    super(code, message, hint);
    this.name = 'ArazzoLoadError';
  }
}
