import type { Style } from '../output/style.js';
import { stripControls } from '../output/printable.js';
import type { Finding, FindingCode } from './finding.js';
import type { LoadedDocument } from './model.js';
import { DEFAULT_PROFILE, type RunnerProfile } from './runner-profile.js';

/** One finding as a compiler-style line: `file:line:col severity CODE message` (severity coloured by `style`). */
export function formatFinding(finding: Finding, file: string, style: Style): string {
  const where = finding.line === undefined ? file : `${file}:${finding.line}:${finding.col ?? 1}`;
  const severity = finding.severity === 'error' ? style.red('error') : style.yellow('warning');
  // Messages quote the document and its descriptions, which may come from anywhere: no escape sequences.
  return `${where} ${severity} ${finding.code} ${stripControls(finding.message)}`;
}

// What a user loses at runtime for each warning, for the summary line.
const CONSEQUENCES: Partial<Record<FindingCode, string>> = {
  OPERATION_PATH_UNSUPPORTED: 'operationPath steps fail at runtime',
  NESTED_WORKFLOW_UNSUPPORTED: 'nested workflow steps fail at runtime',
  SUCCESS_CRITERION_SKIPPED: 'regex/jsonpath/xpath success criteria are skipped',
  UNSUPPORTED_SOURCE_TYPE: 'steps calling Arazzo sources fail at runtime',
  FORWARD_STEP_REFERENCE: 'some expressions read steps that may not have run yet',
  EXPRESSION_KEPT_LITERAL: 'some $ strings in payloads are sent as written',
  UNKNOWN_FIELD: 'unknown fields are ignored',
  DEPENDS_ON_UNSUPPORTED: 'workflows with dependsOn are not run',
  REPLACEMENTS_UNSUPPORTED: 'steps with requestBody.replacements fail before sending',
  RETRY_TARGET_UNSUPPORTED: 'retry actions with a target fail when dispatched',
  CROSS_WORKFLOW_GOTO: 'goto actions to other workflows fail when dispatched',
  ACTION_NOT_SUPPORTED: 'replay actions fail when dispatched',
  UNSUPPORTED_ACTION_CRITERION: 'regex/jsonpath/xpath action criteria fail when dispatched',
  CRITERION_CONTEXT_UNSUPPORTED: 'criteria with a context fail when evaluated',
  SOURCE_NOT_CHECKED: 'some sources could not be read, so their operations were not checked',
  UNKNOWN_PARAMETER: 'some parameters are not declared by their operation',
};

/** The closing line of `arazzo validate`: the verdict, with counts and what warnings mean at runtime. With `strict`, warnings fail too. */
export function formatSummary(doc: LoadedDocument, findings: readonly Finding[], options: { strict?: boolean; profile?: RunnerProfile } = {}): string {
  const runner = (options.profile ?? DEFAULT_PROFILE).name;
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  if (errors > 0) {
    const also = warnings > 0 ? `, ${plural(warnings, 'warning')}` : '';
    return `${doc.file}: ${plural(errors, 'error')}${also}; the document is not valid for the ${runner} runner`;
  }
  if (options.strict && warnings > 0) return `${doc.file}: ${plural(warnings, 'warning')}; not valid with --strict, which makes warnings fail`;
  const version = doc.model.arazzo ?? '1.0';
  const counts = `${plural(doc.model.workflows.length, 'workflow')}, ${plural(doc.model.sourceDescriptions.length, 'source')}`;
  if (warnings === 0) return `${doc.file}: valid Arazzo ${version} — ${counts}; all features are supported by the ${runner} runner`;
  const consequences = [...new Set(findings.map((f) => CONSEQUENCES[f.code]).filter((text): text is string => text !== undefined))];
  const detail = consequences.length > 0 ? `: ${consequences.join('; ')}` : '';
  return `${doc.file}: valid Arazzo ${version} — ${counts}; ${plural(warnings, 'warning')}${detail}`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
