/** How a command's work ended, as data: the CLI maps the kind to an exit code (src/cli/exit-codes.ts). */
export type Outcome =
  /** Everything worked (a run succeeded, a response was written). */
  | { kind: 'succeeded' }
  /** The work ran and failed: a workflow failed, or `--fail` saw HTTP >= 400. */
  | { kind: 'failed' }
  /** Stopped by Ctrl-C (or SIGTERM, SIGHUP) after it started; the partial result was printed. */
  | { kind: 'interrupted' }
  /** The document was invalid; its findings were printed and nothing was sent. */
  | { kind: 'invalid-document' };

export type OutcomeKind = Outcome['kind'];
