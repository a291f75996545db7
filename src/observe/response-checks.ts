/**
 * The results of response checks (`--checks`, src/execute/check-response.ts) as data, and their
 * wording for stderr, the failure reason and the reports. Mismatches name a JSON pointer and a
 * schema keyword, never a value from the body.
 */

export interface ResponseMismatch {
  check: 'status' | 'contentType' | 'schema';
  /** schema: where in the body (RFC 6901; '' for the whole body). */
  pointer?: string;
  /** schema: the keyword that failed (`type`, `required`, …). */
  keyword?: string;
  /** In words, without the operation: `response body /id must be integer (type)`. */
  message: string;
}

/** The checks of one response. */
export interface ResponseCheck {
  mode: 'warn' | 'fail';
  /** What the response was checked against: `GET /pets/{id} 200 application/json` (the operation, the declared status and media type). */
  against: string;
  /** At most MAX_MISMATCHES. */
  mismatches: ResponseMismatch[];
  /** Mismatches found beyond those listed. */
  more: number;
  /** What was not checked, and why. */
  notes: string[];
}

/** The line of one mismatch (stderr, reports): `response body /id must be integer (type) — GET /pets/{id} 200 application/json`. */
export function mismatchLine(check: ResponseCheck, mismatch: ResponseMismatch): string {
  return `${mismatch.message} — ${check.against}`;
}

/** Every line of a check: one per listed mismatch, then `and N more`. */
export function checkLines(check: ResponseCheck): string[] {
  const lines = check.mismatches.map((mismatch) => mismatchLine(check, mismatch));
  if (check.more > 0) lines.push(`and ${check.more} more mismatch${check.more === 1 ? '' : 'es'} — ${check.against}`);
  return lines;
}

/** The failure reason `--checks fail` gives a step: the first mismatch, and how many more. */
export function checkReason(check: ResponseCheck): string {
  const first = check.mismatches[0]!;
  const others = check.mismatches.length - 1 + check.more;
  return `${mismatchLine(check, first)}${others > 0 ? ` (and ${others} more)` : ''}`;
}

