/**
 * The server's log: one line per message on stderr (stdout is the protocol on stdio), below the
 * level `--log-level` sets. Every message is made printable and kept on one line (printable.ts):
 * text from documents, servers and runs cannot move the cursor or forge a line.
 */
import { Writable } from 'node:stream';
import { printableLine } from '../../output/printable.js';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface McpLog {
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
}

/** A log writing `level: message` lines to `stderr` for the levels up to `level`; the values in `secrets` (the server adds to it) are shown as `***`. */
export function createLog(stderr: Writable, level: LogLevel, secrets: ReadonlySet<string> = new Set()): McpLog {
  const rank = LOG_LEVELS.indexOf(level);
  const at = (wanted: LogLevel) => (message: string) => {
    if (LOG_LEVELS.indexOf(wanted) > rank) return;
    stderr.write(`tool mcp ${wanted}: ${printableLine(message, { values: secrets })}\n`);
  };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

/** A Writable that calls `each` with every non-empty line written to it (the last one when it ends). */
export function lineStream(each: (line: string) => void): Writable {
  let pending = '';
  return new Writable({
    decodeStrings: false,
    write(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') each(line);
      done();
    },
    final(done) {
      if (pending.trim() !== '') each(pending);
      pending = '';
      done();
    },
  });
}
