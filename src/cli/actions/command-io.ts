import type { ToolContext } from '../context.js';
import type { Style } from '../../output/style.js';

/** What a command's action gets from the command besides its option values: the context, stderr's style, and a way to write a line to stderr. */
export interface CommandIo {
  context: ToolContext;
  /** Styling for stderr (identity when colours are off). */
  style: Style;
  /** Writes one line to stderr. */
  note(line: string): void;
}
