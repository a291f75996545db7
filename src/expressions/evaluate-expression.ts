/** Evaluates a parsed runtime expression against a context. Missing data yields undefined, never an error. */
import type { Expression, RequestSelector, ResponseSelector } from './ast.js';
import type { ExpressionContext, RequestData, ResponseData } from './context.js';
import { resolvePointer } from './json-pointer.js';

/** Own property only: `$inputs.constructor` must not reach Object.prototype. */
function own(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null) return undefined;
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/**
 * A named entry (input, output, component): the key as written, else, for `a.b.c` with no such
 * key, Arazzo's `.` property de-reference (`a`, then its property `b`, then `c`). The longest key
 * that exists wins, so an output really called `a.b` is still found first.
 */
function named(record: unknown, name: string): unknown {
  const exact = own(record, name);
  if (exact !== undefined || !name.includes('.')) return exact;
  const parts = name.split('.');
  for (let cut = parts.length - 1; cut > 0; cut--) {
    const head = own(record, parts.slice(0, cut).join('.'));
    if (head !== undefined) return resolvePointer(head, parts.slice(cut));
  }
  return undefined;
}

/**
 * Case-insensitive header lookup (RFC 9110). Several matching entries or an array value are
 * combined into one field value with ", " (RFC 9110 section 5.3).
 */
function header(headers: unknown, name: string): unknown {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const wanted = name.toLowerCase();
  const values: unknown[] = [];
  for (const key of Object.keys(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = (headers as Record<string, unknown>)[key];
    if (Array.isArray(value)) values.push(...value);
    else if (value !== undefined) values.push(value);
  }
  if (values.length === 0) return undefined;
  return values.length === 1 ? values[0] : values.join(', ');
}

function selectRequest(request: RequestData | undefined, selector: RequestSelector): unknown {
  if (request === undefined || request === null) return undefined;
  switch (selector.part) {
    case 'header':
      return header(request.headers, selector.name);
    case 'query':
      return own(request.query, selector.name);
    case 'path':
      return own(request.path, selector.name);
    case 'body':
      return resolvePointer(request.body, selector.pointer);
  }
}

function selectResponse(response: ResponseData | undefined, selector: ResponseSelector): unknown {
  if (response === undefined || response === null) return undefined;
  switch (selector.part) {
    case 'header':
      return header(response.headers, selector.name);
    case 'statusCode':
      return response.statusCode;
    case 'body':
      return resolvePointer(response.body, selector.pointer);
  }
}

/** The value an expression names, with its type kept; undefined when it resolves to nothing. Never throws for missing data. */
export function evaluateExpression(expr: Expression, ctx: ExpressionContext): unknown {
  switch (expr.kind) {
    case 'url':
      return ctx.url ?? ctx.request?.url;
    case 'method':
      return ctx.method ?? ctx.request?.method;
    case 'statusCode':
      return ctx.statusCode ?? ctx.response?.statusCode;
    case 'request':
      return selectRequest(ctx.request, expr.selector);
    case 'response':
      return selectResponse(ctx.response, expr.selector);
    case 'inputs':
      return resolvePointer(named(ctx.inputs, expr.name), expr.pointer);
    case 'outputs':
      return resolvePointer(named(ctx.outputs, expr.name), expr.pointer);
    case 'stepOutputs': {
      const step = own(ctx.steps, expr.stepId) as { outputs?: unknown } | undefined;
      return resolvePointer(named(step?.outputs, expr.name), expr.pointer);
    }
    case 'stepRequest': {
      const step = own(ctx.steps, expr.stepId) as { request?: RequestData } | undefined;
      return selectRequest(step?.request, expr.selector);
    }
    case 'stepResponse': {
      const step = own(ctx.steps, expr.stepId) as { response?: ResponseData } | undefined;
      return selectResponse(step?.response, expr.selector);
    }
    case 'workflow': {
      const workflow = own(ctx.workflows, expr.workflowId);
      return resolvePointer(named(own(workflow, expr.field), expr.name), expr.pointer);
    }
    case 'sourceDescription':
      return own(own(ctx.sourceDescriptions, expr.name), expr.field);
    case 'message': {
      const message = ctx.message;
      if (message === undefined || message === null) return undefined;
      return expr.selector.part === 'header' ? header(message.headers, expr.selector.name) : resolvePointer(message.payload, expr.selector.pointer);
    }
    case 'self':
      return ctx.self;
    case 'component':
      return resolvePointer(named(own(ctx.components, expr.section), expr.name), expr.pointer);
  }
}
