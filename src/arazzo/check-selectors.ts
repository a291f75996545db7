/**
 * Arazzo 1.1 validation of Selector Objects, Expression Type Objects, the `jsonpointer` criterion
 * type, replacement `targetSelectorType`s and `$message.payload.<name>` (the 1.1 text's own
 * shorthand). Run only for 1.1 documents (validate-document.ts); json-p3 and fontoxpath are loaded
 * only when a selector or target of their type is there to check.
 */
import { someNode } from '../expressions/some-node.js';
import type { CriterionLibraries } from '../expressions/criterion-libraries.js';
import { checkWithPlaceholders, embeddedIn } from '../expressions/embedded-condition.js';
import { ExpressionSyntaxError } from '../expressions/errors.js';
import { parsePointer } from '../expressions/json-pointer.js';
import { compileJsonPath, GOESSNER_VERSION } from '../expressions/jsonpath-criterion.js';
import { parseExpression } from '../expressions/parse-expression.js';
import { expressionTypeProblem, libraryVersion, readSelectorObject } from '../expressions/selector-object.js';
import { checkXPath } from '../expressions/xpath-criterion.js';
import { codeSpan } from '../output/code-span.js';
import { allCriteria } from './all-criteria.js';
import { allSelectors } from './all-selectors.js';
import type { Report } from './finding.js';
import type { ArazzoDocument } from './model.js';
import { childPointer } from './read-fields.js';

/** What a selector, criterion or target compiles with: its type, version and text. */
interface Compilable {
  type: string;
  version?: string;
  text: string;
}

/** Adds the 1.1 findings of selectors, expression types, jsonpointer criteria, typed replacement targets and `$message.payload.x`. */
export async function checkSelectors(doc: ArazzoDocument, raw: unknown, report: Report): Promise<void> {
  const checks: Array<{ item: Compilable; pointer: string; problem: (message: string) => void }> = [];

  for (const { value, pointer, output } of allSelectors(doc)) {
    const read = readSelectorObject(value);
    if ('problem' in read) {
      if (!output) report.error('INVALID_SELECTOR', pointer, `this mapping has the keys of a selector object (context, selector, type), but ${read.problem}`);
      continue;
    }
    try {
      parseExpression(read.context.trim(), '1.1');
    } catch (error) {
      if (!(error instanceof ExpressionSyntaxError)) throw error;
      report.error('INVALID_SELECTOR', childPointer(pointer, 'context'), `selector context "${read.context}" is not a valid runtime expression: ${error.message}`);
    }
    if (!typeAllowed(read.type, read.version, childPointer(pointer, 'type'), 'selector', report)) continue;
    checks.push({
      item: { type: read.type, ...(read.version === undefined ? {} : { version: read.version }), text: read.selector },
      pointer: childPointer(pointer, 'selector'),
      problem: (message) => report.error('INVALID_SELECTOR', childPointer(pointer, 'selector'), `${read.type} selector ${codeSpan(read.selector)} does not compile: ${message}`),
    });
  }

  for (const criterion of allCriteria(doc)) {
    if (!['jsonpath', 'xpath', 'jsonpointer'].includes(criterion.type)) continue;
    const typePointer = childPointer(criterion.pointer, 'type');
    if (!typeAllowed(criterion.type, criterion.version, typePointer, 'criterion', report)) continue;
    if (criterion.type !== 'jsonpointer') continue; // check-v2.ts compiles jsonpath and xpath criteria
    if (criterion.context === undefined || criterion.context.trim() === '') {
      report.warning('MISSING_CRITERION_CONTEXT', criterion.pointer, 'a jsonpointer criterion needs a context (Arazzo: MUST); without one it never holds. Add e.g. context: $response.body');
    } else {
      try {
        parseExpression(criterion.context.trim(), '1.1');
      } catch (error) {
        if (!(error instanceof ExpressionSyntaxError)) throw error;
        report.error('EXPRESSION_SYNTAX', childPointer(criterion.pointer, 'context'), `"${criterion.context}" is not a valid runtime expression: ${error.message}`);
      }
    }
    const condition = criterion.condition ?? '';
    checks.push({
      item: { type: 'jsonpointer', text: condition },
      pointer: childPointer(criterion.pointer, 'condition'),
      problem: (message) => report.error('CRITERION_SYNTAX', childPointer(criterion.pointer, 'condition'), `jsonpointer criterion ${codeSpan(condition)} does not compile: ${message}`),
    });
  }

  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      for (const replacement of step.requestBody?.replacements ?? []) {
        const type = replacement.targetSelectorType;
        if (type === undefined || replacement.target === undefined) continue;
        if (!typeAllowed(type, replacement.targetSelectorVersion, childPointer(replacement.pointer, 'targetSelectorType'), 'targetSelectorType', report)) continue;
        const target = replacement.target;
        checks.push({
          item: { type, ...(replacement.targetSelectorVersion === undefined ? {} : { version: replacement.targetSelectorVersion }), text: target },
          pointer: childPointer(replacement.pointer, 'target'),
          problem: (message) => report.error('REPLACEMENT_TARGET_SYNTAX', childPointer(replacement.pointer, 'target'), `step "${step.stepId ?? ''}": replacement target ${JSON.stringify(target)} is not a valid ${type} expression: ${message}`),
        });
      }
    }
  }

  const libraries = await librariesFor(checks.map((check) => check.item.type));
  for (const { item, problem } of checks) {
    const compile = compilerFor(item, libraries);
    try {
      const embedded = embeddedIn(item.text, '1.1');
      if (embedded === undefined) compile(item.text);
      else checkWithPlaceholders(embedded, compile);
    } catch (error) {
      problem((error as Error).message.split('\n').filter((line) => line.trim() !== '').slice(0, 2).join(' '));
    }
  }

  for (const { pointer, source, name } of dottedMessagePayloads(raw)) {
    report.warning('MESSAGE_PAYLOAD_PATH', pointer, `${codeSpan(source)} is read as ${codeSpan(`$message.payload#/${name.replaceAll('~', '~0').replaceAll('.', '/')}`)}: the 1.1 grammar reaches into a payload with a JSON pointer; write it that way`);
  }
}

/** Reports a type or version Arazzo 1.1 does not allow (an error), or one tool evaluates by another version (a warning); whether the item can be compiled. */
function typeAllowed(type: string, version: string | undefined, pointer: string, what: 'selector' | 'criterion' | 'targetSelectorType', report: Report): boolean {
  const problem = expressionTypeProblem(type, version);
  if (problem !== undefined) {
    report.error('INVALID_EXPRESSION_TYPE', pointer, `${what} ${problem}`);
    return false;
  }
  const asked = libraryVersion(type, version);
  if (asked === GOESSNER_VERSION) {
    report.warning('EXPRESSION_VERSION_APPROXIMATED', pointer, `${GOESSNER_VERSION} is evaluated by json-p3's non-standard mode, close to but not exactly Goessner's JSONPath; script expressions [(…)] are refused`);
  } else if (type === 'xpath' && asked !== undefined) {
    report.warning('EXPRESSION_VERSION_APPROXIMATED', pointer, `${asked} is evaluated as XPath 3.1 (fontoxpath implements 3.1 only); an expression whose 1.0 or 2.0 meaning differs (a node-set compared to a string, the effective boolean value of a sequence) may answer differently`);
  }
  return true;
}

async function librariesFor(types: readonly string[]): Promise<CriterionLibraries> {
  const wanted = types.filter((type) => type === 'jsonpath' || type === 'xpath');
  if (wanted.length === 0) return {};
  const { loadCriterionLibraries } = await import('../expressions/criterion-libraries.js');
  return loadCriterionLibraries(wanted);
}

function compilerFor(item: Compilable, libraries: CriterionLibraries): (text: string) => unknown {
  const version = libraryVersion(item.type, item.version);
  if (item.type === 'jsonpath') return (text) => compileJsonPath(libraries.jsonpath!, text, version);
  if (item.type === 'xpath') return (text) => checkXPath(libraries.xpath!, text, version);
  return parsePointer;
}

const DOTTED_PAYLOAD = /\$message\.payload\.([A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*)/g;

/** Every `$message.payload.<a>.<b>` written in a string of the document, with the pointer of the string. */
function dottedMessagePayloads(raw: unknown): Array<{ pointer: string; source: string; name: string }> {
  // Nearly every document has none: a first pass without pointers (a string per node) says so cheaply.
  if (!someNode(raw, (node) => typeof node === 'string' && node.includes('$message.payload.'))) return [];
  const found: Array<{ pointer: string; source: string; name: string }> = [];
  const seen = new Set<object>();
  const pending: Array<[unknown, string]> = [[raw, '']];
  while (pending.length > 0) {
    const [value, pointer] = pending.pop()!;
    if (typeof value === 'string') {
      if (value.includes('$message.payload.')) for (const match of value.matchAll(DOTTED_PAYLOAD)) found.push({ pointer, source: match[0], name: match[1]! });
    } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      if (Array.isArray(value)) value.forEach((item, i) => pending.push([item, childPointer(pointer, i)]));
      else for (const [key, item] of Object.entries(value)) pending.push([item, childPointer(pointer, key)]);
    }
  }
  return found.reverse();
}
