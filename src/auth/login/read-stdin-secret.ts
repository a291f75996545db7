/** Reading a secret piped on stdin (`echo "$TOKEN" | tool auth login x --type bearer --with-token`). */

import type { Readable } from 'node:stream';
import { CommandUsageError } from '../../errors/tool-error.js';

const MAX_BYTES = 64 * 1024;

/**
 * The whole of stdin with one trailing line break removed. Throws CommandUsageError when it is
 * empty, too large, or has a line break or control character inside (no header could carry it).
 */
export async function readStdinSecret(stdin: Readable, flag: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_BYTES) throw new CommandUsageError(`${flag}: stdin holds more than 64 KiB; expected one secret`);
    chunks.push(buffer);
  }
  const secret = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (secret.trim() === '') throw new CommandUsageError(`${flag}: nothing was read from stdin`, 'Pipe the secret in, e.g. printf %s "$API_TOKEN" | tool auth login ...');
  if (/[\u0000-\u001f\u007f]/.test(secret)) {
    throw new CommandUsageError(`${flag}: the secret read from stdin has a line break or control character inside`, 'Give exactly one secret on one line.');
  }
  return secret;
}
