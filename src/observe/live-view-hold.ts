/** Whether the terminal lets a person end a held live view. */
export interface Terminals {
  stdinIsTTY?: boolean;
  stderrIsTTY?: boolean;
}

/**
 * Whether the `--inspect` live view outlives the run until Ctrl-C: always with `--inspect-hold`,
 * otherwise only when stdin and stderr are both terminals. In CI, or with either one redirected,
 * nobody may be there to press Ctrl-C, so the live view ends with the run.
 */
export function holdsLiveView(inspectHold: boolean | undefined, terminals: Terminals): boolean {
  if (inspectHold === true) return true;
  return terminals.stdinIsTTY === true && terminals.stderrIsTTY === true;
}
