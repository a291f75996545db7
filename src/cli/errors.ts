/**
 * Errors a command reports to the user: one or two lines on stderr and a documented exit code.
 * Anything else that reaches the top is an internal error.
 */

export const EXIT = {
  OK: 0,
  /** The workflow ran and failed. */
  RUN_FAILED: 1,
  /** Bad flag or argument, unreadable file, unknown workflow or API, bad configuration. */
  USAGE: 2,
  /** The Arazzo document is invalid. */
  INVALID_DOCUMENT: 10,
  /** A bug in tool itself. */
  INTERNAL: 70,
  /** Interrupted (Ctrl-C). */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** An error meant for the user: `message` is the first line, `hint` (optional) says what to do. */
export class ToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly exitCode: number = EXIT.RUN_FAILED,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Thrown for a bad flag value or argument combination that clipanion's parser cannot catch. */
export class CommandUsageError extends ToolError {
  constructor(message: string, hint?: string) {
    super('USAGE', message, EXIT.USAGE, hint);
    this.name = 'CommandUsageError';
  }
}

/** Thrown when a file the user named cannot be read (missing, a directory, too large). */
export class FileError extends ToolError {
  constructor(message: string, hint?: string) {
    super('FILE', message, EXIT.USAGE, hint);
    this.name = 'FileError';
  }
}
