/**
 * What `$workflows.<id>` reads in a step of an Arazzo source's workflow (v2): the run keeps every
 * finished workflow under its key (`<source>.<id>` for a source's), and a source's expressions
 * name their own document's workflows by id, as in the document itself.
 */
import type { ExpressionContext } from '../expressions/context.js';

type Workflows = NonNullable<ExpressionContext['workflows']>;

/** The keys of a document's workflows: `prefix` + id (DocumentScope.workflowKeys). */
export interface WorkflowKeys {
  prefix: string;
  ids: readonly string[];
  /** The view last made, for the run's `$workflows` record it reads. */
  view?: { all: Workflows; view: Workflows };
}

/** Keys of the workflows of a document whose key prefix is `prefix` ('' for the run's own document: no view needed). */
export function workflowKeysOf(prefix: string, ids: readonly string[]): WorkflowKeys | undefined {
  return prefix === '' ? undefined : { prefix, ids };
}

/**
 * `$workflows` as a step of the document with `keys` sees the run's finished workflows `all`:
 * its own workflows by id, read live (a workflow that has not finished resolves to nothing).
 * Without `keys` (the run's own document), `all` itself.
 */
export function workflowsIn(keys: WorkflowKeys | undefined, all: Workflows | undefined): Workflows | undefined {
  if (keys === undefined || all === undefined) return all;
  if (keys.view?.all === all) return keys.view.view;
  const view: Workflows = Object.create(null) as Workflows;
  for (const id of keys.ids) {
    Object.defineProperty(view, id, { enumerable: true, get: () => (Object.hasOwn(all, keys.prefix + id) ? all[keys.prefix + id] : undefined) });
  }
  keys.view = { all, view };
  return view;
}
