/**
 * The `--junit` file of `arazzo test` and `merge-reports`: a `<testsuite>` per document, a
 * `<testcase>` per run (a run that passed after retries its workflow absorbed is a pass), each on
 * one line so that merge-reports can read shards' files back a line at a time. Pure: runs in, XML
 * text out, every value stripped of control characters and escaped. junit-assembly.ts writes it.
 */
import { stripControls } from '../../output/printable.js';
import { xmlAttr } from '../../output/xml-text.js';

/** A run as the summary, the results file and the suite report give it (resultRecord's fields). */
export interface RunLine {
  file: string;
  workflowId?: string | null | undefined;
  row?: number | undefined;
  iteration?: number | undefined;
  status: 'passed' | 'failed' | 'skipped';
  durationMs: number;
  failure?: { workflowId?: string | undefined; stepId?: string | undefined; code: string; message: string } | undefined;
  reason?: string | undefined;
}

/** The counts of a `<testsuite>` (or of the whole file). */
export interface CaseCounts {
  tests: number;
  failures: number;
  skipped: number;
  /** Seconds. */
  time: number;
}

/** The name of the `<testsuites>` element: merge-reports reads only files that carry it. */
export const JUNIT_NAME = 'tool arazzo test';

/** `workflowId`, `workflowId [row 3]`, `workflowId [row 3] #2` (the pass of a --repeat run). */
export function testcaseName(run: Pick<RunLine, 'workflowId' | 'row' | 'iteration'>): string {
  const row = run.row !== undefined ? ` [row ${run.row}]` : '';
  const pass = run.iteration !== undefined ? ` #${run.iteration}` : '';
  return `${run.workflowId ?? '(document)'}${row}${pass}`;
}

/** The `<testcase>` of a run, on one line. */
export function testcaseXml(run: RunLine): string {
  const open = `<testcase name="${attr(testcaseName(run))}" classname="${attr(run.file)}" time="${seconds(run.durationMs / 1000)}"`;
  if (run.status === 'passed') return `${open}/>`;
  if (run.status === 'skipped') return `${open}><skipped message="${attr(run.reason ?? 'skipped')}"/></testcase>`;
  const failure = run.failure;
  const message = failure === undefined ? 'failed' : failureMessage(failure);
  return `${open}><failure message="${attr(message)}" type="${attr(failure?.code ?? 'FAILED')}"/></testcase>`;
}

/** `workflow "w" step "s": message`, as the stderr line of the run says it. */
export function failureMessage(failure: NonNullable<RunLine['failure']>): string {
  const workflow = failure.workflowId !== undefined ? `workflow "${failure.workflowId}" ` : '';
  const step = failure.stepId !== undefined ? `step "${failure.stepId}": ` : '';
  return `${workflow}${step}${failure.message}`;
}

/** The XML declaration and the opening `<testsuites>` with the file's counts. */
export function junitHead(counts: CaseCounts): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${JUNIT_NAME}" ${countAttributes(counts)}>\n`;
}

/** The opening `<testsuite>` of a document, with its counts. */
export function testsuiteOpen(name: string, counts: CaseCounts): string {
  return `  <testsuite name="${attr(name)}" ${countAttributes(counts)}>\n`;
}

export const TESTSUITE_CLOSE = '  </testsuite>\n';
export const JUNIT_TAIL = '</testsuites>\n';

function countAttributes(counts: CaseCounts): string {
  return `tests="${counts.tests}" failures="${counts.failures}" errors="0" skipped="${counts.skipped}" time="${seconds(counts.time)}"`;
}

/** An attribute value: escape sequences, control and bidi characters removed, then escaped (line breaks as character references, so a testcase stays on one line). */
export function attr(value: string): string {
  return xmlAttr(stripControls(value));
}

function seconds(value: number): string {
  return (Math.round(value * 1000) / 1000).toFixed(3);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An attribute value as `attr` wrote it, read back: the five entities and numeric character references. */
export function unescapeXml(value: string): string {
  return value.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d+)|#x([0-9a-fA-F]+));/g, (whole, name: string | undefined, dec: string | undefined, hex: string | undefined) => {
    if (name !== undefined) return ENTITIES[name]!;
    const code = Number(dec ?? `0x${hex}`);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}
