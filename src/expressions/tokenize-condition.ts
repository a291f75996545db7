/** Splits a condition into tokens; runtime expressions inside it are parsed here, once. */
import type { Expression } from './ast.js';
import type { CompareOp, LiteralValue } from './condition-ast.js';
import { ConditionSyntaxError, ExpressionSyntaxError } from './errors.js';
import type { ExpressionDialect } from './ast.js';
import { parseExpressionWithAccessors } from './parse-expression.js';

export type ConditionToken = { offset: number; end: number } & (
  | { type: '(' | ')' | '!' | '&&' | '||' | 'end' }
  | { type: 'op'; op: CompareOp }
  | { type: 'literal'; value: LiteralValue }
  | { type: 'expression'; expression: Expression; access: string[] }
);

const NUMBER = /-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const BAREWORD = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const WORD_CHAR = /[A-Za-z0-9_.]/;
const WHITESPACE = /\s/;
const ESCAPES: Record<string, string> = { '\\': '\\', "'": "'", '"': '"', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Where an expression starting at `start` ends: at whitespace, ')', '<', '>', '=', '!=', '&&' or '||'. */
function expressionEnd(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const ch = text[i] as string;
    const pair = text.slice(i, i + 2);
    if (WHITESPACE.test(ch) || ch === ')' || ch === '<' || ch === '>' || ch === '=') break;
    if (pair === '!=' || pair === '&&' || pair === '||') break;
    i++;
  }
  return i;
}

/** Tokenizes a condition. Throws ConditionSyntaxError. */
export function tokenizeCondition(text: string, dialect: ExpressionDialect = '1.0'): ConditionToken[] {
  const tokens: ConditionToken[] = [];
  const fail = (message: string, at: number): never => {
    throw new ConditionSyntaxError(message, text, at);
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    const pair = text.slice(i, i + 2);
    const start = i;
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')') {
      tokens.push({ type: ch, offset: start, end: ++i });
    } else if (pair === '==' || pair === '!=' || pair === '<=' || pair === '>=') {
      i += 2;
      tokens.push({ type: 'op', op: pair, offset: start, end: i });
    } else if (ch === '<' || ch === '>') {
      tokens.push({ type: 'op', op: ch, offset: start, end: ++i });
    } else if (pair === '&&' || pair === '||') {
      i += 2;
      tokens.push({ type: pair, offset: start, end: i });
    } else if (ch === '!') {
      tokens.push({ type: '!', offset: start, end: ++i });
    } else if (ch === '=') {
      fail('"=" is not an operator: use "==" to compare', start);
    } else if (ch === '&' || ch === '|') {
      fail(`"${ch}" is not an operator: use "${ch}${ch}"`, start);
    } else if (ch === '$') {
      i = expressionEnd(text, start);
      tokens.push(expressionToken(text.slice(start, i), start, start, i, fail, dialect));
    } else if (pair === '{$') {
      // `{$steps.Search Stations.outputs.id}`: braces let an expression hold spaces and operators.
      const close = text.indexOf('}', start);
      if (close < 0) fail('"{$" has no closing "}"', start);
      i = close + 1;
      tokens.push(expressionToken(text.slice(start + 1, close), start + 1, start, i, fail, dialect));
    } else if (ch === "'" || ch === '"') {
      i = readString(text, start, fail, tokens);
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = start;
      const match = NUMBER.exec(text);
      if (match === null) return fail(`"-" must be followed by a number`, start);
      i = start + match[0].length;
      if (i < text.length && WORD_CHAR.test(text[i] as string)) fail(`invalid number "${text.slice(start, expressionEnd(text, start))}"`, start);
      tokens.push({ type: 'literal', value: Number(match[0]), offset: start, end: i });
    } else {
      BAREWORD.lastIndex = start;
      const word = BAREWORD.exec(text)?.[0];
      if (word === undefined) return fail(`unexpected character ${JSON.stringify(ch)}`, start);
      i = start + word.length;
      const keywords: Record<string, LiteralValue> = { true: true, false: false, null: null };
      if (!Object.hasOwn(keywords, word)) {
        fail(
          `"${word}" is not a value: write a quoted string ('${word}'), a number, true, false, null or an expression starting with "$"`,
          start,
        );
      }
      tokens.push({ type: 'literal', value: keywords[word] as LiteralValue, offset: start, end: i });
    }
  }
  tokens.push({ type: 'end', offset: text.length, end: text.length });
  return tokens;
}

/** An expression token for `source` (found at `at` in the condition), with its `.name` and `[0]` accessors. */
function expressionToken(source: string, at: number, offset: number, end: number, fail: (message: string, at: number) => never, dialect: ExpressionDialect): ConditionToken {
  try {
    const { expression, access } = parseExpressionWithAccessors(source, dialect);
    return { type: 'expression', expression, access, offset, end };
  } catch (error) {
    if (error instanceof ExpressionSyntaxError) return fail(error.message, at + error.offset);
    throw error;
  }
}

/** Reads a quoted string starting at `start`, pushes it, returns the index after the closing quote. */
function readString(text: string, start: number, fail: (message: string, at: number) => never, tokens: ConditionToken[]): number {
  const quote = text[start] as string;
  let value = '';
  let i = start + 1;
  for (;;) {
    if (i >= text.length) return fail(`unterminated string: add the closing ${quote}`, start);
    const ch = text[i] as string;
    if (ch === quote) {
      // A doubled quote inside the string stands for one quote, as in SQL.
      if (text[i + 1] === quote) {
        value += quote;
        i += 2;
        continue;
      }
      tokens.push({ type: 'literal', value, offset: start, end: i + 1 });
      return i + 1;
    }
    if (ch !== '\\') {
      value += ch;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('"\\u" must be followed by four hex digits', i);
      value += String.fromCharCode(Number.parseInt(hex, 16));
      i += 6;
    } else if (next !== undefined && Object.hasOwn(ESCAPES, next)) {
      value += ESCAPES[next];
      i += 2;
    } else {
      fail(`unknown escape "\\${next ?? ''}" in string`, i);
    }
  }
}
