import { MEMO_LIMIT, deepFreeze } from './parse-expression.js';
/**
 * Recursive-descent parser for the simple condition language. Precedence, tightest first:
 * `!`, comparison (`== != < <= > >=`, not chainable), `&&`, `||`; parentheses group. Chains of
 * `&&` and `||` are read in a loop into flat nodes; only parentheses and `!` nest, at most
 * MAX_CONDITION_DEPTH levels.
 */
import type { Condition } from './condition-ast.js';
import { ConditionSyntaxError } from './errors.js';
import { tokenizeCondition, type ConditionToken } from './tokenize-condition.js';
import type { ExpressionDialect } from './ast.js';

/** How deep parentheses and `!` may nest; deeper is a syntax error, not a stack overflow. */
export const MAX_CONDITION_DEPTH = 64;

class ConditionParser {
  private index = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly tokens: ConditionToken[],
  ) {}

  parse(): Condition {
    if (this.peek().type === 'end') this.fail('the condition is empty', 0);
    const root = this.or();
    const next = this.peek();
    if (next.type !== 'end') this.unexpected(next, 'after a complete condition (missing "&&" or "||"?)');
    return root;
  }

  private or(): Condition {
    return this.chain('||', () => this.and());
  }

  private and(): Condition {
    return this.chain('&&', () => this.comparison());
  }

  /** `operand *( op operand )` as one flat node: the spec allows long chains, so they are read in a loop. */
  private chain(op: '&&' | '||', operand: () => Condition): Condition {
    const first = operand();
    if (this.peek().type !== op) return first;
    const operands = [first];
    while (this.peek().type === op) {
      this.index++;
      operands.push(operand());
    }
    return { kind: op === '&&' ? 'and' : 'or', operands, ...this.span(first.offset, this.lastEnd()) };
  }

  private comparison(): Condition {
    const left = this.unary();
    const token = this.peek();
    if (token.type !== 'op') return left;
    this.index++;
    const right = this.unary();
    const after = this.peek();
    if (after.type === 'op') this.fail('comparisons cannot be chained: join them with "&&"', after.offset);
    return { kind: 'compare', op: token.op, left, right, ...this.span(left.offset, this.lastEnd()) };
  }

  private unary(): Condition {
    const token = this.peek();
    if (token.type !== '!') return this.primary();
    this.index++;
    const operand = this.nested(() => this.unary());
    return { kind: 'not', operand, ...this.span(token.offset, this.lastEnd()) };
  }

  private primary(): Condition {
    const token = this.peek();
    switch (token.type) {
      case 'literal':
        this.index++;
        return { kind: 'literal', value: token.value, ...this.span(token.offset, token.end) };
      case 'expression':
        this.index++;
        return { kind: 'expression', expression: token.expression, access: token.access, ...this.span(token.offset, token.end) };
      case '(': {
        this.index++;
        const inner = this.nested(() => this.or());
        const close = this.peek();
        if (close.type !== ')') this.unexpected(close, `where ")" closing the "(" at offset ${token.offset} was expected`);
        this.index++;
        return inner;
      }
      default:
        return this.unexpected(token, 'where a value was expected');
    }
  }

  private span(offset: number, end: number): { source: string; offset: number } {
    return { source: this.text.slice(offset, end), offset };
  }

  /** Bounds nesting so a pathological condition is a syntax error, not a stack overflow. */
  private nested(parse: () => Condition): Condition {
    if (++this.depth > MAX_CONDITION_DEPTH) {
      this.fail(`the condition nests deeper than ${MAX_CONDITION_DEPTH} levels of parentheses and "!"; split it into several criteria`, this.opener().offset);
    }
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  private peek(): ConditionToken {
    // The tokenizer always ends with an 'end' token, and the parser never moves past it.
    return this.tokens[this.index] as ConditionToken;
  }

  /** The "(" or "!" just read, which opened the current level. */
  private opener(): ConditionToken {
    return this.tokens[this.index - 1] as ConditionToken;
  }

  private lastEnd(): number {
    return (this.tokens[this.index - 1] as ConditionToken).end;
  }

  private unexpected(token: ConditionToken, where: string): never {
    if (token.type === 'end') this.fail(`the condition ends ${where}`, token.offset);
    this.fail(`unexpected ${JSON.stringify(this.text.slice(token.offset, token.end))} ${where}`, token.offset);
  }

  private fail(message: string, at: number): never {
    throw new ConditionSyntaxError(message, this.text, at);
  }
}

/** Parses a `simple` criterion condition into an AST, parsing its expressions once (in `dialect`, 1.0 by default). Throws ConditionSyntaxError. */
export function parseCondition(source: string, dialect: ExpressionDialect = '1.0'): Condition {
  const memo = dialect === '1.1' ? parsedConditions11 : parsedConditions;
  let parsed = memo.get(source);
  if (parsed === undefined) {
    parsed = deepFreeze(new ConditionParser(source, tokenizeCondition(source, dialect)).parse());
    if (memo.size < MEMO_LIMIT) memo.set(source, parsed);
  }
  return parsed;
}

/** One read-only tree per distinct condition (see parseExpression). */
const parsedConditions = new Map<string, Condition>();
const parsedConditions11 = new Map<string, Condition>();
