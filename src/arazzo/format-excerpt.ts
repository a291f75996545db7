import type { Position } from './model.js';

/**
 * The source line at `pos` with a caret under its column, prefixed by the line number, e.g.
 * ` 3 | b: [1, 2` / `   |       ^`. Empty when the line does not exist. Tabs are kept so the caret
 * lines up in a terminal; a line longer than 100 characters is cut to the part around the column.
 */
export function formatExcerpt(text: string, pos: Position): string {
  const lines = text.split(/\r\n|\n|\r/);
  const line = lines[pos.line - 1];
  if (line === undefined) return '';
  const gutter = String(pos.line);
  const column = Math.max(1, Math.min(pos.col, line.length + 1));
  const { shown, caretAt } = clip(line, column - 1);
  // Reuse the line's own whitespace before the caret so tabs keep their width.
  const pad = shown.slice(0, caretAt).replace(/[^\t]/g, ' ');
  return `${gutter} | ${shown}\n${' '.repeat(gutter.length)} | ${pad}^`;
}

const BEFORE = 60;
const AFTER = 40;

/** A window of a very long line (a minified JSON document is one line) around index `at`, with "…" where it is cut. */
function clip(line: string, at: number): { shown: string; caretAt: number } {
  if (line.length <= BEFORE + AFTER) return { shown: line, caretAt: at };
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(line.length, at + AFTER);
  const head = start > 0 ? '…' : '';
  return { shown: `${head}${line.slice(start, end)}${end < line.length ? '…' : ''}`, caretAt: at - start + head.length };
}
