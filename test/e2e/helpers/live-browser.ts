/**
 * What the browser tests of the --inspect live view share: finding Debian's chromium, a counting
 * API on 127.0.0.1, an in-process `tool arazzo run --inspect…` whose live view address is read
 * from stderr, and a headless Chromium to open it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import puppeteer, { type Browser } from 'puppeteer-core';
import { runCli } from '../../../src/cli/run-cli.js';
import { Collector } from '../../cli/run-tool.js';
import { toolEnv } from './run-tool.js';
import type { Workspace } from './workspace.js';

/** Where the screenshots go. */
export const OUTPUT = fileURLToPath(new URL('../../../test-output/', import.meta.url));
/** Generous: the machine has two cores, and Chromium shares them with the run and jest. */
export const WAIT_MS = 60_000;
export const SKIPPED_NO_CHROMIUM = 'SKIPPED: no chromium binary on PATH (nor CHROME_PATH); apt-get install -y chromium, as .ci/run does';

/** Debian's chromium (or another Chromium on PATH, or CHROME_PATH); undefined when there is none. */
export function findChromium(): string | undefined {
  if (process.env.CHROME_PATH && existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  const dirs = (process.env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    const found = dirs.map((d) => join(d, name)).find((path) => existsSync(path));
    if (found) return found;
  }
  return undefined;
}

/** An API on 127.0.0.1 whose answer to `METHOD /path` is `reply(route, n)`, `n` counting that route's requests from 1. */
export async function startCountingApi(reply: (route: string, n: number) => Promise<[number, unknown]>): Promise<{ server: Server; url: string }> {
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const route = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
      const n = (counts.get(route) ?? 0) + 1;
      counts.set(route, n);
      void reply(route, n).then(([status, body]) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

export async function waitForText(read: () => string, pattern: RegExp, timeoutMs = WAIT_MS): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(read());
    if (match) return match;
    if (Date.now() > deadline) throw new Error(`never saw ${pattern} in:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `tool <args>` in-process in `ws`, until its live view is up: the run's exit, its streams, what stops it, and the live view's address. */
export async function startInspectedRun(args: string[], ws: Workspace, controller: AbortController, env: Record<string, string> = {}) {
  mkdirSync(OUTPUT, { recursive: true });
  const stdout = new Collector();
  const stderr = new Collector();
  const exit = runCli(args, { stdin: Readable.from([]), stdout, stderr, env: toolEnv(ws.dir, env), cwd: ws.dir, colors: false, stderrIsTTY: false, stdoutIsTTY: false, signal: controller.signal });
  const [, url] = await waitForText(() => stderr.text, /inspect: live view at (http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/) /);
  return { exit, stdout, stderr, url: url! };
}

/** A headless Chromium that survives the slow protocol of a loaded machine. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], protocolTimeout: 180_000 });
}
