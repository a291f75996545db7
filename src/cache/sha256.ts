import { createHash } from 'node:crypto';

/** Hex SHA-256 of a string (UTF-8): cache file names and body fingerprints. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
