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
import type { ArazzoDocument, Criterion } from './model.js';
import { childPointer } from './read-fields.js';
import { CALLS_RUN_BY_V2, checkWorkflowCalls } from './check-workflow-calls.js';
import type { RunnerProfile } from './runner-profile.js';

/** v1 findings about what v2 runs: v2 checks those constructs itself. */
const RUN_BY_V2 = new Set(['SUCCESS_CRITERION_SKIPPED', 'UNSUPPORTED_ACTION_CRITERION', 'CRITERION_CONTEXT_UNSUPPORTED', 'OPERATION_PATH_UNSUPPORTED', 'REPLACEMENTS_UNSUPPORTED']);

/** Re-words findings and adds v2's checks to `report`; loads a criterion library only when the document uses its type. */
export async function checkForV2(doc: ArazzoDocument, report: Report, profile: RunnerProfile): Promise<void> {
  const kept = report.findings.filter((finding) => !RUN_BY_V2.has(finding.code) && !CALLS_RUN_BY_V2.has(finding.code)).map((finding) => forV2(finding, profile));
  report.findings.splice(0, report.findings.length, ...kept);
  const criteria = allCriteria(doc);
  const libraries = await loadCriterionLibraries(new Set(criteria.map((c) => c.type).filter((type) => TYPES_WITH_LIBRARY.has(type))));
  for (const criterion of criteria) checkCriterion(criterion, libraries, report);
  checkWorkflowCalls(doc, report);
}

/** A v1 finding as v2 words it: a construct the v2 contract runs but this version does not is "not yet supported". */
function forV2(finding: Finding, profile: RunnerProfile): Finding {
  if (!finding.message.endsWith(RUNS_WITH_V2)) return finding;
  let message = finding.message.slice(0, -RUNS_WITH_V2.length).trimEnd();
  if (finding.code === 'ACTION_NOT_SUPPORTED') {
    // replay is no Arazzo 1.0.1 action type: v2 does not run it either.
    return { ...finding, message: message.replace('is not implemented in the v1 runner', 'is not an Arazzo 1.0.1 action type') };
  }
  message = message.replaceAll('the v1 runner', 'the v2 runner');
  return { ...finding, message: `${message} (${profile.notYetText ?? ''})` };
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
