/** Criteria checks: which criterion types the runner profile executes, `context`, and condition syntax. */
import { embeddedIn } from '../expressions/embedded-condition.js';
import { checkCondition } from './check-expressions.js';
import { checkReferences } from './check-references.js';
import type { ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import type { Criterion } from './model.js';
import { childPointer } from './read-fields.js';

const NON_SIMPLE = new Set(['regex', 'jsonpath', 'xpath']);
/** Arazzo 1.1 adds the `jsonpointer` criterion type (check-selectors.ts checks it). */
const NON_SIMPLE_1_1 = new Set([...NON_SIMPLE, 'jsonpointer']);

/**
 * Success criteria: a regex/jsonpath/xpath criterion is skipped at runtime (a warning). Action
 * criteria: those types fail at dispatch. A simple criterion with a non-empty `context` fails when
 * evaluated. Both are warnings, since the spec rejects them only when the run reaches them; a
 * simple condition must parse (an error).
 */
export function checkCriteria(criteria: readonly Criterion[], where: 'success' | 'action', scope: ExpressionScope, report: Report): void {
  const typed = scope.profile.featureSet === '1.1' ? NON_SIMPLE_1_1 : NON_SIMPLE;
  for (const criterion of criteria) {
    const typePointer = childPointer(criterion.pointer, 'type');
    if (typed.has(criterion.type)) {
      // A profile that evaluates them checks their syntax itself (check-v2.ts); what their `{$…}` expressions refer to is checked here.
      if (scope.profile.evaluatesTypedCriteria) {
        for (const part of embeddedIn(criterion.condition ?? '', scope.profile.featureSet) ?? []) if (typeof part !== 'string') checkReferences(part.expression, childPointer(criterion.pointer, 'condition'), scope, report);
        continue;
      }
      if (where === 'success') report.warning('SUCCESS_CRITERION_SKIPPED', typePointer, scope.profile.findings.successCriterionType(criterion.type));
      else report.warning('UNSUPPORTED_ACTION_CRITERION', typePointer, scope.profile.findings.actionCriterionType(criterion.type));
      continue;
    }
    if (criterion.type !== 'simple') {
      report.error('UNKNOWN_CRITERION_TYPE', typePointer, `criterion type "${criterion.type}" is not one of simple, ${[...typed].join(', ')}`);
      continue;
    }
    if (scope.profile.refusesCriterionContext && criterion.context !== undefined && criterion.context.trim() !== '') {
      report.warning('CRITERION_CONTEXT_UNSUPPORTED', childPointer(criterion.pointer, 'context'), scope.profile.findings.criterionContext());
    }
    if (criterion.condition !== undefined) checkCondition(criterion.condition, childPointer(criterion.pointer, 'condition'), scope, report);
  }
}
