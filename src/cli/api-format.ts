/** How registry entries are printed by `tool api list` and `tool api show`. */

import { describeAuth } from '../auth/describe-auth.js';
import type { ApiEntry } from '../config/api-entry.js';
import { printableLine } from '../output/printable.js';
import { redactHeaders, redactUrl } from '../output/redact.js';

/** The `tool api list` table: a header row and one aligned row per API, newline-terminated. */
export function formatApiTable(entries: ApiEntry[]): string {
  const rows = [['NAME', 'BASE URL', 'AUTH', 'SPEC'], ...entries.map((e) => [e.name, shownUrl(e.baseUrl), e.auth ? describeAuth(e.auth) : '-', e.spec === undefined ? '-' : shownUrl(e.spec)])];
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '));
  return `${lines.join('\n')}\n`;
}

/** The `tool api show` text: one "field: value" line per field; URL secrets and credential-like header values as `***`. */
export function formatApiDetails(entry: ApiEntry): string {
  const lines = [`name:      ${entry.name}`, `base URL:  ${shownUrl(entry.baseUrl)}`, `spec:      ${entry.spec === undefined ? '-' : shownUrl(entry.spec)}`];
  const headers = Object.entries(shownHeaders(entry.headers));
  if (headers.length === 0) lines.push('headers:   -');
  headers.forEach(([name, value], i) => lines.push(`${i === 0 ? 'headers:' : '        '}   ${name}: ${value}`));
  lines.push(`auth:      ${entry.auth ? describeAuth(entry.auth) : 'none'}`);
  const variable = entry.auth !== undefined && 'secretEnv' in entry.auth ? entry.auth.secretEnv : undefined;
  if (variable !== undefined) lines.push(`secret:    read from $${variable}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON form of an entry for `--output json`: the fields of apis.json plus the name, masked as in the text form. */
export function apiToJson(entry: ApiEntry): Record<string, unknown> {
  return {
    name: entry.name,
    baseUrl: redactUrl(entry.baseUrl),
    spec: entry.spec === undefined ? null : redactUrl(entry.spec),
    headers: shownHeaders(entry.headers),
    auth: entry.auth ?? null,
  };
}

// A token in the URL of a description (`?access_token=`, `user:pass@`) or a PRIVATE-TOKEN header is as secret as a password.
function shownUrl(url: string): string {
  return printableLine(redactUrl(url));
}

function shownHeaders(headers: Record<string, string>): Record<string, string> {
  return redactHeaders(headers);
}
