/**
 * Criteria, success and action alike: which ones a runner runs, how each is prepared, and how a set
 * is evaluated. A criterion's `kind` picks its evaluator: `simple` in v1 and v2, and in v2 `regex`,
 * `jsonpath` and `xpath`, whose libraries are loaded beforehand (criterion-libraries.ts) only when
 * the document uses them.
 */
import type { Criterion as CriterionObject } from '../arazzo/model.js';
import { DEFAULT_PROFILE, type RunnerProfile } from '../arazzo/runner-profile.js';
import type { Expression } from '../expressions/ast.js';
import type { Condition } from '../expressions/condition-ast.js';
import type { ExpressionContext } from '../expressions/context.js';
import type { CriterionLibraries, XPathLibrary } from '../expressions/criterion-libraries.js';
import { ConditionEvaluationError } from '../expressions/errors.js';
import { evaluateCondition } from '../expressions/evaluate-condition.js';
import { evaluateExpression } from '../expressions/evaluate-expression.js';
import { compileJsonPath, jsonPathHolds, type CompiledJsonPath } from '../expressions/jsonpath-criterion.js';
import { parseCondition } from '../expressions/parse-condition.js';
import { parseExpression } from '../expressions/parse-expression.js';
import { compileRegexCriterion, regexHolds } from '../expressions/regex-criterion.js';
import { NO_REGEX_TESTER, type RegexTester } from '../expressions/regex-tester.js';
import { checkXPath, xpathHolds } from '../expressions/xpath-criterion.js';

/** A `simple` criterion: a condition in Arazzo's condition language. */
export interface SimpleCriterion {
  kind: 'simple';
  condition: Condition;
  /** The condition as written, for messages. */
  source: string;
}

/** What the typed criteria (v2) share: the context expression they read (none: the criterion does not hold). */
interface TypedCriterionBase {
  context?: Expression;
  source: string;
}

/** A `regex` criterion (v2). */
export interface RegexCriterion extends TypedCriterionBase {
  kind: 'regex';
  pattern: RegExp;
  /** What runs the match under the time limit (the run's regex worker). */
  tester: RegexTester;
  /** Where to say why the match was stopped (then it does not hold). */
  warn: (message: string) => void;
}

/** A `jsonpath` criterion (v2): holds when the query selects a node of the context value. */
export interface JsonPathCriterion extends TypedCriterionBase {
  kind: 'jsonpath';
  query: CompiledJsonPath;
  /** Where to say why the query could not be evaluated (then it does not hold). */
  warn: (message: string) => void;
}

/** An `xpath` criterion (v2): holds when the expression's effective boolean value on the context XML is true. */
export interface XPathCriterion extends TypedCriterionBase {
  kind: 'xpath';
  expression: string;
  library: XPathLibrary;
  /** Where to say why the XML or the expression could not be evaluated (then it does not hold). */
  warn: (message: string) => void;
}

/** A criterion ready to evaluate. */
export type Criterion = SimpleCriterion | RegexCriterion | JsonPathCriterion | XPathCriterion;

/** Criteria that must all hold: a step's success criteria, or one action's. */
export type CriteriaSet = readonly Criterion[];

/** The first criterion of a set that does not hold; `error` says why it could not be evaluated, when it could not. */
export interface CriteriaMiss {
  criterion: Criterion;
  error?: string;
}

/**
 * How criteria are prepared: the runner profile, the libraries loaded for the document (typed
 * criteria), the regex tester (the run's worker; none when nothing is evaluated, as in graph), and
 * where evaluation problems are reported.
 */
export interface CriteriaOptions {
  profile: RunnerProfile;
  libraries?: CriterionLibraries;
  regex?: RegexTester;
  warn?: (message: string) => void;
}

/**
 * Why the runner cannot evaluate a criterion (its type, or a context), or undefined when it can.
 * The one place that decides, from the profile: v1 runs `simple` without a context; v2 runs every
 * type, and ignores the context of a `simple` criterion (validate warns).
 */
export function unsupportedCriterion(criterion: CriterionObject, profile: RunnerProfile = DEFAULT_PROFILE): 'type' | 'context' | undefined {
  if (!profile.evaluatesTypedCriteria && criterion.type !== 'simple') return 'type';
  if (profile.refusesCriterionContext && criterion.context !== undefined && criterion.context !== '') return 'context';
  return undefined;
}

/**
 * Prepares a criterion the runner can evaluate (see unsupportedCriterion). Throws
 * ConditionSyntaxError on a condition that does not parse, and Error on a regex, JSONPath or XPath
 * that does not compile or a typed criterion whose library was not loaded.
 */
export function prepareCriterion(criterion: CriterionObject, options: CriteriaOptions = { profile: DEFAULT_PROFILE }): Criterion {
  const source = criterion.condition ?? '';
  if (!options.profile.evaluatesTypedCriteria || criterion.type === 'simple') return { kind: 'simple', condition: parseCondition(source), source };
  const context = criterion.context === undefined || criterion.context.trim() === '' ? undefined : parseExpression(criterion.context.trim());
  const warn = options.warn ?? (() => undefined);
  switch (criterion.type) {
    case 'regex':
      return { kind: 'regex', context, pattern: compileRegexCriterion(source), tester: options.regex ?? NO_REGEX_TESTER, source, warn };
    case 'jsonpath': {
      const library = options.libraries?.jsonpath;
      if (!library) throw new Error('the jsonpath library was not loaded');
      return { kind: 'jsonpath', context, query: compileJsonPath(library, source, criterion.version), source, warn };
    }
    case 'xpath': {
      const library = options.libraries?.xpath;
      if (!library) throw new Error('the xpath library was not loaded');
      checkXPath(library, source, criterion.version);
      return { kind: 'xpath', context, expression: source, library, source, warn };
    }
    default:
      throw new Error(`criterion type "${criterion.type}" is not one of simple, regex, jsonpath, xpath`);
  }
}

/**
 * Evaluates criteria in order: undefined when all hold (an empty set holds), else the first that
 * does not, with `error` when it could not be evaluated (an ordering comparison on a non-number).
 * Throws only on bugs.
 */
export function evaluateCriteria(criteria: CriteriaSet, ctx: ExpressionContext): CriteriaMiss | undefined {
  for (const criterion of criteria) {
    try {
      if (!holds(criterion, ctx)) return { criterion };
    } catch (error) {
      if (!(error instanceof ConditionEvaluationError)) throw error;
      return { criterion, error: error.message };
    }
  }
  return undefined;
}

/** Whether evaluating the set can fail rather than answer (then the machine needs a way to fail the step). */
export function criteriaCanFail(criteria: CriteriaSet): boolean {
  return criteria.some((criterion) => {
    switch (criterion.kind) {
      case 'simple':
        return hasOrdering(criterion.condition);
      default:
        // A typed criterion that cannot be evaluated does not hold (the reason goes to stderr).
        return false;
    }
  });
}

function holds(criterion: Criterion, ctx: ExpressionContext): boolean {
  switch (criterion.kind) {
    case 'simple':
      return evaluateCondition(criterion.condition, ctx);
    case 'regex': {
      const verdict = regexHolds(criterion.tester, criterion.pattern, contextValue(criterion, ctx));
      if (verdict.reason !== undefined) criterion.warn(`regex criterion ${JSON.stringify(criterion.source)} does not hold: ${verdict.reason}`);
      return verdict.holds;
    }
    case 'jsonpath': {
      const value = contextValue(criterion, ctx);
      if (value === undefined) return false;
      try {
        return jsonPathHolds(criterion.query, value);
      } catch (error) {
        criterion.warn(`jsonpath criterion ${JSON.stringify(criterion.source)} does not hold: ${(error as Error).message}`);
        return false;
      }
    }
    case 'xpath': {
      const verdict = xpathHolds(criterion.library, criterion.expression, contextValue(criterion, ctx));
      if (verdict.reason !== undefined) criterion.warn(`xpath criterion ${JSON.stringify(criterion.source)} does not hold: ${verdict.reason}`);
      return verdict.holds;
    }
  }
}

function contextValue(criterion: RegexCriterion | JsonPathCriterion | XPathCriterion, ctx: ExpressionContext): unknown {
  return criterion.context === undefined ? undefined : evaluateExpression(criterion.context, ctx);
}

/** Whether a condition contains an ordering comparison, the only thing whose evaluation can fail. */
function hasOrdering(condition: Condition): boolean {
  switch (condition.kind) {
    case 'compare':
      return ['<', '<=', '>', '>='].includes(condition.op) || hasOrdering(condition.left) || hasOrdering(condition.right);
    case 'and':
    case 'or':
      return condition.operands.some(hasOrdering);
    case 'not':
      return hasOrdering(condition.operand);
    default:
      return false;
  }
}
