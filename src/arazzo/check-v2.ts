/**
 * What `--tool-runner v2` changes in validation: the v1 findings about constructs v2 runs (typed
 * criteria, a context) give way to v2's own checks of them, and the findings about constructs the
 * v2 contract runs but this version does not yet say so instead of pointing at v2.
 */
import { loadCriterionLibraries, TYPES_WITH_LIBRARY, type CriterionLibraries } from '../expressions/criterion-libraries.js';
import { compileJsonPath } from '../expressions/jsonpath-criterion.js';
import { parseExpression } from '../expressions/parse-expression.js';
import { compileRegexCriterion } from '../expressions/regex-criterion.js';
import { checkXPath } from '../expressions/xpath-criterion.js';
import { allCriteria } from './all-criteria.js';
import { RUNS_WITH_V2, type Finding, type Report } from './finding.js';
import { isReference, type Action, type ActionOrReference, type ArazzoDocument, type Criterion } from './model.js';
import { childPointer } from './read-fields.js';
import { NOT_YET_IN_V2, NOT_YET_V2_TEXT } from './runner-version.js';

/** v1 findings about what v2 runs: v2 checks those constructs itself. */
const RUN_BY_V2 = new Set(['SUCCESS_CRITERION_SKIPPED', 'UNSUPPORTED_ACTION_CRITERION', 'CRITERION_CONTEXT_UNSUPPORTED']);

/** Re-words findings and adds v2's checks to `report`; loads a criterion library only when the document uses its type. */
export async function checkForV2(doc: ArazzoDocument, report: Report): Promise<void> {
  const kept = report.findings.filter((finding) => !RUN_BY_V2.has(finding.code)).map(forV2);
  report.findings.splice(0, report.findings.length, ...kept);
  const criteria = allCriteria(doc);
  const libraries = await loadCriterionLibraries(new Set(criteria.map((c) => c.type).filter((type) => TYPES_WITH_LIBRARY.has(type))));
  for (const criterion of criteria) checkCriterion(criterion, libraries, report);
  checkChains(doc, report);
}

/** A v1 finding as v2 words it: a construct the v2 contract runs but this version does not is "not yet supported". */
function forV2(finding: Finding): Finding {
  if (!finding.message.endsWith(RUNS_WITH_V2)) return finding;
  let message = finding.message.slice(0, -RUNS_WITH_V2.length).trimEnd();
  if (finding.code === 'ACTION_NOT_SUPPORTED') {
    // replay is no Arazzo 1.0.1 action type: v2 does not run it either.
    return { ...finding, message: message.replace('is not implemented in the v1 runner', 'is not an Arazzo 1.0.1 action type') };
  }
  message = message.replaceAll('the v1 runner', 'the v2 runner');
  return { ...finding, message: `${message} ${NOT_YET_IN_V2}` };
}

function checkCriterion(criterion: Criterion, libraries: CriterionLibraries, report: Report): void {
  const contextPointer = childPointer(criterion.pointer, 'context');
  const hasContext = criterion.context !== undefined && criterion.context.trim() !== '';
  if (criterion.type === 'simple') {
    if (hasContext) report.warning('CRITERION_CONTEXT_IGNORED', contextPointer, 'a simple criterion does not read a context; the v2 runner ignores it (the condition names what it reads)');
    return;
  }
  if (!['regex', 'jsonpath', 'xpath'].includes(criterion.type)) return; // UNKNOWN_CRITERION_TYPE, reported already
  if (!hasContext) {
    report.warning('MISSING_CRITERION_CONTEXT', criterion.pointer, `a ${criterion.type} criterion needs a context (Arazzo: MUST); without one it never holds. Add e.g. context: $response.body`);
  } else {
    try {
      parseExpression(criterion.context!.trim());
    } catch (error) {
      report.error('EXPRESSION_SYNTAX', contextPointer, `"${criterion.context}" is not a valid runtime expression: ${(error as Error).message}`);
    }
  }
  const condition = criterion.condition ?? '';
  try {
    if (criterion.type === 'regex') compileRegexCriterion(condition);
    else if (criterion.type === 'jsonpath') compileJsonPath(libraries.jsonpath!, condition, criterion.version);
    else checkXPath(libraries.xpath!, condition, criterion.version);
  } catch (error) {
    const message = (error as Error).message.split('\n').filter((line) => line.trim() !== '').slice(0, 2).join(' ');
    report.error('CRITERION_SYNTAX', childPointer(criterion.pointer, 'condition'), `${criterion.type} criterion ${JSON.stringify(condition)} does not compile: ${message}`);
  }
}

/**
 * Two v2 action rules this version does not run yet: a step chain merged with the workflow's by
 * name (the step then fails before sending), and a retry whose limit is reached going on to the
 * next action (this version stops there, as v1 does).
 */
function checkChains(doc: ArazzoDocument, report: Report): void {
  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      for (const [own, inherited, field] of [
        [step.onSuccess, workflow.successActions, 'onSuccess'],
        [step.onFailure, workflow.failureActions, 'onFailure'],
      ] as const) {
        const section = field === 'onSuccess' ? 'successActions' : 'failureActions';
        if (own !== undefined && inherited !== undefined) {
          const names = new Set(own.map((entry) => resolve(doc, entry, section)?.name));
          if (inherited.some((entry) => !names.has(resolve(doc, entry, section)?.name))) {
            report.warning('V2_NOT_YET', childPointer(step.pointer, field), `step "${step.stepId ?? ''}": merging its ${field} chain with the workflow's ${section} is ${NOT_YET_V2_TEXT}; the step fails before its request is sent`);
          }
        }
        const chain = own ?? inherited ?? [];
        chain.forEach((entry, i) => {
          const action = resolve(doc, entry, section);
          if (action?.type === 'retry' && i < chain.length - 1) {
            report.warning('V2_NOT_YET', (own ? childPointer(step.pointer, field) : `${workflow.pointer}/${section}`) + `/${i}`, `retry action "${action.name ?? ''}" is followed by other actions; going on to them when its retryLimit is reached is ${NOT_YET_V2_TEXT}: the workflow fails there, as in v1`);
          }
        });
      }
    }
  }
}

function resolve(doc: ArazzoDocument, entry: ActionOrReference, section: 'successActions' | 'failureActions'): Action | undefined {
  if (!isReference(entry)) return entry;
  const match = /^\$components\.(successActions|failureActions)\.(.+)$/.exec(entry.reference);
  const actions = match && match[1] === section ? doc.components?.[section] : undefined;
  return actions && Object.hasOwn(actions, match![2]!) ? actions[match![2]!] : undefined;
}
