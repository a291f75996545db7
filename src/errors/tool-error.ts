/**
 * Errors meant for the user, as data: a documented `code` (src/errors/error-codes.ts), its `kind`,
 * a one-line `message` and an optional `hint` saying what to do. The CLI prints them and maps the
 * kind to an exit code; anything else that reaches the top is an internal error.
 */

import { kindOf, type ErrorCode, type ErrorKind } from './error-codes.js';

/** An error meant for the user: `message` is the first line, `hint` (optional) says what to do. */
export class ToolError extends Error {
  /** What sort of failure this is; decided by the code. */
  readonly kind: ErrorKind;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ToolError';
    this.kind = kindOf(code);
  }
}

/** Thrown for a bad flag value or argument combination that clipanion's parser cannot catch. */
export class CommandUsageError extends ToolError {
  constructor(message: string, hint?: string) {
    super('USAGE', message, hint);
    this.name = 'CommandUsageError';
  }
}

/** Thrown when a file the user named cannot be read or written (missing, a directory, too large). */
export class FileError extends ToolError {
  constructor(message: string, hint?: string) {
    super('FILE', message, hint);
    this.name = 'FileError';
  }
}
