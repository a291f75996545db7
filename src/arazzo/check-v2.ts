/**
 * The checks of the constructs a profile that runs them (v2) adds to validation: typed criteria,
 * a context, and workflow calls. The base checks leave these constructs to it (they warn only
 * when the profile refuses them, runner-profile.ts).
 */
import { loadCriterionLibraries, TYPES_WITH_LIBRARY, type CriterionLibraries } from '../expressions/criterion-libraries.js';
import { checkWithPlaceholders, embeddedIn } from '../expressions/embedded-condition.js';
import { compileJsonPath } from '../expressions/jsonpath-criterion.js';
import { parseExpression } from '../expressions/parse-expression.js';
import { compileRegexCriterion } from '../expressions/regex-criterion.js';
import { checkXPath } from '../expressions/xpath-criterion.js';
import { expressionTypeProblem, libraryVersion } from '../expressions/selector-object.js';
import type { FeatureSet } from './runner-profile.js';
import { allCriteria } from './all-criteria.js';
import type { Report } from './finding.js';
import type { ArazzoDocument, Criterion } from './model.js';
import { childPointer } from './read-fields.js';
import { checkWorkflowCalls } from './check-workflow-calls.js';
import { codeSpan } from '../output/code-span.js';

/** Adds the checks of typed criteria and workflow calls to `report`; loads a criterion library only when the document uses its type. */
export async function checkForV2(doc: ArazzoDocument, report: Report, featureSet: FeatureSet = '1.0'): Promise<void> {
  const criteria = allCriteria(doc);
  const libraries = await loadCriterionLibraries(new Set(criteria.map((c) => c.type).filter((type) => TYPES_WITH_LIBRARY.has(type))));
  for (const criterion of criteria) checkCriterion(criterion, libraries, report, featureSet);
  checkWorkflowCalls(doc, report);
}

function checkCriterion(criterion: Criterion, libraries: CriterionLibraries, report: Report, featureSet: FeatureSet): void {
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
      parseExpression(criterion.context!.trim(), featureSet);
    } catch (error) {
      report.error('EXPRESSION_SYNTAX', contextPointer, `"${criterion.context}" is not a valid runtime expression: ${(error as Error).message}`);
    }
  }
  const condition = criterion.condition ?? '';
  // Arazzo 1.1 names the default versions too; a version it does not allow is check-selectors.ts's finding.
  if (featureSet === '1.1' && criterion.type !== 'regex' && expressionTypeProblem(criterion.type, criterion.version) !== undefined) return;
  const version = featureSet === '1.1' ? libraryVersion(criterion.type, criterion.version) : criterion.version;
  const compile = (text: string): unknown => {
    if (criterion.type === 'regex') return compileRegexCriterion(text);
    if (criterion.type === 'jsonpath') return compileJsonPath(libraries.jsonpath!, text, version);
    return checkXPath(libraries.xpath!, text, version);
  };
  try {
    // `{$…}` expressions are filled in before the condition compiles: checked with stand-ins for their values.
    const embedded = embeddedIn(condition);
    if (embedded === undefined) compile(condition);
    else checkWithPlaceholders(embedded, compile);
  } catch (error) {
    const message = (error as Error).message.split('\n').filter((line) => line.trim() !== '').slice(0, 2).join(' ');
    report.error('CRITERION_SYNTAX', childPointer(criterion.pointer, 'condition'), `${criterion.type} criterion ${codeSpan(condition)} does not compile: ${message}`);
  }
}
