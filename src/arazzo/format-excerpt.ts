import type { Position } from './model.js';

/**
 * The source line at `pos` with a caret under its column, prefixed by the line number, e.g.
 * ` 3 | b: [1, 2` / `   |       ^`. Empty when the line does not exist. Tabs are kept so the caret
 * lines up in a terminal.
 */
export function formatExcerpt(text: string, pos: Position): string {
  const lines = text.split(/\r\n|\n|\r/);
  const line = lines[pos.line - 1];
  if (line === undefined) return '';
  const gutter = String(pos.line);
  const column = Math.max(1, Math.min(pos.col, line.length + 1));
  // Reuse the line's own whitespace before the caret so tabs keep their width.
  const pad = line.slice(0, column - 1).replace(/[^\t]/g, ' ');
  return `${gutter} | ${line}\n${' '.repeat(gutter.length)} | ${pad}^`;
}
