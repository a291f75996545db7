import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { browserOpener } from '../../../src/auth/login/open-browser.js';

async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text !== undefined && text.endsWith('\n')) return text;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`${path} was not written`);
}

describe('browserOpener', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tool-browser-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const script = async (name: string): Promise<string> => {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\nprintf '%s\\n' "$*" > "${join(dir, 'opened')}"\n`);
    await chmod(path, 0o755);
    return path;
  };

  it('is absent when there is neither $BROWSER nor xdg-open', () => {
    expect(browserOpener({ PATH: dir }, 'linux')).toBeUndefined();
  });

  it('runs $BROWSER with the URL as one argument, never through a shell', async () => {
    const browser = await script('browser');
    const open = browserOpener({ BROWSER: browser, PATH: '' }, 'linux');
    const url = 'https://auth.example.com/authorize?a=1&b=$(touch pwned)';
    expect(open?.(url)).toBe(true);
    expect(await waitForFile(join(dir, 'opened'))).toBe(`${url}\n`);
  });

  it('finds xdg-open on PATH', async () => {
    await script('xdg-open');
    const open = browserOpener({ PATH: dir }, 'linux');
    expect(open?.('https://auth.example.com/x')).toBe(true);
    expect(await waitForFile(join(dir, 'opened'))).toBe('https://auth.example.com/x\n');
  });
});
