/** How `tool api ops` prints a description's operations. */

import { stripControls } from '../output/printable.js';
import type { Operation } from '../openapi/types.js';

/** One row per operation, in document order: OPERATION ID, METHOD, PATH, SUMMARY; newline-terminated. */
export function formatOperationsTable(operations: readonly Operation[]): string {
  const rows = [['OPERATION ID', 'METHOD', 'PATH', 'SUMMARY'], ...operations.map((op) => [oneLine(op.operationId), op.method, oneLine(op.path), oneLine(op.summary ?? '')])];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const lines = rows.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ').trimEnd());
  return `${lines.join('\n')}\n`;
}

/** The JSON form for `--output json`. */
export function operationsToJson(operations: readonly Operation[]): Array<Record<string, unknown>> {
  return operations.map((op) => ({ operationId: op.operationId, method: op.method, path: op.path, summary: op.summary ?? null }));
}

// A description is fetched from a server: its text reaches the terminal without escape sequences.
function oneLine(text: string): string {
  return stripControls(text.replace(/\s+/g, ' ')).trim();
}
