import { Command } from 'clipanion';
import type { CommandIo } from './actions/command-io.js';
import type { ToolContext } from './context.js';
import { styleFor, type Style } from '../output/style.js';

/**
 * Base of every command. clipanion would print a failure to stdout and exit 0 when `catch()` swallows
 * it; instead the failure is kept here and `runCli` reports it on stderr with the right exit code.
 */
export abstract class ToolCommand extends Command<ToolContext> {
  /** The error `execute()` threw, if any. */
  failure: unknown = undefined;

  override async catch(error: unknown): Promise<void> {
    this.failure = error;
  }

  /** Styling for stderr (identity when colours are off). */
  protected get style(): Style {
    return styleFor(this.context.colors);
  }

  /** Writes one line to stderr. */
  protected note(line: string): void {
    this.context.stderr.write(line.endsWith('\n') ? line : `${line}\n`);
  }

  /** The context, style and note that a command's action (src/cli/actions/) receives. */
  protected get io(): CommandIo {
    return { context: this.context, style: this.style, note: (line) => this.note(line) };
  }
}
