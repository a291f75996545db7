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
import { checkWithPlaceholders, embeddedIn, fillEmbedded, type EmbeddedCondition } from '../expressions/embedded-condition.js';
import { compileRegexCriterion, regexHolds } from '../expressions/regex-criterion.js';
import { NO_REGEX_TESTER, type RegexTester } from '../expressions/regex-tester.js';
import { checkXPath, xpathHolds } from '../expressions/xpath-criterion.js';
import { codeSpan } from '../output/code-span.js';
import { structured } from '../expressions/evaluate-selector.js';
import { parsePointer, resolvePointer } from '../expressions/json-pointer.js';
import { libraryVersion } from '../expressions/selector-object.js';
import { readsSelectors } from './template-options.js';

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
  /** The condition's `{$…}` expressions (embedded-condition.ts): filled in before each evaluation, which then compiles the text. */
  embedded?: EmbeddedCondition;
}

/** A `regex` criterion (v2). */
export interface RegexCriterion extends TypedCriterionBase {
  kind: 'regex';
  /** Absent when the condition embeds expressions: compiled from the filled-in text each time. */
  pattern?: RegExp;
  /** What runs the match under the time limit (the run's regex worker). */
  tester: RegexTester;
  /** Where to say why the match was stopped (then it does not hold). */
  warn: (message: string) => void;
}

/** A `jsonpath` criterion (v2): holds when the query selects a node of the context value. */
export interface JsonPathCriterion extends TypedCriterionBase {
  kind: 'jsonpath';
  /** The compiled query; or, when the condition embeds expressions, what compiles the filled-in text (the last few are kept). */
  query: CompiledJsonPath | ((text: string) => CompiledJsonPath);
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

/** A `jsonpointer` criterion (Arazzo 1.1): holds when the pointer names a value in the context. */
export interface JsonPointerCriterion extends TypedCriterionBase {
  kind: 'jsonpointer';
  warn: (message: string) => void;
}

/** A criterion ready to evaluate. */
export type Criterion = SimpleCriterion | RegexCriterion | JsonPathCriterion | XPathCriterion | JsonPointerCriterion;

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
  const dialect = options.profile.featureSet;
  if (!options.profile.evaluatesTypedCriteria || criterion.type === 'simple') return { kind: 'simple', condition: parseCondition(source, dialect), source };
  const context = criterion.context === undefined || criterion.context.trim() === '' ? undefined : parseExpression(criterion.context.trim(), dialect);
  // Arazzo 1.1 names each type's default version (rfc9535, xpath-31, rfc6901): the libraries take none for it.
  const version = readsSelectors(options.profile) ? libraryVersion(criterion.type, criterion.version) : criterion.version;
  const warn = options.warn ?? (() => undefined);
  // A condition with `{$…}` expressions is compiled once they have values; now, with stand-ins for them.
  const embedded = embeddedIn(source, dialect);
  const compiled = <T>(compile: (text: string) => T): T | undefined => {
    if (embedded === undefined) return compile(source);
    checkWithPlaceholders(embedded, compile);
    return undefined;
  };
  const typed = embedded === undefined ? { context, source, warn } : { context, source, warn, embedded };
  switch (criterion.type) {
    case 'regex':
      return { kind: 'regex', ...typed, pattern: compiled(compileRegexCriterion), tester: options.regex ?? NO_REGEX_TESTER };
    case 'jsonpath': {
      const library = options.libraries?.jsonpath;
      if (!library) throw new Error('the jsonpath library was not loaded');
      const compile = (text: string) => compileJsonPath(library, text, version);
      return { kind: 'jsonpath', ...typed, query: compiled(compile) ?? lastFew(compile) };
    }
    case 'xpath': {
      const library = options.libraries?.xpath;
      if (!library) throw new Error('the xpath library was not loaded');
      compiled((text) => checkXPath(library, text, version));
      return { kind: 'xpath', ...typed, expression: source, library };
    }
    case 'jsonpointer':
      if (!readsSelectors(options.profile)) break;
      compiled(parsePointer);
      return { kind: 'jsonpointer', ...typed };
  }
  throw new Error(`criterion type "${criterion.type}" is not one of simple, regex, jsonpath, xpath${readsSelectors(options.profile) ? ', jsonpointer' : ''}`);
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
  if (criterion.kind === 'simple') return evaluateCondition(criterion.condition, ctx);
  const doesNotHold = (reason: string) => {
    criterion.warn(`${criterion.kind} criterion ${codeSpan(criterion.source)} does not hold: ${reason}`);
    return false;
  };
  let text = criterion.source;
  if (criterion.embedded !== undefined) {
    const filled = fillEmbedded(criterion.embedded, ctx);
    if ('missing' in filled) return doesNotHold(`${filled.missing} resolved to nothing`);
    text = filled.text;
  }
  switch (criterion.kind) {
    case 'regex': {
      let pattern = criterion.pattern;
      if (pattern === undefined) {
        try {
          pattern = compileRegexCriterion(text);
        } catch (error) {
          return doesNotHold(`with its expressions filled in, ${codeSpan(text)} is not a valid pattern: ${(error as Error).message}`);
        }
      }
      const verdict = regexHolds(criterion.tester, pattern, contextValue(criterion, ctx));
      return verdict.reason === undefined ? verdict.holds : doesNotHold(verdict.reason);
    }
    case 'jsonpath': {
      const value = contextValue(criterion, ctx);
      if (value === undefined) return false;
      try {
        return jsonPathHolds(typeof criterion.query === 'function' ? criterion.query(text) : criterion.query, value);
      } catch (error) {
        return doesNotHold((error as Error).message);
      }
    }
    case 'xpath': {
      const verdict = xpathHolds(criterion.library, text, contextValue(criterion, ctx));
      return verdict.reason === undefined ? verdict.holds : doesNotHold(verdict.reason);
    }
    case 'jsonpointer': {
      const value = structured(contextValue(criterion, ctx));
      if (value === undefined) return false;
      try {
        return resolvePointer(value, parsePointer(text)) !== undefined;
      } catch (error) {
        return doesNotHold(`with its expressions filled in, ${codeSpan(text)} is not a JSON pointer: ${(error as Error).message}`);
      }
    }
  }
}

/** `compile` remembering its last few results: a criterion evaluated again (a retry, a loop) mostly fills in the same values. */
function lastFew<T>(compile: (text: string) => T): (text: string) => T {
  const kept = new Map<string, T>();
  return (text) => {
    let value = kept.get(text);
    if (value === undefined) {
      value = compile(text);
      if (kept.size >= 8) kept.delete(kept.keys().next().value!);
      kept.set(text, value);
    }
    return value;
  };
}

function contextValue(criterion: Exclude<Criterion, SimpleCriterion>, ctx: ExpressionContext): unknown {
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
