import type { Position } from './model.js';

/** Every code `validateDocument` reports; docs/cli.md has the table of what each means. */
export type FindingCode =
  | 'UNSUPPORTED_VERSION'
  | 'MISSING_FIELD'
  | 'INVALID_TYPE'
  | 'UNKNOWN_FIELD'
  | 'NO_WORKFLOWS'
  | 'NO_STEPS'
  | 'NO_SOURCES'
  | 'DUPLICATE_WORKFLOW_ID'
  | 'DUPLICATE_STEP_ID'
  | 'UNUSUAL_ID'
  | 'INVALID_OUTPUT_NAME'
  | 'DUPLICATE_SOURCE_NAME'
  | 'INVALID_SOURCE_TYPE'
  | 'UNSUPPORTED_SOURCE_TYPE'
  | 'UNKNOWN_WORKFLOW'
  | 'DEPENDS_ON_UNSUPPORTED'
  | 'STEP_WITHOUT_OPERATION'
  | 'STEP_OPERATION_CONFLICT'
  | 'OPERATION_PATH_UNSUPPORTED'
  | 'OPERATION_PATH_SYNTAX'
  | 'NESTED_WORKFLOW_UNSUPPORTED'
  | 'OPERATION_NOT_FOUND'
  | 'AMBIGUOUS_OPERATION_ID'
  | 'SOURCE_NOT_CHECKED'
  | 'UNKNOWN_SOURCE'
  | 'MISSING_PATH_PARAMETER'
  | 'UNKNOWN_PARAMETER'
  | 'INVALID_PARAMETER_LOCATION'
  | 'INVALID_REFERENCE'
  | 'UNKNOWN_COMPONENT'
  | 'REFERENCE_KIND_MISMATCH'
  | 'UNKNOWN_ACTION_TYPE'
  | 'ACTION_NOT_SUPPORTED'
  | 'RETRY_IN_SUCCESS_CHAIN'
  | 'MISSING_GOTO_TARGET'
  | 'UNKNOWN_GOTO_STEP'
  | 'CROSS_WORKFLOW_GOTO'
  | 'RETRY_TARGET_UNSUPPORTED'
  | 'ACTION_TARGET_CONFLICT'
  | 'INVALID_RETRY_LIMIT'
  | 'INVALID_RETRY_AFTER'
  | 'UNKNOWN_CRITERION_TYPE'
  | 'SUCCESS_CRITERION_SKIPPED'
  | 'UNSUPPORTED_ACTION_CRITERION'
  | 'CRITERION_CONTEXT_UNSUPPORTED'
  | 'CRITERION_CONTEXT_IGNORED'
  | 'MISSING_CRITERION_CONTEXT'
  | 'CRITERION_SYNTAX'
  | 'NESTED_PARAMETER_IN'
  | 'NESTED_STEP_NO_RESPONSE'
  | 'DEPENDS_ON_CYCLE'
  | 'WORKFLOW_CALL_CYCLE'
  | 'CONDITION_SYNTAX'
  | 'EXPRESSION_SYNTAX'
  | 'EXPRESSION_KEPT_LITERAL'
  | 'PAYLOAD_CYCLE'
  | 'REPLACEMENTS_UNSUPPORTED'
  | 'REPLACEMENT_TARGET_SYNTAX'
  | 'RESPONSE_NOT_AVAILABLE'
  | 'UNKNOWN_STEP'
  | 'UNKNOWN_STEP_OUTPUT'
  | 'FORWARD_STEP_REFERENCE'
  | 'EMPTY_SUCCESS_CRITERIA'
  | 'INVALID_TIMEOUT'
  | 'QUERYSTRING_CONFLICT'
  | 'ACTION_PARAMETERS_WITHOUT_WORKFLOW'
  | 'ACTION_PARAMETER_IN'
  | 'STEP_DEPENDS_ON_CYCLE'
  | 'INVALID_ASYNC_STEP'
  | 'ASYNCAPI_INVALID'
  | 'UNSUPPORTED_PROTOCOL'
  | 'INVALID_SELECTOR'
  | 'INVALID_EXPRESSION_TYPE'
  | 'EXPRESSION_VERSION_APPROXIMATED'
  | 'MESSAGE_PAYLOAD_PATH';

export type Severity = 'error' | 'warning';

/** One problem found in a document, located by JSON pointer and (when known) line and column. */
export interface Finding {
  code: FindingCode;
  severity: Severity;
  message: string;
  pointer: string;
  line?: number;
  col?: number;
}

/** Collects findings for one document; checks call `error`/`warning` instead of throwing. Positions are added by `locateFindings`. */
export class Report {
  readonly findings: Finding[] = [];

  /** Adds a finding that makes the document invalid (exit 10). */
  error(code: FindingCode, pointer: string, message: string): void {
    this.findings.push({ code, severity: 'error', message, pointer });
  }

  /** Adds a finding about something the runner skips or fails on only when reached. */
  warning(code: FindingCode, pointer: string, message: string): void {
    this.findings.push({ code, severity: 'warning', message, pointer });
  }
}

/**
 * Sets each finding's line and col from `locate`, when it knows the pointer. Done once for the
 * findings a validation returns, so a clean document never needs the positions.
 */
export function locateFindings(findings: Finding[], locate: (pointer: string) => Position | undefined): Finding[] {
  for (const finding of findings) {
    const position = locate(finding.pointer);
    if (position) {
      finding.line = position.line;
      finding.col = position.col;
    }
  }
  return findings;
}

/** Findings in file order (line, then column); findings without a position come first. The sort is stable. */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return [...findings].sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0));
}
