/** How registry entries are printed by `tool api list` and `tool api show`. */

import { describeAuth } from '../auth/describe-auth.js';
import type { ApiEntry } from '../config/api-entry.js';

/** The `tool api list` table: a header row and one aligned row per API, newline-terminated. */
export function formatApiTable(entries: ApiEntry[]): string {
  const rows = [['NAME', 'BASE URL', 'AUTH', 'SPEC'], ...entries.map((e) => [e.name, e.baseUrl, e.auth ? describeAuth(e.auth) : '-', e.spec ?? '-'])];
  const widths = (rows[0] ?? []).map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  '));
  return `${lines.join('\n')}\n`;
}

/** The `tool api show` text: one "field: value" line per field. */
export function formatApiDetails(entry: ApiEntry): string {
  const lines = [`name:      ${entry.name}`, `base URL:  ${entry.baseUrl}`, `spec:      ${entry.spec ?? '-'}`];
  const headers = Object.entries(entry.headers);
  if (headers.length === 0) lines.push('headers:   -');
  headers.forEach(([name, value], i) => lines.push(`${i === 0 ? 'headers:' : '        '}   ${name}: ${value}`));
  lines.push(`auth:      ${entry.auth ? describeAuth(entry.auth) : 'none'}`);
  const variable = entry.auth !== undefined && 'secretEnv' in entry.auth ? entry.auth.secretEnv : undefined;
  if (variable !== undefined) lines.push(`secret:    read from $${variable}`);
  return `${lines.join('\n')}\n`;
}

/** The JSON form of an entry for `--output json`: the fields of apis.json plus the name (no secrets live there). */
export function apiToJson(entry: ApiEntry): Record<string, unknown> {
  return { name: entry.name, baseUrl: entry.baseUrl, spec: entry.spec ?? null, headers: entry.headers, auth: entry.auth ?? null };
}
