/**
 * `tool arazzo test --report --junit --html` in-process against a real local HTTP server: the
 * three files of a suite (the JUnit parsed as XML, the page opened in headless Chromium with no
 * request leaving it), the failures list capped at 1000, the files written after Ctrl-C, and an
 * unwritable path refused before anything runs.
 */
import { beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DOMParser } from '@xmldom/xmldom';
import type { Browser } from 'puppeteer-core';
import { useRunHarness } from './run-harness.js';
import { runInWorkspace, startInWorkspace } from './run-in-workspace.js';
import { findChromium, launchChromium, SKIPPED_NO_CHROMIUM } from '../e2e/helpers/live-browser.js';

const ROUTES = {
  'GET /a': { status: 200, body: { token: 't-1' } },
  'GET /b': { status: 404, body: { error: 'no b here' } },
  'GET /items': { status: 200, body: [] },
  'POST /items': { status: 201, body: {} },
};

interface Report {
  format: string;
  passed: number;
  failed: number;
  skipped: number;
  notRun: number;
  startedAt: string;
  endedAt: string;
  documents: string[];
  stats: { runs: { count: number } };
  statsData: { runs: { count: number; histogram: string } };
  failures: Array<{ file: string; workflowId: string; row?: number; failure: { code: string; stepId?: string } }>;
  failuresOmitted?: number;
}

/** The JUnit file parsed, failing the test on any XML error; its suites as name, counts and testcases. */
function parseJunit(text: string) {
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(text, 'text/xml');
  expect(errors).toEqual([]);
  const root = doc.documentElement!;
  const suites = Array.from(root.getElementsByTagName('testsuite')).map((suite) => ({
    name: suite.getAttribute('name'),
    counts: ['tests', 'failures', 'skipped'].map((key) => Number(suite.getAttribute(key))),
    cases: Array.from(suite.getElementsByTagName('testcase')).map((c) => ({
      name: c.getAttribute('name'),
      classname: c.getAttribute('classname'),
      failure: c.getElementsByTagName('failure')[0]?.getAttribute('message') ?? undefined,
      type: c.getElementsByTagName('failure')[0]?.getAttribute('type') ?? undefined,
      skipped: c.getElementsByTagName('skipped')[0]?.getAttribute('message') ?? undefined,
    })),
  }));
  return { root: { name: root.getAttribute('name'), tests: Number(root.getAttribute('tests')), failures: Number(root.getAttribute('failures')) }, suites };
}

/** The hidden temporary files and folders the reports leave while they are open. */
function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => /\.(tmp|parts)$/.test(name));
}

describe('tool arazzo test --report --junit --html', () => {
  const h = useRunHarness();
  const read = (name: string) => readFileSync(join(h.ws.dir, name), 'utf8');

  beforeAll(() => {
    for (const folder of ['suite', 'slow', 'rows']) h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, `${folder}/api.openapi.yaml`);
    h.ws.fixture('suite/orders.arazzo.yaml', {}, 'suite/orders.arazzo.yaml');
    h.ws.fixture('suite/search.arazzo.yaml', {}, 'suite/search.arazzo.yaml');
    h.ws.fixture('suite/hostile.arazzo.yaml', {}, 'suite/hostile.arazzo.yaml');
    h.ws.fixture('suite/slow.arazzo.yaml', {}, 'slow/slow.arazzo.yaml');
    h.ws.fixture('suite/rows.arazzo.yaml', {}, 'rows/rows.arazzo.yaml');
    h.ws.fixture('api.openapi.yaml', { BASE_URL: h.server.url }, 'retried/api.openapi.yaml');
    h.ws.fixture('suite/retried.arazzo.yaml', {}, 'retried/retried.arazzo.yaml');
  });

  const test = (args: readonly string[], timeoutMs?: number) => {
    h.server.setRoutes(ROUTES);
    return runInWorkspace(['arazzo', 'test', ...args], { cwd: h.ws.dir, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
  };

  it('writes the suite report: the summary fields, endedAt, the histograms and the failed runs', async () => {
    const result = await test(['suite', '--report', 'out/../suite.json', '--junit', 'junit.xml', '--html', 'report.html']);
    expect(result.code).toBe(1);
    const report = JSON.parse(read('suite.json')) as Report;
    expect(report).toMatchObject({ format: 'tool-suite-report/1', passed: 2, failed: 2, skipped: 1, notRun: 0, documents: ['suite/hostile.arazzo.yaml', 'suite/orders.arazzo.yaml', 'suite/search.arazzo.yaml'] });
    expect(Date.parse(report.endedAt)).toBeGreaterThanOrEqual(Date.parse(report.startedAt));
    expect(report.stats.runs.count).toBe(4);
    expect(report.statsData.runs.count).toBe(4);
    expect(report.statsData.runs.histogram).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(report.failures.map((f) => [f.file, f.workflowId, f.failure.code])).toEqual([
      ['suite/hostile.arazzo.yaml', 'hostile', 'STEP_FAILED'],
      ['suite/orders.arazzo.yaml', 'smokeB', 'STEP_FAILED'],
    ]);
    expect(report).not.toHaveProperty('runs');
    expect(report).not.toHaveProperty('failuresOmitted');
    expect(leftovers(h.ws.dir)).toEqual([]);
  });

  it('writes well-formed JUnit: a testsuite per document with its counts, a testcase per run, hostile text escaped', () => {
    const junit = parseJunit(read('junit.xml'));
    expect(junit.root).toEqual({ name: 'tool arazzo test', tests: 5, failures: 2 });
    expect(junit.suites.map((s) => [s.name, s.counts])).toEqual([
      ['suite/hostile.arazzo.yaml', [1, 1, 0]],
      ['suite/orders.arazzo.yaml', [3, 1, 1]],
      ['suite/search.arazzo.yaml', [1, 0, 0]],
    ]);
    const orders = junit.suites[1]!.cases;
    expect(orders.map((c) => [c.name, c.classname])).toEqual([
      ['smokeA', 'suite/orders.arazzo.yaml'],
      ['smokeB', 'suite/orders.arazzo.yaml'],
      ['itemById', 'suite/orders.arazzo.yaml'],
    ]);
    expect(orders[1]).toMatchObject({ type: 'STEP_FAILED', failure: expect.stringMatching(/^step "getB": HTTP 404/) });
    expect(orders[2]!.skipped).toMatch(/required input "itemId" not given/);
    // The condition's text comes back whole once parsed: escaped, not interpreted.
    expect(junit.suites[0]!.cases[0]!.failure).toContain('^<img src="http://127.0.0.1:9/x.png"> & </testcase>$');
  });

  const chromium = findChromium();
  (chromium ? it : it.skip)(`writes a self-contained HTML page that shows the summary and the failures and loads nothing${chromium ? '' : ` (${SKIPPED_NO_CHROMIUM})`}`, async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchChromium(chromium!);
      const page = await browser.newPage();
      const url = pathToFileURL(join(h.ws.dir, 'report.html')).href;
      const requested: string[] = [];
      page.on('request', (request) => {
        if (request.url() !== url) requested.push(request.url());
      });
      await page.goto(url, { waitUntil: 'load' });
      expect(await page.title()).toBe('tool arazzo test: 2 passed, 2 failed, 1 skipped');
      const text = await page.evaluate(() => document.body.innerText);
      expect(text).toMatch(/smokeB\s+STEP_FAILED\s+step "getB": HTTP 404/);
      expect(text).toContain('<img src="http://127.0.0.1:9/x.png"> & </testcase>');
      expect(text).toMatch(/suite\/orders\.arazzo\.yaml › smokeA/);
      expect(await page.evaluate(() => document.querySelectorAll('img, script, link').length)).toBe(0);
      expect(requested).toEqual([]);
    } finally {
      await browser?.close();
    }
  }, 120_000);

  it('lists the first 1000 failed runs in the report and counts the others', async () => {
    // A row without the required count fails before anything is sent: 1003 fast failures.
    h.ws.write('rows/bad.jsonl', `${Array.from({ length: 1003 }, (_, i) => JSON.stringify({ name: `n${i}` })).join('\n')}\n`);
    const result = await test(['rows/rows.arazzo.yaml', '--workflow', 'addItem', '--data', 'rows/bad.jsonl', '--report', 'many.json', '--html', 'many.html', '--junit', 'many.xml'], 60_000);
    expect(result.code).toBe(1);
    const report = JSON.parse(read('many.json')) as Report;
    expect(report.failed).toBe(1003);
    expect(report.failures).toHaveLength(1000);
    expect(report.failures[999]!.row).toBe(1000);
    expect(report.failuresOmitted).toBe(3);
    expect(read('many.html')).toContain('and 3 more failed runs, not listed.');
    const junit = parseJunit(read('many.xml'));
    expect(junit.suites[0]!.counts).toEqual([1003, 1003, 0]);
    expect(junit.suites[0]!.cases[1002]!.name).toBe('addItem [row 1003]');
  }, 90_000);

  it('counts a run that passed after a retry its workflow absorbed as a pass', async () => {
    h.server.setRoutes({ 'GET /c': [{ status: 409, body: {} }, { status: 200, body: {} }] });
    const result = await runInWorkspace(['arazzo', 'test', 'retried', '--junit', 'retried.xml', '--report', 'retried.json'], { cwd: h.ws.dir });
    expect(result.code).toBe(0);
    expect(h.server.hits).toHaveLength(2);
    const junit = parseJunit(read('retried.xml'));
    expect(junit.suites[0]).toMatchObject({ counts: [1, 0, 0], cases: [{ name: 'retried', failure: undefined }] });
    expect(JSON.parse(read('retried.json'))).toMatchObject({ passed: 1, failed: 0, failures: [] });
  });

  it('writes the three files after Ctrl-C (exit 130), counting the runs not finished', async () => {
    h.server.setRoutes({ ...ROUTES, 'GET /slow': { status: 200, body: {}, delayMs: 5_000 } });
    const started = startInWorkspace(['arazzo', 'test', 'slow', '--report', 'stopped.json', '--junit', 'stopped.xml', '--html', 'stopped.html'], h.ws.dir);
    while (h.server.hits.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    started.controller.abort();
    expect(await started.exit).toBe(130);
    expect(JSON.parse(read('stopped.json'))).toMatchObject({ passed: 0, failed: 0, notRun: 2, failures: [] });
    expect(parseJunit(read('stopped.xml')).root.tests).toBe(0);
    expect(read('stopped.html')).toContain('0 passed, 0 failed, 0 skipped, 2 not run');
    expect(leftovers(h.ws.dir)).toEqual([]);
  });

  it('refuses an unwritable report path before running anything (exit 2), leaving no file behind', async () => {
    for (const flag of ['--report', '--junit', '--html']) {
      const result = await test(['suite', ...(flag === '--report' ? [] : ['--report', 'fine.json']), flag, 'no/such/folder/out']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`cannot write the ${flag} file no/such/folder/out`);
      expect(result.stdout).toBe('');
      expect(h.server.hits).toHaveLength(0);
      expect(existsSync(join(h.ws.dir, 'fine.json'))).toBe(false);
      expect(leftovers(h.ws.dir)).toEqual([]);
    }
  });
});
