/** Structural checks on the raw value: version, required fields, JSON types, unknown fields. */
import { unescapePointerToken } from '../expressions/json-pointer.js';
import type { Report } from './finding.js';
import { childPointer, isObject, type RawObject } from './read-fields.js';
import type { FeatureSet } from './runner-profile.js';
import { REFERENCE_FIELDS, SHAPES, SHAPES_1_1, type Descend, type FieldType, type Shape, type ShapeName } from './structure-schema.js';
import { didYouMean } from './suggest.js';

const SUPPORTED_VERSION: Record<FeatureSet, RegExp> = { '1.0': /^1\.0\.\d+$/, '1.1': /^1\.[01]\.\d+$/ };
const IS_1_1 = /^1\.1\.\d+$/;
const CRITERION_TYPES_TEXT = 'a string (simple, regex, jsonpath, xpath) or an object with type and version, both strings';

/**
 * Reports the `arazzo` version, missing and wrongly typed fields, and unknown fields, for the whole
 * document. A profile of the 1.1 feature set reads 1.0.x and 1.1.x documents, a 1.1.x one with 1.1's fields.
 */
export function checkStructure(raw: unknown, report: Report, featureSet: FeatureSet = '1.0'): void {
  if (!isObject(raw)) return;
  checkVersion(raw, report, featureSet);
  checkNoWorkflows(raw, report);
  const shapes = featureSet === '1.1' && typeof raw.arazzo === 'string' && IS_1_1.test(raw.arazzo) ? SHAPES_1_1 : SHAPES;
  checkObject(raw, '', 'document', report, shapes);
}

function checkVersion(raw: RawObject, report: Report, featureSet: FeatureSet): void {
  const version = raw.arazzo;
  const reads = featureSet === '1.1' ? 'Arazzo 1.0.x and 1.1.x' : 'Arazzo 1.0.x';
  if (version === undefined || version === null) return; // reported as MISSING_FIELD
  if (typeof version !== 'string') {
    report.error('UNSUPPORTED_VERSION', '/arazzo', `arazzo must be a quoted version string such as "1.0.1", found ${describe(version)}; this runner reads ${reads}`);
  } else if (!SUPPORTED_VERSION[featureSet].test(version)) {
    report.error('UNSUPPORTED_VERSION', '/arazzo', `arazzo version "${version}" is not supported; this runner reads ${reads} (e.g. "1.0.1"${featureSet === '1.1' ? ', "1.1.0"' : ''})`);
  }
}

// The spec's own row: a document without workflows is invalid. It gets its own code, not MISSING_FIELD.
function checkNoWorkflows(raw: RawObject, report: Report): void {
  const workflows = raw.workflows;
  if (workflows === undefined || workflows === null || (Array.isArray(workflows) && workflows.length === 0)) {
    report.error('NO_WORKFLOWS', workflows === undefined ? '' : '/workflows', 'the document declares no workflows; add at least one under "workflows"');
  }
}

function checkObject(o: RawObject, pointer: string, shapeName: ShapeName, report: Report, shapes: Record<ShapeName, Shape>): void {
  const isReference = (shapeName === 'parameter' || shapeName === 'action') && 'reference' in o;
  const shape = shapes[shapeName];
  const fields = isReference ? REFERENCE_FIELDS : shape.fields;
  const required = isReference ? ['reference'] : shape.required;

  for (let i = 0; i < required.length; i++) {
    const name = required[i]!;
    if (o[name] === undefined || o[name] === null) report.error('MISSING_FIELD', pointer, `${pointer === '' ? 'the document' : readablePath(pointer)} has no "${name}" (required)`);
  }
  // Pointers and messages are built only for what is reported or descended into: a 1000-step
  // document has some 20 000 fields, nearly all of them fine.
  // Keys and an index, not entries: in a fresh process this runs unoptimised, where each entry and
  // each iterator step is an object (~3 KB per step of a large document).
  const names = Object.keys(o);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const value = o[name];
    const type = Object.hasOwn(fields, name) ? fields[name] : undefined;
    if (type === undefined) {
      if (!name.startsWith('x-')) {
        report.warning('UNKNOWN_FIELD', childPointer(pointer, name), `unknown field "${name}" is ignored${didYouMean(name, Object.keys(fields))}`);
      }
      continue;
    }
    if (value === null || value === undefined || !hasType(value, type)) {
      if (value !== null && value !== undefined) report.error('INVALID_TYPE', childPointer(pointer, name), `"${name}" must be ${typeText(type)}, found ${describe(value)}`);
      continue;
    }
    const descend = isReference ? undefined : shape.children?.[name];
    if (descend) checkChildren(value, childPointer(pointer, name), name, descend, report, shapes);
  }
  if (shapeName === 'workflow' || shapeName === 'document') checkNotEmpty(o, pointer, report);
}

function checkChildren(value: unknown, pointer: string, name: string, descend: Descend, report: Report, shapes: Record<ShapeName, Shape>): void {
  if ('object' in descend) {
    checkObject(value as RawObject, pointer, descend.object, report, shapes);
    return;
  }
  const list = Array.isArray(value) ? (value as unknown[]) : undefined;
  const keys = list === undefined ? Object.keys(value as RawObject) : undefined;
  const count = list?.length ?? keys!.length;
  for (let i = 0; i < count; i++) {
    const key = keys === undefined ? String(i) : keys[i]!;
    const item = list === undefined ? (value as RawObject)[key] : list[i];
    if ('stringValues' in descend || 'stringItems' in descend || 'outputValues' in descend) {
      if (name === 'outputs' && !OUTPUT_NAME.test(key)) {
        report.error('INVALID_OUTPUT_NAME', childPointer(pointer, key), `output name ${JSON.stringify(key)} has characters other than letters, digits, ".", "-" and "_"; rename it (Arazzo: ^[a-zA-Z0-9.\-_]+$)`);
      }
      // Arazzo 1.1: an output is an expression or a Selector Object.
      if ('outputValues' in descend && isObject(item)) checkObject(item, childPointer(pointer, key), 'selector', report, shapes);
      else if (typeof item !== 'string') report.error('INVALID_TYPE', childPointer(pointer, key), `${name} entries must be ${'outputValues' in descend ? 'expressions or selector objects' : 'strings'}, found ${describe(item)}`);
    } else if (!isObject(item)) {
      report.error('INVALID_TYPE', childPointer(pointer, key), `${name} entries must be mappings, found ${describe(item)}`);
    } else {
      checkObject(item, childPointer(pointer, key), 'each' in descend ? descend.each : descend.values, report, shapes);
    }
  }
}

/** What Arazzo allows as an output's name (the key of `outputs`). */
const OUTPUT_NAME = /^[a-zA-Z0-9.\-_]+$/;

function checkNotEmpty(o: RawObject, pointer: string, report: Report): void {
  if (pointer === '' && Array.isArray(o.sourceDescriptions) && o.sourceDescriptions.length === 0) {
    report.error('NO_SOURCES', '/sourceDescriptions', 'sourceDescriptions is empty; add the OpenAPI description the steps call');
  }
  if (pointer !== '' && Array.isArray(o.steps) && o.steps.length === 0) {
    report.error('NO_STEPS', childPointer(pointer, 'steps'), 'the workflow has no steps; add at least one');
  }
}

function hasType(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'criterionType':
      // An expression type object's version is one of the names Arazzo lists (a string).
      return typeof value === 'string' || (isObject(value) && typeof value.type === 'string' && (value.version === undefined || typeof value.version === 'string'));
    default:
      return typeof value === type;
  }
}

function typeText(type: FieldType): string {
  if (type === 'criterionType') return CRITERION_TYPES_TEXT;
  if (type === 'object') return 'a mapping';
  if (type === 'array') return 'a list';
  return `a ${type}`;
}

// `/workflows/1/steps/0` -> `workflows[1].steps[0]`, the way people say it.
function readablePath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map(unescapePointerToken)
    .reduce((path, token) => (/^\d+$/.test(token) ? `${path}[${token}]` : path === '' ? token : `${path}.${token}`), '');
}

/** The JSON type of a raw value, for messages ("a list", "the number 3"). */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}
