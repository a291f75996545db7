/**
 * The `--html` file of `arazzo test` and `merge-reports`: one self-contained page (inline CSS, no
 * script, a Content-Security-Policy that lets nothing load) with the summary, the thresholds, the
 * figures per workflow and per step, and the failed runs the suite report lists. Every text in it
 * comes from documents and servers, so all of it is escaped. Pure: a report in, HTML text out.
 */
import { stripControls } from '../../output/printable.js';
import type { Figures } from '../../suite/latency.js';
import { failureMessage, testcaseName, type RunLine } from './suite-junit.js';
import type { SuiteReport } from './suite-report.js';

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #1b1f23; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #d0d7de; padding: .25em .6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.step td:first-child { padding-left: 2em; }
.passed { color: #1a7f37; } .failed { color: #cf222e; } .skipped { color: #9a6700; }
.muted { color: #57606a; }
`;

/** The page of a suite report. */
export function suiteHtml(report: SuiteReport): string {
  const verdict = report.failed > 0 || (report.thresholds ?? []).some((t) => !t.ok) ? 'failed' : 'passed';
  const title = `tool arazzo test: ${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Nothing may load: the page stays readable offline, and hostile text can fetch nothing.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>`,
    `<h1 class="${verdict}">${escapeHtml(title)}</h1>`,
    summaryList(report),
    thresholdsSection(report),
    figuresSection(report),
    failuresSection(report),
    '</body></html>',
    '',
  ].join('\n');
}

function summaryList(report: SuiteReport): string {
  const shards = report.shards ?? (report.shard !== undefined ? [report.shard] : []);
  const items: Array<[string, string]> = [
    ['Runs', `${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped${report.notRun > 0 ? `, ${report.notRun} not run` : ''}`],
    ['Time', `${report.startedAt} to ${report.endedAt} (${report.durationMs} ms)`],
    ['Documents', report.documents.join(', ')],
  ];
  if (shards.length > 0) items.push(['Shards', shards.map((s) => `${s.index}/${s.total}`).join(', ')]);
  return `<table>${items.map(([key, value]) => `<tr><th>${key}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;
}

function thresholdsSection(report: SuiteReport): string {
  const verdicts = report.thresholds ?? [];
  if (verdicts.length === 0) return '';
  const rows = verdicts.map((v) => `<tr><td class="${v.ok ? 'passed' : 'failed'}">${v.ok ? '✓ held' : '✗ missed'}</td><td>${escapeHtml(v.threshold)}</td><td>${escapeHtml(v.message ?? (v.actual !== undefined ? String(v.actual) : ''))}</td></tr>`);
  return `<h2>Thresholds</h2><table><tr><th>Verdict</th><th>Threshold</th><th>Figure</th></tr>${rows.join('')}</table>`;
}

const FIGURE_HEADS = '<th>Count</th><th>Errors</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th><th>per s</th>';

function figuresSection(report: SuiteReport): string {
  const rows = [figuresRow('All runs', report.stats.runs, 'total'), figuresRow('All requests', report.stats.requests, 'total')];
  for (const workflow of report.stats.workflows) {
    rows.push(figuresRow(`${workflow.file} › ${workflow.workflowId}`, workflow.runs, 'workflow'));
    for (const step of workflow.steps) rows.push(figuresRow(step.stepId, step, 'step'));
  }
  return `<h2>Figures</h2><table><tr><th>Workflow / step</th>${FIGURE_HEADS}</tr>${rows.join('')}</table>`;
}

function figuresRow(name: string, f: Figures, kind: string): string {
  const cells = [f.count, f.errors, f.p50, f.p95, f.p99, f.max, f.perSecond].map((n) => `<td class="n">${n}</td>`).join('');
  return `<tr class="${kind}"><td>${escapeHtml(name)}</td>${cells}</tr>`;
}

function failuresSection(report: SuiteReport): string {
  if (report.failures.length === 0) return '<h2>Failures</h2><p class="muted">None.</p>';
  const rows = report.failures.map((failure) => {
    const run = failure as unknown as RunLine;
    const message = run.failure !== undefined ? failureMessage(run.failure) : 'failed';
    return `<tr><td>${escapeHtml(run.file)}</td><td>${escapeHtml(testcaseName(run))}</td><td>${escapeHtml(run.failure?.code ?? '')}</td><td class="failed">${escapeHtml(message)}</td></tr>`;
  });
  const omitted = report.failuresOmitted ? `<p class="muted">and ${report.failuresOmitted} more failed runs, not listed.</p>` : '';
  return `<h2>Failures</h2><table><tr><th>Document</th><th>Run</th><th>Code</th><th>Reason</th></tr>${rows.join('')}</table>${omitted}`;
}

/** Text for HTML element content and double-quoted attributes: control characters removed, `& < > " '` escaped. */
export function escapeHtml(value: unknown): string {
  return stripControls(String(value)).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
