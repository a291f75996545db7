/**
 * Parser for Arazzo 1.0.1 runtime expressions (the ABNF in the spec's "Runtime Expressions"
 * section, plus `$workflow.inputs` and the `$steps.<id>.request|response` forms). Hand-written
 * and single-pass: the result is an AST, evaluated later without re-parsing.
 */
import type { ComponentSection, Expression, ExpressionDialect, MessageSelector, RequestSelector, ResponseSelector } from './ast.js';
import { ExpressionSyntaxError, PointerSyntaxError } from './errors.js';
import { parsePointer } from './json-pointer.js';

const ROOTS =
  '$url, $method, $statusCode, $request., $response., $inputs., $workflow.inputs., $outputs., $steps., $workflows., $sourceDescriptions. or $components.';
const ROOTS_1_1 =
  '$url, $method, $statusCode, $request., $response., $message., $inputs., $workflow.inputs., $outputs., $steps., $workflows., $sourceDescriptions., $components. or $self';

const COMPONENT_SECTIONS: readonly ComponentSection[] = ['parameters', 'inputs', 'successActions', 'failureActions'];

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** Source names: `[A-Za-z0-9_-]`, as Arazzo requires (a '.' would be ambiguous with the next segment). */
function isIdChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === 95 /* _ */ || c === 45 /* - */;
}
/**
 * Step and workflow ids only SHOULD be `[A-Za-z0-9_-]`, and the ABNF reads them as `*CHAR`: any
 * character but the '.' that ends the segment, the '#' of a pointer, the braces of an embedded
 * `{$expr}` and control characters ("Search Stations" is a step id).
 */
function isLooseIdChar(c: number): boolean {
  return c > 31 && c !== 127 && c !== 46 /* . */ && c !== 35 /* # */ && c !== 123 /* { */ && c !== 125 /* } */;
}
/** Input, output, component and field names may also contain '.', as Arazzo map keys may. */
function isNameChar(c: number): boolean {
  return isIdChar(c) || c === 46 /* . */;
}
/** A property after `.` in a condition: a name without '.', which separates properties there. */
function isAccessorChar(c: number): boolean {
  return isIdChar(c) || c === 36 /* $ */ || c === 64 /* @ */;
}
/** Query and path parameter names also allow brackets (`filter[status]`). */
function isParamNameChar(c: number): boolean {
  return isNameChar(c) || c === 91 /* [ */ || c === 93 /* ] */;
}
// RFC 9110 tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TCHAR_SYMBOLS = new Set("!#$%&'*+-.^_`|~".split('').map((ch) => ch.charCodeAt(0)));
function isTchar(c: number): boolean {
  return isLetter(c) || isDigit(c) || TCHAR_SYMBOLS.has(c);
}

/** `"a", "b" or "c"` */
function oneOf(words: readonly string[]): string {
  const quoted = words.map((word) => `"${word}"`);
  return quoted.length === 1 ? (quoted[0] as string) : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
}

class ExpressionParser {
  private pos = 0;

  constructor(
    private readonly text: string,
    private readonly dialect: ExpressionDialect = '1.0',
  ) {}

  parse(): Expression {
    const expr = this.parsePrefix();
    if (this.pos < this.text.length) this.trailing();
    return expr;
  }

  /** Parses the longest expression at the start of the text; `this.pos` is left where it ends. */
  parsePrefix(): Expression {
    if (this.text[0] !== '$') this.fail('a runtime expression starts with "$"', 0);
    this.pos = 1;
    const root = this.word();
    return this.parseRoot(root);
  }

  /** Reads `.name` and `[index]` accessors up to the end of the text; throws at anything else. */
  accessors(): string[] {
    const tokens: string[] = [];
    while (this.pos < this.text.length) {
      const ch = this.text[this.pos];
      if (ch === '.') {
        this.pos++;
        tokens.push(this.take(isAccessorChar, 'a property name'));
      } else if (ch === '[') {
        const start = ++this.pos;
        const index = this.takeWhile(isDigit);
        if (index === '' || this.text[this.pos] !== ']') this.fail('"[" must be followed by an array index and "]", e.g. [0]', start);
        this.pos++;
        tokens.push(index);
      } else {
        this.trailing();
      }
    }
    return tokens;
  }

  private trailing(): never {
    return this.fail(`unexpected ${JSON.stringify(this.text[this.pos])} after "${this.text.slice(0, this.pos)}"`);
  }

  get position(): number {
    return this.pos;
  }

  private parseRoot(root: string): Expression {
    const source = this.text;
    if (this.dialect === '1.1') {
      if (root === 'self') return { kind: 'self', source };
      if (root === 'message') {
        this.dot();
        return { kind: 'message', source, selector: this.messageSelector() };
      }
    }
    const roots = this.dialect === '1.1' ? ROOTS_1_1 : ROOTS;
    switch (root) {
      case 'url':
      case 'method':
      case 'statusCode':
        return { kind: root, source };
      case 'request':
        this.dot();
        return { kind: 'request', source, selector: this.requestSelector() };
      case 'response':
        this.dot();
        return { kind: 'response', source, selector: this.responseSelector() };
      case 'inputs':
        this.dot();
        return { kind: 'inputs', source, name: this.name('an input name'), pointer: this.pointer(), alias: false };
      case 'workflow':
        this.dot();
        this.keyword(['inputs'], 'after "$workflow."');
        this.dot();
        return { kind: 'inputs', source, name: this.name('an input name'), pointer: this.pointer(), alias: true };
      case 'outputs':
        this.dot();
        return { kind: 'outputs', source, name: this.name('an output name'), pointer: this.pointer() };
      case 'steps':
        return this.step();
      case 'workflows':
        return this.workflow();
      case 'sourceDescriptions': {
        this.dot();
        const name = this.id('a source description name');
        this.dot();
        return { kind: 'sourceDescription', source, name, field: this.name('a field name') };
      }
      case 'components': {
        this.dot();
        const section = this.keyword(COMPONENT_SECTIONS, 'after "$components."');
        this.dot();
        return { kind: 'component', source, section, name: this.name('a component name'), pointer: this.pointer() };
      }
      case '':
        return this.fail(`"$" must be followed by an expression name: ${roots}`, 1);
      default:
        return this.fail(`unknown expression "$${root}": expected ${roots}`, 1);
    }
  }

  private step(): Expression {
    const source = this.text;
    this.dot();
    const stepId = this.take(isLooseIdChar, 'a step id');
    this.dot();
    const field = this.keyword(['outputs', 'response', 'request'], `after "$steps.${stepId}."`);
    this.dot();
    if (field === 'outputs') {
      return { kind: 'stepOutputs', source, stepId, name: this.name('an output name'), pointer: this.pointer() };
    }
    if (field === 'response') return { kind: 'stepResponse', source, stepId, selector: this.responseSelector() };
    return { kind: 'stepRequest', source, stepId, selector: this.requestSelector() };
  }

  private workflow(): Expression {
    this.dot();
    const workflowId = this.take(isLooseIdChar, 'a workflow id');
    this.dot();
    const field = this.keyword(['inputs', 'outputs'], `after "$workflows.${workflowId}."`);
    this.dot();
    const name = this.name(field === 'inputs' ? 'an input name' : 'an output name');
    return { kind: 'workflow', source: this.text, workflowId, field, name, pointer: this.pointer() };
  }

  private requestSelector(): RequestSelector {
    const part = this.keyword(['header', 'query', 'path', 'body'], 'in a request reference');
    if (part === 'body') return { part, pointer: this.pointer() };
    this.dot();
    if (part === 'header') return { part, name: this.headerName() };
    return { part, name: this.take(isParamNameChar, `a ${part} parameter name`) };
  }

  private responseSelector(): ResponseSelector {
    const part = this.keyword(['header', 'body', 'statusCode'], 'in a response reference');
    if (part === 'statusCode') return { part };
    if (part === 'body') return { part, pointer: this.pointer() };
    this.dot();
    return { part, name: this.headerName() };
  }

  /**
   * `header.<token>` or `payload[#ptr]`. The 1.1 text's own examples write `payload.orderId`: read
   * as `payload#/orderId` (`dotted`, which validation warns of).
   */
  private messageSelector(): MessageSelector {
    const part = this.keyword(['header', 'payload'], 'in a message reference');
    if (part === 'header') {
      this.dot();
      return { part, name: this.headerName() };
    }
    if (this.text[this.pos] !== '.') return { part, pointer: this.pointer(), dotted: false };
    const pointer: string[] = [];
    while (this.text[this.pos] === '.') {
      this.pos++;
      pointer.push(this.take(isIdChar, 'a payload property name'));
    }
    return { part, pointer, dotted: true };
  }

  private headerName(): string {
    return this.take(isTchar, 'a header name');
  }
  private id(what: string): string {
    return this.take(isIdChar, what);
  }
  private name(what: string): string {
    return this.take(isNameChar, what);
  }

  /** An optional `#<json-pointer>` running to the end of the expression. */
  private pointer(): string[] {
    if (this.text[this.pos] !== '#') return [];
    const start = this.pos + 1;
    this.pos = this.text.length;
    try {
      return parsePointer(this.text.slice(start));
    } catch (error) {
      if (error instanceof PointerSyntaxError) this.fail(error.message, start + error.offset);
      throw error;
    }
  }

  private keyword<T extends string>(allowed: readonly T[], where: string): T {
    const at = this.pos;
    const word = this.word();
    const match = allowed.find((candidate) => candidate === word);
    if (match === undefined) {
      const got = word === '' ? this.found() : `, found "${word}"`;
      this.fail(`expected ${oneOf(allowed)} ${where}${got}`, at);
    }
    return match;
  }

  private word(): string {
    return this.takeWhile(isLetter);
  }

  private take(accept: (c: number) => boolean, what: string): string {
    const value = this.takeWhile(accept);
    if (value === '') this.fail(`expected ${what} after "${this.text.slice(0, this.pos)}"${this.found()}`);
    return value;
  }

  private takeWhile(accept: (c: number) => boolean): string {
    const start = this.pos;
    while (this.pos < this.text.length && accept(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos);
  }

  private dot(): void {
    if (this.text[this.pos] !== '.') this.fail(`expected "." after "${this.text.slice(0, this.pos)}"${this.found()}`);
    this.pos++;
  }

  private found(): string {
    return this.pos < this.text.length ? `, found ${JSON.stringify(this.text[this.pos])}` : ', but the expression ends';
  }

  private fail(message: string, at: number = this.pos): never {
    throw new ExpressionSyntaxError(message, this.text, at);
  }
}

/**
 * Parses one runtime expression (the whole string) in a dialect: `1.0` (the default) or `1.1`,
 * which adds `$message.…` and `$self`. Throws ExpressionSyntaxError.
 */
export function parseExpression(source: string, dialect: ExpressionDialect = '1.0'): Expression {
  const memo = dialect === '1.1' ? parsedExpressions11 : parsedExpressions;
  let parsed = memo.get(source);
  if (parsed === undefined) {
    parsed = deepFreeze(new ExpressionParser(source, dialect).parse());
    if (memo.size < MEMO_LIMIT) memo.set(source, parsed);
  }
  return parsed;
}

/**
 * Syntax trees are read-only once parsed (frozen), so one tree serves every step that writes the
 * same expression: a 1000-step workflow writes `$response.body#/next` a thousand times.
 */
const parsedExpressions = new Map<string, Expression>();
const parsedExpressions11 = new Map<string, Expression>();
/** Distinct sources kept; past it, trees are parsed and not kept (a document of generated expressions). */
export const MEMO_LIMIT = 4096;

/** Freezes a syntax tree (plain objects and arrays) in place and returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Keys and an index: the parser's first trees are frozen by unoptimised code, where an iterator step is an object.
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) deepFreeze((value as Record<string, unknown>)[keys[i]!]);
  }
  return value;
}

/**
 * Parses an expression followed by Arazzo's `.` (property) and `[]` (index) operators, as a
 * condition may write them: `$response.body.data[0].id` is `$response.body` and the accessor
 * tokens `data`, `0`, `id` (applied like JSON pointer tokens). Throws ExpressionSyntaxError.
 */
export function parseExpressionWithAccessors(source: string, dialect: ExpressionDialect = '1.0'): { expression: Expression; access: string[] } {
  const parser = new ExpressionParser(source, dialect);
  const expression = parser.parsePrefix();
  const end = parser.position;
  if (end === source.length) return { expression, access: [] };
  const access = parser.accessors();
  expression.source = source.slice(0, end);
  return { expression, access };
}
