/** Criteria checks: which criterion types the v1 runner executes, `context`, and condition syntax. */
import { checkCondition } from './check-expressions.js';
import type { ExpressionScope } from './expression-scope.js';
import { RUNS_WITH_V2, type Report } from './finding.js';
import type { Criterion } from './model.js';
import { childPointer } from './read-fields.js';

const NON_SIMPLE = new Set(['regex', 'jsonpath', 'xpath']);

/**
 * Success criteria: a regex/jsonpath/xpath criterion is skipped at runtime (a warning). Action
 * criteria: those types fail at dispatch. A simple criterion with a non-empty `context` fails when
 * evaluated. Both are warnings, since the spec rejects them only when the run reaches them; a
 * simple condition must parse (an error).
 */
export function checkCriteria(criteria: readonly Criterion[], where: 'success' | 'action', scope: ExpressionScope, report: Report): void {
  for (const criterion of criteria) {
    const typePointer = childPointer(criterion.pointer, 'type');
    if (NON_SIMPLE.has(criterion.type)) {
      if (where === 'success') {
        report.warning('SUCCESS_CRITERION_SKIPPED', typePointer, `${criterion.type} success criteria are not supported by the v1 runner; this criterion will be skipped (with a warning) at runtime ${RUNS_WITH_V2}`);
      } else {
        report.warning(
          'UNSUPPORTED_ACTION_CRITERION',
          typePointer,
          `${criterion.type} criteria on an action are not supported by the v1 runner and fail when the action is considered; use a simple condition ${RUNS_WITH_V2}`,
        );
      }
      continue;
    }
    if (criterion.type !== 'simple') {
      report.error('UNKNOWN_CRITERION_TYPE', typePointer, `criterion type "${criterion.type}" is not one of simple, regex, jsonpath, xpath`);
      continue;
    }
    if (criterion.context !== undefined && criterion.context.trim() !== '') {
      report.warning(
        'CRITERION_CONTEXT_UNSUPPORTED',
        childPointer(criterion.pointer, 'context'),
        `a simple criterion with a context is not supported by the v1 runner and fails when it is evaluated; drop "context" and put the expression in the condition ${RUNS_WITH_V2}`,
      );
    }
    if (criterion.condition !== undefined) checkCondition(criterion.condition, childPointer(criterion.pointer, 'condition'), scope, report);
  }
}
