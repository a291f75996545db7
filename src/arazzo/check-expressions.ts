/** Parses the expressions of a document (values, payloads, outputs, conditions) and checks what they refer to. */
import type { Expression } from '../expressions/ast.js';
import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import { ConditionSyntaxError, ExpressionSyntaxError, TemplateCycleError } from '../expressions/errors.js';
import { expressionsIn } from '../expressions/expressions-in.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';
import { checkReferences } from './check-references.js';
import type { ExpressionScope } from './expression-scope.js';
import type { Report } from './finding.js';
import { codeSpan } from '../output/code-span.js';

const ARAZZO_1_1_VALUES: TemplateOptions = { dialect: '1.1', selectors: {} };

/** Checks a string that must be exactly one runtime expression (an output): a parse failure is an error. */
export function checkExpressionString(source: string, pointer: string, scope: ExpressionScope, report: Report): void {
  const parsed = scope.parsed.expression(source);
  if ('error' in parsed) {
    if (!(parsed.error instanceof ExpressionSyntaxError)) throw parsed.error;
    report.error('EXPRESSION_SYNTAX', pointer, `"${source}" is not a valid runtime expression: ${parsed.error.message}`);
    return;
  }
  checkReferences(parsed.value, pointer, scope, report);
}

/**
 * Checks a value that is rendered as a template: a payload (`strict` false: a `$` string that does
 * not parse is sent as written, a warning) or a parameter value (`strict` true: a value that starts
 * with `$` must be an expression, an error).
 */
export function checkTemplate(value: unknown, pointer: string, scope: ExpressionScope, report: Report, strict: boolean): void {
  const warnings: TemplateWarning[] = [];
  let template: Template;
  try {
    // Arazzo 1.1 reads its grammar and Selector Objects (their own checks: check-selectors.ts); 1.0 neither.
    template = compileTemplate(value, warnings, scope.profile.featureSet === '1.1' ? ARAZZO_1_1_VALUES : {});
  } catch (error) {
    if (!(error instanceof TemplateCycleError)) throw error;
    report.error('PAYLOAD_CYCLE', pointer + error.pointer, error.message);
    return;
  }
  for (let i = 0; i < warnings.length; i++) {
    const warning = warnings[i]!;
    const at = pointer + warning.pointer;
    if (strict && warning.pointer === '' && typeof value === 'string' && value.startsWith('$')) {
      checkExpressionString(value, at, scope, report);
    } else {
      report.warning('EXPRESSION_KEPT_LITERAL', at, warning.message);
    }
  }
  // A value is most often a literal or one expression: neither needs the list of expressions.
  if (template.kind === 'literal') return;
  if (template.kind === 'expression') {
    checkReferences(template.expression, pointer + template.pointer, scope, report);
    return;
  }
  for (const [expr, at] of expressionsWithPointers(template)) checkReferences(expr, pointer + at, scope, report);
}

/** Checks a `simple` condition: a parse failure is an error naming the parser's message. */
export function checkCondition(condition: string, pointer: string, scope: ExpressionScope, report: Report): void {
  const parsed = scope.parsed.condition(condition);
  if ('error' in parsed) {
    if (!(parsed.error instanceof ConditionSyntaxError)) throw parsed.error;
    const shown = condition.length <= 120 ? condition : `${condition.slice(0, 120)}… (${condition.length} characters)`;
    report.error('CONDITION_SYNTAX', pointer, `condition ${codeSpan(shown)} does not parse: ${parsed.error.message}`);
    return;
  }
  const expressions = expressionsIn(parsed.value);
  for (let i = 0; i < expressions.length; i++) checkReferences(expressions[i]!, pointer, scope, report);
}

function expressionsWithPointers(template: Template): Array<[Expression, string]> {
  switch (template.kind) {
    case 'literal':
      return [];
    case 'expression':
      return [[template.expression, template.pointer]];
    case 'interpolation':
      return template.parts.flatMap((part) => (typeof part === 'string' ? [] : [[part.expression, template.pointer] as [Expression, string]]));
    case 'selector':
      return [[template.selector.context, template.pointer], ...(template.selector.embedded ?? []).flatMap((part) => (typeof part === 'string' ? [] : [[part.expression, template.pointer] as [Expression, string]]))];
    case 'array':
      return template.items.flatMap(expressionsWithPointers);
    case 'object':
      return template.entries.flatMap(([, child]) => expressionsWithPointers(child));
  }
}
