/**
 * The exit-code policy, in one place: every error kind and every command outcome maps to the code
 * that docs/cli.md#exit-codes documents. Only src/cli and src/bin.ts use exit codes.
 */

import type { ErrorKind } from '../errors/error-codes.js';
import type { OutcomeKind } from '../errors/outcome.js';

export const EXIT = {
  OK: 0,
  /** The work ran and failed (a workflow, a request with --fail, a login). */
  RUN_FAILED: 1,
  /** Bad flag or argument, unreadable file, unknown workflow or API, bad configuration. */
  USAGE: 2,
  /** The Arazzo document is invalid. */
  INVALID_DOCUMENT: 10,
  /** A bug in tool itself. */
  INTERNAL: 70,
  /** The command's output could not be written to stdout (a full disk, an I/O error): what it printed is incomplete. */
  OUTPUT_FAILED: 74,
  /** Interrupted (Ctrl-C). */
  INTERRUPTED: 130,
} as const;

const EXIT_FOR: Record<ErrorKind | OutcomeKind, number> = {
  succeeded: EXIT.OK,
  failed: EXIT.RUN_FAILED,
  usage: EXIT.USAGE,
  'invalid-document': EXIT.INVALID_DOCUMENT,
  internal: EXIT.INTERNAL,
  interrupted: EXIT.INTERRUPTED,
};

/** The exit code of an error kind or a command outcome: `exitCodeFor(error.kind)`, `exitCodeFor(outcome.kind)`. */
export function exitCodeFor(kind: ErrorKind | OutcomeKind): number {
  return EXIT_FOR[kind];
}
