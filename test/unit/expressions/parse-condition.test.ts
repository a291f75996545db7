import { describe, expect, it } from '@jest/globals';
import { ConditionSyntaxError } from '../../../src/expressions/errors.js';
import { expressionsIn } from '../../../src/expressions/expressions-in.js';
import { parseCondition } from '../../../src/expressions/parse-condition.js';
import type { Condition } from '../../../src/expressions/condition-ast.js';

/** The condition's shape as a compact string, to check grouping without spelling out whole ASTs. */
function shape(node: Condition): string {
  switch (node.kind) {
    case 'expression':
      return node.expression.source;
    case 'literal':
      return JSON.stringify(node.value);
    case 'not':
      return `!${shape(node.operand)}`;
    case 'compare':
      return `(${shape(node.left)} ${node.op} ${shape(node.right)})`;
    default:
      // A flat chain, shown grouped from the left as the operators associate.
      return node.operands.map(shape).reduce((left, right) => `(${left} ${node.kind === 'and' ? '&&' : '||'} ${right})`);
  }
}

function syntaxError(source: string): ConditionSyntaxError {
  try {
    parseCondition(source);
  } catch (error) {
    if (error instanceof ConditionSyntaxError) return error;
    throw error;
  }
  throw new Error(`expected ${source} not to parse`);
}

describe('parseCondition', () => {
  it.each(['==', '!=', '<', '<=', '>', '>='])('parses the %s operator with or without spaces', (op) => {
    expect(shape(parseCondition(`$statusCode ${op} 200`))).toBe(`($statusCode ${op} 200)`);
    expect(shape(parseCondition(`$statusCode${op}200`))).toBe(`($statusCode ${op} 200)`);
  });

  it.each<[string, unknown]>([
    ['200', 200],
    ['-1', -1],
    ['3.25', 3.25],
    ['-0.5', -0.5],
    ['1e3', 1000],
    ['true', true],
    ['false', false],
    ['null', null],
    ["'ok'", 'ok'],
    ['"ok"', 'ok'],
    ["''", ''],
    ["'it\\'s'", "it's"],
    ["'it''s'", "it's"],
    ['"say \\"hi\\""', 'say "hi"'],
    ['"a\\\\b\\n\\t\\u00e9\\/"', 'a\\b\n\té/'],
    ["'a == b && c'", 'a == b && c'],
  ])('reads the literal %s', (literal, value) => {
    const cond = parseCondition(`$inputs.x == ${literal}`);
    expect(cond).toMatchObject({ kind: 'compare', right: { kind: 'literal', value, source: literal } });
  });

  it('ends a pointer at whitespace, ")" or an operator', () => {
    expect(shape(parseCondition('$response.body#/a/b==1'))).toBe('($response.body#/a/b == 1)');
    expect(shape(parseCondition('($response.body#/ok)'))).toBe('$response.body#/ok');
    expect(shape(parseCondition('$response.body#/a!=$response.body#/b'))).toBe('($response.body#/a != $response.body#/b)');
  });

  it('binds ! tighter than comparison, comparison tighter than &&, && tighter than ||', () => {
    expect(shape(parseCondition('$inputs.a || $inputs.b && $inputs.c'))).toBe('($inputs.a || ($inputs.b && $inputs.c))');
    expect(shape(parseCondition('$inputs.a && $inputs.b || $inputs.c'))).toBe('(($inputs.a && $inputs.b) || $inputs.c)');
    expect(shape(parseCondition('$statusCode == 200 && $inputs.b != 1'))).toBe('(($statusCode == 200) && ($inputs.b != 1))');
    expect(shape(parseCondition('!$inputs.a == true'))).toBe('(!$inputs.a == true)');
    expect(shape(parseCondition('!!$inputs.a'))).toBe('!!$inputs.a');
  });

  it('lets parentheses override precedence', () => {
    expect(shape(parseCondition('($inputs.a || $inputs.b) && $inputs.c'))).toBe('(($inputs.a || $inputs.b) && $inputs.c)');
    expect(shape(parseCondition('!($statusCode == 200)'))).toBe('!($statusCode == 200)');
  });

  it('records each node source and offset', () => {
    const cond = parseCondition('  $statusCode == 200 || $inputs.y');
    expect(cond).toMatchObject({ kind: 'or', offset: 2, source: '$statusCode == 200 || $inputs.y' });
    expect(cond).toMatchObject({ operands: [{ source: '$statusCode == 200', offset: 2 }, { source: '$inputs.y', offset: 24 }] });
  });

  it.each<[string, number, string]>([
    ['', 0, 'the condition is empty'],
    ['   ', 0, 'the condition is empty'],
    ['$statusCode == OK', 15, '"OK" is not a value: write a quoted string (\'OK\')'],
    ['$statusCode == ok-go', 15, '"ok-go" is not a value'],
    ['$statusCode = 200', 12, 'use "==" to compare'],
    ['$statusCode == 200 & $url', 19, 'use "&&"'],
    ['$statusCode == 200 | $url', 19, 'use "||"'],
    ['$statusCode == 200 == 1', 19, 'comparisons cannot be chained'],
    ['$statusCode == 200 $url', 19, 'after a complete condition'],
    ['($statusCode == 200', 19, 'closing the "("'],
    ['$statusCode == 200)', 18, 'unexpected ")"'],
    ['$statusCode ==', 14, 'the condition ends where a value was expected'],
    ['== 1', 0, 'where a value was expected'],
    ["$inputs.a == 'abc", 13, 'unterminated string'],
    ["$inputs.a == 'a\\qb'", 15, 'unknown escape'],
    ["$inputs.a == '\\u12'", 14, 'four hex digits'],
    ['$inputs.a == 200abc', 13, 'invalid number "200abc"'],
    ['$inputs.a == 1.', 13, 'invalid number'],
    ['$inputs.a == -x', 13, '"-" must be followed by a number'],
    ['$inputs.a == #', 13, 'unexpected character "#"'],
    ['$statsCode == 200', 1, 'unknown expression "$statsCode"'],
    ['$response.body#nope == 1', 15, 'must be empty or start with "/"'],
    ['$[?count(@.products) > 0]', 1, 'must be followed by an expression name'],
  ])('rejects %j at offset %d', (source, offset, message) => {
    const error = syntaxError(source);
    expect(error.code).toBe('CONDITION_SYNTAX');
    expect(error.source).toBe(source);
    expect(error.offset).toBe(offset);
    expect(error.message).toContain(message);
  });

  it('rejects absurdly deep nesting with a syntax error instead of overflowing the stack', () => {
    expect(syntaxError(`${'('.repeat(5000)}$url${')'.repeat(5000)}`).message).toContain('nests deeper');
    expect(syntaxError(`${'!'.repeat(5000)}$url`).message).toContain('nests deeper');
  });
});

describe('expressionsIn', () => {
  it('lists every expression of a condition in source order', () => {
    const cond = parseCondition("!($steps.a.outputs.x == 1) || $inputs.y > 2 && $response.header.Z != 'z'");
    expect(expressionsIn(cond).map((e) => e.source)).toEqual(['$steps.a.outputs.x', '$inputs.y', '$response.header.Z']);
  });

  it('lists nothing for a condition of literals', () => {
    expect(expressionsIn(parseCondition('1 < 2'))).toEqual([]);
  });
});
