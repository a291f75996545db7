/** How messages quote a piece of the document (a condition, a pattern): readably, not JSON-escaped. */

/**
 * `text` between backticks, as Markdown writes code: `$response.body#/status == "shipped"`. Line
 * breaks (a block scalar) become spaces; text holding a backtick is fenced with two and spaces.
 */
export function codeSpan(text: string): string {
  const line = text.trim().replace(/\s*[\r\n]+\s*/g, ' ');
  return line.includes('`') ? `\`\` ${line} \`\`` : `\`${line}\``;
}
