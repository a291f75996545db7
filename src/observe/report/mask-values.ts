/**
 * Values of a run as the report files show them: JSON values, operands and body excerpts with the
 * secrets masked through redact.ts (the reporter's one redaction path) and control characters
 * removed (printable.ts), so a report is as safe to share as the run's stderr.
 */
import { printableText } from '../../output/printable.js';
import { isSecretName, MASK, redactText, type KnownSecrets } from '../../output/redact.js';

/** Characters redacted beyond a cut, so that a secret straddling it is masked whole rather than half shown. */
const CUT_MARGIN = 1024;

/** A body as a report shows it: its size, and its text up to the body limit (none for a binary body). */
export interface BodyExcerpt {
  /** Bytes of the whole body. */
  size: number;
  /** The text (secrets masked), cut at the limit when `truncated`. */
  text?: string;
  truncated: boolean;
  /** A binary body: only its size is shown. */
  binary?: true;
}

/** A copy of a JSON value with the values of secret-named keys and the known secrets in strings as `***`; Buffers become base64 text. */
export function maskJson(value: unknown, known: KnownSecrets): unknown {
  if (typeof value === 'string') return redactText(value, known);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (Array.isArray(value)) return value.map((item) => maskJson(item, known));
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretName(key, known.names) && item !== null && typeof item !== 'object' ? MASK : maskJson(item, known);
  return out;
}

/** An operand as its JSON text (`422`, `"abc"`, `null` when it resolved to nothing), masked, at most `limit` characters (`…` marks a cut). */
export function operandText(value: unknown, known: KnownSecrets, limit: number): string {
  if (value === undefined) return 'null';
  if (Buffer.isBuffer(value)) return `<${value.length} bytes>`;
  let text: string;
  try {
    text = JSON.stringify(maskJson(value, known)) ?? String(value);
  } catch {
    text = String(value);
  }
  const shown = printableText(text.length > limit + CUT_MARGIN ? text.slice(0, limit + CUT_MARGIN) : text, known);
  return shown.length > limit ? `${shown.slice(0, Math.max(limit - 1, 0))}…` : shown;
}

/** The excerpt of a body given as its bytes (or, without them, its parsed value): masked first, then cut at `limit` bytes. */
export function bodyExcerpt(bytes: Buffer | undefined, parsed: unknown, limit: number, known: KnownSecrets): BodyExcerpt | undefined {
  if (Buffer.isBuffer(parsed)) return { size: parsed.length, truncated: false, binary: true };
  const raw = bytes ?? (parsed === undefined ? undefined : Buffer.from(typeof parsed === 'string' ? parsed : (JSON.stringify(parsed) ?? '')));
  if (raw === undefined || raw.length === 0) return undefined;
  const truncated = raw.length > limit;
  let text = printableText((truncated ? raw.subarray(0, limit + CUT_MARGIN) : raw).toString('utf8'), known);
  if (truncated) text = Buffer.from(text).subarray(0, limit).toString('utf8').replace(/\uFFFD+$/, '');
  return { size: raw.length, text, truncated };
}
