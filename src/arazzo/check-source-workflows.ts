/**
 * v2: a `$sourceDescriptions.<name>.<workflowId>` reference must name a workflow that the Arazzo
 * source `<name>` declares, when that source can be read (`arazzo validate` reads local ones).
 */
import type { Report } from './finding.js';
import type { ArazzoDocument } from './model.js';
import { allWorkflowReferences, sourceWorkflow, unknownSourceWorkflowMessage } from './workflow-references.js';

/**
 * The workflow ids of the Arazzo source at `sourceUrl` (as written), or undefined when it is
 * deliberately not read (a remote source during `validate`). Throws when it cannot be read.
 */
export type LoadSourceWorkflows = (sourceUrl: string) => Promise<readonly string[] | undefined>;

/**
 * Reports references to workflows their Arazzo source does not declare (UNKNOWN_WORKFLOW, with the
 * closest id), and a source that cannot be read once (SOURCE_NOT_CHECKED). Without `load`, nothing.
 */
export async function checkSourceWorkflows(doc: ArazzoDocument, load: LoadSourceWorkflows | undefined, report: Report): Promise<void> {
  if (load === undefined) return;
  const loaded = new Map<string, Promise<{ ids?: readonly string[]; unreadable?: string }>>();
  const reported = new Set<string>();
  for (const found of allWorkflowReferences(doc)) {
    const named = sourceWorkflow(found.reference);
    const source = named && doc.sourceDescriptions.find((s) => s.name === named.source && s.type === 'arazzo');
    if (!named || !source || source.url === undefined || source.url.trim() === '') continue;
    let pending = loaded.get(source.url);
    if (!pending) {
      pending = load(source.url).then(
        (ids) => (ids === undefined ? {} : { ids }),
        (error: unknown) => ({ unreadable: error instanceof Error ? error.message : String(error) }),
      );
      loaded.set(source.url, pending);
    }
    const { ids, unreadable } = await pending;
    if (unreadable !== undefined && !reported.has(source.url)) {
      reported.add(source.url);
      report.warning('SOURCE_NOT_CHECKED', `${source.pointer}/url`, `Arazzo source "${named.source}" could not be read, so the workflows named in it were not checked: ${unreadable}`);
    }
    if (ids !== undefined && !ids.includes(named.workflowId)) report.error('UNKNOWN_WORKFLOW', found.pointer, unknownSourceWorkflowMessage(found, named.source, source.url, named.workflowId, ids));
  }
}
