/** Finding where a JSON text stops being JSON, for an error a user can act on. */

export interface JsonSyntaxProblem {
  /** Offset (0-based, in UTF-16 code units) of the first offending character. */
  offset: number;
  /** What was expected there, in words. */
  message: string;
}

/**
 * The first syntax error of `text` as JSON (RFC 8259), or undefined when it is valid. V8's own
 * messages omit the position in some cases, so the text is scanned again here.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  let at = 0;
  const fail = (message: string): never => {
    throw new SyntaxStop(at, message);
  };
  const describe = (): string => (at >= text.length ? 'the end of the file' : JSON.stringify(text[at]));
  const space = (): void => {
    while (at < text.length && ' \t\n\r'.includes(text[at] as string)) at++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, at)) at += word.length;
    else fail(`unexpected ${describe()}; expected a value`);
  };
  const string = (): void => {
    at++;
    for (;;) {
      const ch = text[at];
      if (ch === undefined) fail('unterminated string');
      if (ch === '"') break;
      if (ch === '\\') {
        at++;
        const esc = text[at];
        if (esc === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail('bad \\u escape (four hex digits expected)');
          at += 4;
        } else if (esc === undefined || !'"\\/bfnrt'.includes(esc)) fail('bad escape in a string');
      } else if ((ch as string).charCodeAt(0) < 0x20) fail('a control character (e.g. a line break) inside a string');
      at++;
    }
    at++;
  };
  const number = (): void => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at));
    if (match === null) fail(`unexpected ${describe()}; expected a value`);
    at += (match as RegExpExecArray)[0].length;
  };
  const value = (): void => {
    space();
    const ch = text[at];
    if (ch === '{') object();
    else if (ch === '[') array();
    else if (ch === '"') string();
    else if (ch === 't') literal('true');
    else if (ch === 'f') literal('false');
    else if (ch === 'n') literal('null');
    else if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) number();
    else fail(`unexpected ${describe()}; expected a value`);
  };
  const object = (): void => {
    at++;
    space();
    if (text[at] === '}') {
      at++;
      return;
    }
    for (;;) {
      space();
      if (text[at] !== '"') fail(`unexpected ${describe()}; expected a "quoted" property name`);
      string();
      space();
      if (text[at] !== ':') fail(`unexpected ${describe()}; expected ':' after the property name`);
      at++;
      value();
      space();
      if (text[at] === '}') break;
      if (text[at] !== ',') fail(`unexpected ${describe()}; expected ',' or '}'`);
      at++;
    }
    at++;
  };
  const array = (): void => {
    at++;
    space();
    if (text[at] === ']') {
      at++;
      return;
    }
    for (;;) {
      value();
      space();
      if (text[at] === ']') break;
      if (text[at] !== ',') fail(`unexpected ${describe()}; expected ',' or ']'`);
      at++;
    }
    at++;
  };
  try {
    value();
    space();
    if (at < text.length) fail(`unexpected ${describe()} after the end of the JSON value`);
    return undefined;
  } catch (problem) {
    if (problem instanceof SyntaxStop) return { offset: problem.offset, message: problem.message };
    // Only a stack overflow gets here: nesting thousands deep is not a configuration file.
    return { offset: at, message: 'nesting too deep' };
  }
}

/** Unwinds the scanner at the first problem; never escapes findJsonSyntaxError. */
class SyntaxStop {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

/** 1-based line and column of `offset` in `text`. */
export function lineColAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: offset - lineStart + 1 };
}
