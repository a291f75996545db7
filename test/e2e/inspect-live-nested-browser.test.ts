/**
 * The --inspect live view of a v2 run in a real browser (issue 24, item 5): a nested workflow step
 * whose step is retried twice, then a failing last step, run in-process against a real node:http
 * server and read from headless Chromium (Debian's `chromium`, as in inspect-live-browser.test.ts).
 * The called workflow's step sits at the chart's left edge, where its countdown was cut off.
 * It measures what a user saw wrong: badges cut off at the chart's edge or covering other nodes,
 * a nested step read as "no response", the called workflow's `succeeded` left uncoloured, the
 * failure shown without its operands, and the retries counted as 0. The screenshot is saved as
 * test-output/inspect-live-nested.png.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { findChromium, launchChromium, OUTPUT, SKIPPED_NO_CHROMIUM, startCountingApi, startInspectedRun, WAIT_MS } from './helpers/live-browser.js';
import { makeWorkspace, type Workspace } from './helpers/workspace.js';

const EXPLAINED = '$statusCode == 200  →  503 == 200  false';


/** The API: GET /a answers 200; GET /c (the called workflow's step) waits for `gate` (the page is open) and answers 503 twice, then 200; /b 503. */
async function startApi(gate: Promise<void>): Promise<{ server: Server; url: string }> {
  const reply = async (route: string, n: number): Promise<[number, unknown]> => {
    if (route === 'GET /a') return [200, { id: 'a1' }];
    if (route === 'GET /c') {
      if (n === 1) await gate;
      return n <= 2 ? [503, { error: 'busy' }] : [200, { c: 1 }];
    }
    if (route === 'GET /b') return [503, { error: 'down' }];
    return [404, { error: route }];
  };
  return startCountingApi(reply);
}


/**
 * Installs, in the page, a check of every note beside a node (badges, countdowns) each time the
 * page changes: one outside the chart's SVG box is clipped, one over another node's shape covers
 * it. Both are kept in `window.notes`, with the countdowns seen.
 */
function watchNotes(page: Page) {
  return page.evaluate(() => {
    const notes = { clipped: [] as string[], covering: [] as string[], countdowns: [] as string[] };
    (window as unknown as { notes: typeof notes }).notes = notes;
    const shapes = (node: Element) => Array.from(node.querySelectorAll(':scope > path, :scope > polygon, :scope > ellipse'), (s) => s.getBoundingClientRect());
    const meets = (a: DOMRect, b: DOMRect) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    const check = () => {
      const svg = document.querySelector('#chart svg');
      if (!svg) return;
      const box = svg.getBoundingClientRect();
      const nodes = Array.from(svg.querySelectorAll('g.node'));
      for (const t of Array.from(svg.querySelectorAll('text.badge, text.countdown'))) {
        const r = t.getBoundingClientRect();
        const owner = t.closest('g.node')!;
        const what = `${t.getAttribute('class')} "${t.textContent}" of ${owner.id}`;
        if (t.classList.contains('countdown') && !notes.countdowns.includes(t.textContent!)) notes.countdowns.push(t.textContent!);
        const note = (list: string[], problem: string) => {
          if (!list.includes(problem)) list.push(problem);
        };
        if (r.left < box.left - 0.5 || r.right > box.right + 0.5 || r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
          note(notes.clipped, `${what}: [${Math.round(r.left)}, ${Math.round(r.right)}] × [${Math.round(r.top)}, ${Math.round(r.bottom)}] outside the chart's [${Math.round(box.left)}, ${Math.round(box.right)}] × [${Math.round(box.top)}, ${Math.round(box.bottom)}]`);
        }
        for (const other of nodes) if (other !== owner && shapes(other).some((s) => meets(r, s))) note(notes.covering, `${what} covers ${other.id}`);
      }
    };
    new MutationObserver(check).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  });
}

function readPage(page: Page) {
  return page.evaluate(() => {
    const cells = (row: Element) => Array.from(row.querySelectorAll('td'), (td) => td.textContent);
    const fill = (id: string) => getComputedStyle(document.getElementById(id)!.querySelector(':scope > path, :scope > polygon, :scope > ellipse')!).fill;
    return {
      notes: (window as unknown as { notes: { clipped: string[]; covering: string[]; countdowns: string[] } }).notes,
      retries: document.getElementById('retries')!.textContent,
      failure: document.getElementById('failure')!.textContent,
      steps: Array.from(document.querySelectorAll('#steps tr'), cells),
      badges: Array.from(document.querySelectorAll('#chart text.badge'), (t) => `${t.closest('g.node')!.id}: ${t.textContent}`),
      classes: Object.fromEntries(['node-child/succeeded', 'node-child/s0_fetch', 'node-s0_first'].map((id) => [id, Array.from(document.getElementById(id)!.classList).sort()])),
      fills: { innerSucceeded: fill('node-child/succeeded'), passedStep: fill('node-s0_first') },
      text: document.body.innerText,
    };
  });
}

const chromium = findChromium();
const SKIPPED = SKIPPED_NO_CHROMIUM;
if (!chromium) console.warn(`inspect-live-nested-browser: ${SKIPPED}`);
const title = 'shows retries, a nested workflow step and a failure with its operands, every badge inside the chart and off other nodes';

describe('tool arazzo run --tool-runner v2 --inspect in a browser', () => {
  let ws: Workspace;
  let browser: Browser | undefined;
  beforeAll(() => {
    ws = makeWorkspace('tool-inspect-nested-');
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
      const file = ws.fixture('inspect-live-nested.arazzo.yaml');
      const args = ['arazzo', 'run', file, '--workflow', 'main', '--tool-runner', 'v2', '--inspect-hold', '--tool-retry', '0', '--tool-timeout', '300'];
      const { exit, stderr, url } = await startInspectedRun(args, ws, controller);

      browser = await launchChromium(chromium!);
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(url!, { waitUntil: 'domcontentloaded', timeout: WAIT_MS });
      // A wait that times out says what the page threw.
      const waitFor = (selector: string) => page.waitForSelector(selector, { timeout: WAIT_MS }).catch((error: unknown) => {
        throw new Error(`${String(error)}; errors on the page: ${JSON.stringify(errors)}`);
      });
      await waitFor('[id="node-child/s0_fetch"].running');
      await watchNotes(page);
      open();
      await waitFor('body[data-run="finished"]');
      const shown = await readPage(page);

      // 1: the countdowns were seen (beside `fetch`, at the left edge), and no note was ever cut off.
      expect(shown.notes.countdowns.length).toBeGreaterThan(0);
      expect(shown.notes.clipped).toEqual([]);
      // 2: nor over another node (the called workflow's `start`, say).
      expect(shown.notes.covering).toEqual([]);
      // 3: the nested step says what it did.
      expect(shown.badges).toContain('node-s1_callChild: ×1 · → workflow child ✓');
      expect(shown.steps.find((row) => row[0] === 'callChild')?.[2]).toBe('→ workflow child ✓');
      expect(shown.text).not.toContain('no response');
      // 4: the called workflow's `succeeded` is coloured as a passed node is.
      expect(shown.classes['node-child/succeeded']).toContain('passed');
      expect(shown.fills.innerSucceeded).toBe(shown.fills.passedStep);
      expect(shown.fills.innerSucceeded).toBe('rgb(232, 245, 233)');
      // 5: the failure with its operands, as stderr explains it.
      expect(stderr.text).toContain(EXPLAINED);
      expect(shown.failure).toContain(EXPLAINED);
      expect(shown.steps.find((row) => row[0] === 'last')?.[3]).toContain(EXPLAINED);
      // 6: two retries of the called workflow's `fetch`, one of `last`.
      expect(shown.retries).toBe('3');
      expect(errors).toEqual([]);
      await page.screenshot({ path: join(OUTPUT, 'inspect-live-nested.png'), fullPage: true });

      // A viewer that connects after the run sees the same.
      const late = await browser.newPage();
      await late.setViewport({ width: 1280, height: 900 });
      await late.goto(url!, { waitUntil: 'domcontentloaded', timeout: WAIT_MS });
      await late.waitForSelector('body[data-run="finished"]', { timeout: WAIT_MS });
      await watchNotes(late);
      const lateShown = await readPage(late);
      expect(lateShown.notes.clipped).toEqual([]);
      expect(lateShown.notes.covering).toEqual([]);
      expect({ ...lateShown, notes: undefined }).toEqual({ ...shown, notes: undefined });

      await browser.close();
      browser = undefined;
      controller.abort();
      expect(await exit).toBe(1);
    } finally {
      controller.abort();
      api.server.closeAllConnections();
      await new Promise<void>((resolve) => api.server.close(() => resolve()));
    }
  }, 240_000);
});
