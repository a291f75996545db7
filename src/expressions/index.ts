/** Runtime expressions, the simple condition language and payload templating (pure, no I/O). */
export type { ComponentSection, Expression, RequestSelector, ResponseSelector } from './ast.js';
export type { ExpressionContext, RequestData, ResponseData, StepData } from './context.js';
export type { CompareOp, Condition, LiteralValue } from './condition-ast.js';
export type { EmbeddedExpression, Template, TemplateWarning } from './template-ast.js';
export type { RenderOptions } from './render-template.js';
export {
  ConditionEvaluationError,
  ConditionSyntaxError,
  ExpressionSyntaxError,
  PointerSyntaxError,
  TemplateCycleError,
  UnresolvedExpressionError,
} from './errors.js';
export { isRuntimeExpression, parseExpression } from './parse-expression.js';
export { evaluateExpression } from './evaluate-expression.js';
export { parseCondition } from './parse-condition.js';
export { evaluateCondition } from './evaluate-condition.js';
export { isTruthy } from './compare-values.js';
export { expressionsIn } from './expressions-in.js';
export { compileTemplate } from './compile-template.js';
export { renderTemplate } from './render-template.js';
export { templateExpressions } from './template-expressions.js';
export { formatPointer, parsePointer, resolvePointer } from './json-pointer.js';
export { stringifyJson, type JsonReplacer } from './stringify-json.js';
