/**
 * The pure formatting of the suite's report files: JUnit testcases (escaped, one line each, read
 * back by merge-reports), the HTML page (every text escaped, nothing that loads), the capped
 * failures list, and the suite report check merge-reports trusts.
 */
import { describe, expect, it } from '@jest/globals';
import { DOMParser } from '@xmldom/xmldom';
import { escapeHtml, suiteHtml } from '../../../src/cli/suite/suite-html.js';
import { junitHead, JUNIT_TAIL, TESTSUITE_CLOSE, testcaseName, testcaseXml, testsuiteOpen, unescapeXml } from '../../../src/cli/suite/suite-junit.js';
import { FailureList, isSuiteReport, SUITE_REPORT_FORMAT, type SuiteReport } from '../../../src/cli/suite/suite-report.js';
import { statsData, statsFigures, SuiteLatency } from '../../../src/suite/latency.js';

const HOSTILE = 'a "quoted" <b>&amp;</b> \'x\'\n\r\tline\u0000\u0007\u001b[31mred\u001b[0m\u0085 \uFFFE';

function report(overrides: Partial<SuiteReport> = {}): SuiteReport {
  const latency = new SuiteLatency();
  latency.recordRun(HOSTILE, HOSTILE, 12, false);
  latency.recordStep(HOSTILE, HOSTILE, `<script>${HOSTILE}`, 5, true);
  return {
    format: SUITE_REPORT_FORMAT,
    passed: 0,
    failed: 1,
    skipped: 0,
    notRun: 0,
    durationMs: 20,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:00:00.020Z',
    documents: [HOSTILE],
    stats: statsFigures(latency, 0.02),
    thresholds: [{ threshold: `p95<1ms ${HOSTILE}`, ok: false, actual: 12, message: `p95 was 12 ms ${HOSTILE}` }],
    statsData: statsData(latency),
    failures: [{ file: HOSTILE, workflowId: HOSTILE, status: 'failed', durationMs: 12, failure: { code: `<i>${HOSTILE}`, message: HOSTILE, stepId: HOSTILE } }],
    ...overrides,
  };
}

describe('JUnit testcases', () => {
  it('names a run by its workflow, row and pass', () => {
    expect(testcaseName({ workflowId: 'w' })).toBe('w');
    expect(testcaseName({ workflowId: 'w', row: 3, iteration: 2 })).toBe('w [row 3] #2');
    expect(testcaseName({ workflowId: null })).toBe('(document)');
  });

  it('escapes hostile text, strips what XML cannot carry, and keeps each testcase on one line', () => {
    const failed = testcaseXml({ file: HOSTILE, workflowId: HOSTILE, status: 'failed', durationMs: 1234, failure: { code: HOSTILE, message: HOSTILE, stepId: HOSTILE } });
    const skipped = testcaseXml({ file: 'f', workflowId: 'w', status: 'skipped', durationMs: 0, reason: HOSTILE });
    const passed = testcaseXml({ file: 'f', workflowId: 'w', row: 2, status: 'passed', durationMs: 5 });
    for (const line of [failed, skipped, passed]) expect(line).not.toMatch(/[\n\r\u0000\u0007\u001b\u0085\uFFFE]/);
    const xml = `${junitHead({ tests: 3, failures: 1, skipped: 1, time: 1.239 })}${testsuiteOpen(HOSTILE, { tests: 3, failures: 1, skipped: 1, time: 1.239 })}${[failed, skipped, passed].join('\n')}\n${TESTSUITE_CLOSE}${JUNIT_TAIL}`;
    const errors: string[] = [];
    const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(xml, 'text/xml');
    expect(errors).toEqual([]);
    const cases = doc.getElementsByTagName('testcase');
    expect(cases.length).toBe(3);
    const clean = 'a "quoted" <b>&amp;</b> \'x\'\n\r\tlinered \uFFFE'.replace('\uFFFE', '');
    expect(cases[0]!.getAttribute('classname')).toBe(clean);
    expect(cases[0]!.getElementsByTagName('failure')[0]!.getAttribute('message')).toBe(`step "${clean}": ${clean}`);
    expect(cases[0]!.getAttribute('time')).toBe('1.234');
    expect(cases[1]!.getElementsByTagName('skipped')[0]!.getAttribute('message')).toBe(clean);
    expect(cases[2]!.getAttribute('name')).toBe('w [row 2]');
    expect(doc.getElementsByTagName('testsuite')[0]!.getAttribute('tests')).toBe('3');
  });

  it('reads back what it escaped', () => {
    const line = testcaseXml({ file: HOSTILE, workflowId: 'w', status: 'passed', durationMs: 1 });
    expect(unescapeXml(/classname="([^"]*)"/.exec(line)![1]!)).toBe('a "quoted" <b>&amp;</b> \'x\'\n\r\tlinered ');
    expect(unescapeXml('&#x1F600;&#65;&bogus;')).toBe('😀A&bogus;');
  });
});

describe('the HTML page', () => {
  it('escapes every text from documents and servers, and lets nothing load', () => {
    const html = suiteHtml(report());
    expect(html).not.toMatch(/<script|<b>|<i>|\u001b|\u0000/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('a &quot;quoted&quot; &lt;b&gt;&amp;amp;&lt;/b&gt; &#39;x&#39;');
    expect(html).not.toMatch(/\b(?:src|href)=/);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('<td class="failed">✗ missed</td>');
  });

  it('says how many failures it left out', () => {
    expect(suiteHtml(report({ failuresOmitted: 7 }))).toContain('and 7 more failed runs, not listed.');
    expect(suiteHtml(report({ failed: 0, failures: [] }))).toContain('None.');
  });

  it('escapes the characters that end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;');
  });
});

describe('the failures list', () => {
  it('keeps the first ones up to its cap and counts the rest', () => {
    const list = new FailureList(2);
    for (let i = 1; i <= 5; i++) list.add({ row: i });
    expect(list.fields()).toEqual({ failures: [{ row: 1 }, { row: 2 }], failuresOmitted: 3 });
    expect(new FailureList(2).fields()).toEqual({ failures: [] });
  });
});

describe('isSuiteReport', () => {
  it('accepts a report and refuses JSON without the format, the counts or the histograms', () => {
    const whole = JSON.parse(JSON.stringify(report())) as Record<string, unknown>;
    expect(isSuiteReport(whole)).toBe(true);
    expect(isSuiteReport({ ...whole, format: 'other/1' })).toBe(false);
    expect(isSuiteReport({ ...whole, passed: '1' })).toBe(false);
    expect(isSuiteReport({ ...whole, statsData: { runs: {} } })).toBe(false);
    expect(isSuiteReport([whole])).toBe(false);
    expect(isSuiteReport(null)).toBe(false);
  });
});
