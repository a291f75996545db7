/** Uniqueness of workflow ids, step ids and source names; workflow and source cross-references. */
import type { Report } from './finding.js';
import type { ArazzoDocument } from './model.js';
import { readsAs11, type RunnerProfile } from './runner-profile.js';
import { childPointer } from './read-fields.js';
import { didYouMean } from './suggest.js';

/** Reports duplicate workflowIds, stepIds (per workflow) and source names, unknown `dependsOn` workflows and source types. */
export function checkIds(doc: ArazzoDocument, report: Report, profile: RunnerProfile): void {
  const names = new Set<string>();
  for (const source of doc.sourceDescriptions) {
    if (source.name !== undefined) {
      if (names.has(source.name)) report.error('DUPLICATE_SOURCE_NAME', childPointer(source.pointer, 'name'), `source name "${source.name}" is used twice`);
      names.add(source.name);
    }
    if (source.type === 'arazzo') {
      if (!profile.runsNestedWorkflows) report.warning('UNSUPPORTED_SOURCE_TYPE', childPointer(source.pointer, 'type'), profile.findings.arazzoSource(source.name ?? ''));
    } else if (source.type === 'asyncapi' && readsAs11(profile, doc.arazzo)) {
      // Arazzo 1.1's third type: check-arazzo-1-1.ts says what this version runs of it.
    } else if (source.type !== undefined && source.type !== 'openapi') {
      report.error('INVALID_SOURCE_TYPE', childPointer(source.pointer, 'type'), `source type "${source.type}" is not "openapi" or "arazzo"${readsAs11(profile, doc.arazzo) ? ' or "asyncapi"' : ''}`);
    }
  }

  const workflowIds = new Set<string>();
  for (const workflow of doc.workflows) {
    if (workflow.workflowId === undefined) continue;
    if (workflowIds.has(workflow.workflowId)) {
      report.error('DUPLICATE_WORKFLOW_ID', childPointer(workflow.pointer, 'workflowId'), `workflowId "${workflow.workflowId}" is used twice; --workflow could not tell them apart`);
    }
    workflowIds.add(workflow.workflowId);
    warnUnusualId('workflowId', workflow.workflowId, childPointer(workflow.pointer, 'workflowId'), report);
  }

  for (const workflow of doc.workflows) {
    const stepIds = new Set<string>();
    for (const step of workflow.steps) {
      if (step.stepId === undefined) continue;
      if (stepIds.has(step.stepId)) {
        report.error('DUPLICATE_STEP_ID', childPointer(step.pointer, 'stepId'), `stepId "${step.stepId}" is used twice in workflow "${workflow.workflowId ?? ''}"`);
      }
      stepIds.add(step.stepId);
      warnUnusualId('stepId', step.stepId, childPointer(step.pointer, 'stepId'), report);
    }
    workflow.dependsOn.forEach((id, index) => {
      // A qualified `$sourceDescriptions.<name>.<workflowId>` names a workflow in another document.
      if (id.startsWith('$sourceDescriptions.') || workflowIds.has(id)) return;
      report.error('UNKNOWN_WORKFLOW', childPointer(childPointer(workflow.pointer, 'dependsOn'), index), `dependsOn names workflow "${id}", which this document does not declare${didYouMean(id, workflowIds)}`);
    });
  }
}

const USUAL_ID = /^[A-Za-z0-9_-]+$/;

/** Arazzo says ids SHOULD be `[A-Za-z0-9_-]+`: others run, but other tools may not read `$steps.<id>…` the same way. */
function warnUnusualId(field: 'stepId' | 'workflowId', id: string, pointer: string, report: Report): void {
  if (USUAL_ID.test(id)) return;
  report.warning(
    'UNUSUAL_ID',
    pointer,
    `${field} "${id}" has characters other than the A-Z a-z 0-9 _ - that Arazzo recommends; tool's expressions still reach it (${field === 'stepId' ? '$steps' : '$workflows'}.${id}…, braced as {$…} in a condition when it holds a space), but other tools may not: consider renaming it`,
  );
}
