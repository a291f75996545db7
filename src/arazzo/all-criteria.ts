import { isReference, type ActionOrReference, type ArazzoDocument, type Criterion } from './model.js';

/** Every criterion of the document: success criteria, and those of inline and component actions. */
export function allCriteria(doc: ArazzoDocument): Criterion[] {
  const criteria: Criterion[] = [];
  const chain = (entries: ActionOrReference[] | undefined) => entries?.forEach((entry) => !isReference(entry) && criteria.push(...entry.criteria));
  for (const workflow of doc.workflows) {
    chain(workflow.successActions);
    chain(workflow.failureActions);
    for (const step of workflow.steps) {
      criteria.push(...step.successCriteria);
      chain(step.onSuccess);
      chain(step.onFailure);
    }
  }
  for (const action of [...Object.values(doc.components?.successActions ?? {}), ...Object.values(doc.components?.failureActions ?? {})]) criteria.push(...action.criteria);
  return criteria;
}
