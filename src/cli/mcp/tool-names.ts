/**
 * Tool names from workflowIds, within MCP's rules as the strictest clients apply them: 1 to 64 of
 * `A-Z a-z 0-9 _ -` (the specification also allows `.`, and 128 characters; some clients do not).
 * A workflowId that two documents share is prefixed by each document's name.
 */
import { basename } from 'node:path';

/** The most characters a name has. */
export const MAX_TOOL_NAME = 64;

/** A workflow to name: its id, and the file of its document. */
export interface Nameable {
  workflowId: string;
  file: string;
}

/** One name per workflow, in order, all distinct: the id made valid, prefixed by the document's name where ids clash, then numbered. */
export function toolNames(workflows: readonly Nameable[]): string[] {
  const plain = workflows.map((w) => validName(w.workflowId));
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  const wanted = workflows.map((w, i) => (counts.get(plain[i]!)! > 1 ? validName(`${documentName(w.file)}_${w.workflowId}`) : plain[i]!));
  const taken = new Set<string>();
  return wanted.map((name) => {
    let chosen = name;
    for (let n = 2; taken.has(chosen); n++) chosen = `${name.slice(0, MAX_TOOL_NAME - String(n).length - 1)}_${n}`;
    taken.add(chosen);
    return chosen;
  });
}

/** A document's name: its file name without `.arazzo.yaml` (or `.yml`, `.json`, or any other extension). */
export function documentName(file: string): string {
  const name = basename(file);
  const arazzo = /\.arazzo\.(ya?ml|json)$/i;
  return (arazzo.test(name) ? name.replace(arazzo, '') : name.replace(/\.[^.]+$/, '')) || name;
}

/** `text` with every character MCP names do not take as `_`, cut to MAX_TOOL_NAME (`_` when empty). */
export function validName(text: string): string {
  const name = text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, MAX_TOOL_NAME);
  return name === '' ? '_' : name;
}
