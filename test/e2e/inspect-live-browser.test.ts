/**
 * `tool arazzo run --inspect` in a real browser: a workflow with a retry, a goto and a failure runs
 * in-process against a real node:http server, and headless Chromium (Debian's `chromium`, which
 * .ci/run installs) shows the live view while it runs and after. The screenshot is saved as
 * test-output/inspect-live.png (docs/images/inspect-live.png is a copy of one).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { findChromium, launchChromium, OUTPUT, SKIPPED_NO_CHROMIUM, startCountingApi, startInspectedRun, WAIT_MS } from './helpers/live-browser.js';
import { makeWorkspace, type Workspace } from './helpers/workspace.js';

const SECRET = 'live-s3cret-token';


/** The API the workflow calls: the first POST waits for `gate` (the page is open) and answers 503, then 201; the poll says pending once; the checkout answers 402. */
async function startApi(gate: Promise<void>): Promise<{ server: Server; url: string }> {
  const reply = async (route: string, n: number): Promise<[number, unknown]> => {
    if (route === 'POST /items') {
      if (n > 1) return [201, { id: 1 }];
      await gate;
      return [503, { error: 'busy' }];
    }
    if (route === 'GET /items/1') return [200, { status: n === 1 ? 'pending' : 'ready' }];
    if (route === 'GET /items') return [402, { error: 'payment required' }];
    return [404, { error: route }];
  };
  return startCountingApi(reply);
}


/** What the page shows: the steps table, the node and edge classes, the taken-edge labels, the log. */
function readPage(page: Page) {
  return page.evaluate(() => {
    const cells = (row: Element) => Array.from(row.querySelectorAll('td'), (td) => td.textContent);
    const classes = (id: string) => Array.from(document.getElementById(id)?.classList ?? []).sort();
    const stroke = (id: string) => getComputedStyle(document.querySelector(`#${id} > path, #${id} > ellipse`)!).stroke;
    return {
      outcome: document.getElementById('outcome')!.textContent,
      failure: document.getElementById('failure')!.textContent,
      steps: Array.from(document.querySelectorAll('#steps tr'), cells),
      nodes: Object.fromEntries(['node-s0_createItem', 'node-s1_pollItem', 'node-s2_checkout', 'node-failed', 'node-succeeded'].map((id) => [id, classes(id)])),
      strokes: { passed: stroke('node-s0_createItem'), failed: stroke('node-s2_checkout') },
      badges: Array.from(document.querySelectorAll('#chart text.badge'), (t) => t.textContent),
      edges: Object.fromEntries(Array.from(document.querySelectorAll('#chart g.edge.taken'), (g) => [g.id, g.querySelector('text.taken-label')?.textContent ?? ''])),
      last: Array.from(document.querySelectorAll('#chart g.edge.last'), (g) => g.id),
      log: Array.from(document.querySelectorAll('#log tr'), (row) => [(row as HTMLElement).dataset.n, ...cells(row).slice(1)]),
    };
  });
}

const chromium = findChromium();
const SKIPPED = SKIPPED_NO_CHROMIUM;
// jest does not name the tests of a suite it skips whole: say it here.
if (!chromium) console.warn(`inspect-live-browser: ${SKIPPED}`);
const title = 'shows the run live in Chromium: running, passed and failed steps, runs, statuses, reasons, the actions on the edges taken, a countdown, one log row per transition';

describe('tool arazzo run --inspect in a browser', () => {
  let ws: Workspace;
  let browser: Browser | undefined;
  beforeAll(() => {
    ws = makeWorkspace('tool-inspect-live-');
    mkdirSync(OUTPUT, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    ws.remove();
  });

  (chromium ? it : it.skip)(chromium ? title : `${title} (${SKIPPED})`, async () => {
    let open!: () => void;
    const api = await startApi(new Promise<void>((resolve) => (open = resolve)));
    const controller = new AbortController();
    try {
      ws.fixture('api.openapi.yaml', { BASE_URL: api.url });
      const file = ws.fixture('inspect-live.arazzo.yaml');
      const args = ['arazzo', 'run', file, '--inspect-hold', '--tool-retry', '0', '--tool-timeout', '300', '--input-env', 'token=LIVE_TOKEN'];
      const { exit, stderr, url } = await startInspectedRun(args, ws, controller, { LIVE_TOKEN: SECRET });

      browser = await launchChromium(chromium!);
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(url!, { waitUntil: 'domcontentloaded', timeout: WAIT_MS });

      // The first step's request waits at the server: the page shows it running.
      await page.waitForSelector('#node-s0_createItem.running', { timeout: WAIT_MS });
      // The 503 starts a 2 s backoff, whose countdown shows on the page and beside the node. The
      // page notes the first one it shows, however slowly this test gets to look.
      await page.evaluate(() => {
        const seen = window as unknown as { seenCountdown?: string };
        new MutationObserver(() => {
          const shown = document.getElementById('countdown')!;
          const beside = document.querySelector('#node-s0_createItem text.countdown');
          if (!shown.hidden && beside !== null) seen.seenCountdown ??= `${shown.textContent} | ${beside.textContent}`;
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      open();
      await page.waitForSelector('body[data-run="finished"]', { timeout: WAIT_MS });
      const countdown = await page.evaluate(() => (window as unknown as { seenCountdown?: string }).seenCountdown);
      expect(countdown).toMatch(/^retry of createItem in [12]\.\d s \| retry in [12]\.\d s$/);

      const shown = await readPage(page);
      expect(shown.outcome).toBe('finished: failed');
      // The reason, and under it the criterion with its operands, as stderr explains it.
      expect(shown.failure).toBe('step checkout: HTTP 402: success criterion `$statusCode == 200` does not hold (STEP_FAILED)\n$statusCode == 200  →  402 == 200  false');
      expect(shown.steps).toEqual([
        ['createItem', '2', '201 ✓', ''],
        ['pollItem', '2', '200 ✓', ''],
        ['checkout', '1', '402 ✗', 'HTTP 402: success criterion `$statusCode == 200` does not hold\n$statusCode == 200  →  402 == 200  false'],
      ]);
      expect(shown.nodes['node-s0_createItem']).toEqual(['node', 'passed']);
      expect(shown.nodes['node-s1_pollItem']).toEqual(['node', 'passed']);
      expect(shown.nodes['node-s2_checkout']).toEqual(['failed', 'node']);
      expect(shown.nodes['node-failed']).toEqual(['failed', 'node']);
      expect(shown.nodes['node-succeeded']).toEqual(['node']);
      expect(shown.strokes).toEqual({ passed: 'rgb(46, 125, 50)', failed: 'rgb(198, 40, 40)' });
      expect(shown.badges).toEqual(['×2 · 201 ✓', '×2 · 200 ✓', '×1 · 402 ✗']);
      expect(shown.edges).toEqual({
        'edge-start-s0_createItem': '',
        'edge-s0_createItem-s1_pollItem': '',
        'edge-s0_createItem-s0_createItem-fail': 'busy: retry 1 of 2',
        'edge-s1_pollItem-s1_pollItem': 'stillPending: goto pollItem',
        'edge-s1_pollItem-s2_checkout': '',
        'edge-s2_checkout-failed-fail': '',
      });
      expect(shown.last).toEqual(['edge-s2_checkout-failed-fail']);
      // One row per transition, each once.
      expect(shown.log).toEqual([
        ['1', 'createItem', 'start', '', 's0_createItem.calling'],
        ['2', 'createItem', '503 ✗: HTTP 503: success criterion `$statusCode == 201` does not hold', 'busy: retry 1 of 2', 's0_createItem.backoff (retry in 2.0 s)'],
        ['3', 'createItem', 'retry wait over', '', 's0_createItem.calling'],
        ['4', 'createItem', '201 ✓', 'next step', 's1_pollItem'],
        ['5', 'pollItem', '200 ✓', 'stillPending: goto pollItem', 's1_pollItem'],
        ['6', 'pollItem', '200 ✓', 'next step', 's2_checkout'],
        ['7', 'checkout', '402 ✗: HTTP 402: success criterion `$statusCode == 200` does not hold', 'fail', 'failed'],
      ]);
      expect(await page.content()).not.toContain(SECRET);
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(OUTPUT, 'inspect-live.png'), fullPage: true });

      // A viewer that connects after the run sees the same, and each row once.
      const late = await browser.newPage();
      await late.goto(url!, { waitUntil: 'domcontentloaded', timeout: WAIT_MS });
      await late.waitForSelector('body[data-run="finished"]', { timeout: WAIT_MS });
      expect(await readPage(late)).toEqual(shown);

      await browser.close();
      browser = undefined;
      expect(stderr.text).toContain('until you press Ctrl-C');
      controller.abort();
      expect(await exit).toBe(1);
    } finally {
      controller.abort();
      api.server.closeAllConnections();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
    }
  }, 240_000);
});
