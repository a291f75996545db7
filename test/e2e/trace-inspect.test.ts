/** `tool arazzo run --inspect`: the real binary serves a loopback-only live view, holds until Ctrl-C with --inspect-hold (else ends with the run: its stdin is a pipe), and prints the same record. */
import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { ensureBuilt } from './helpers/build.js';
import { spawnTool, startDemo, waitFor, type Demo } from './trace-harness.js';

// The binary runs dist/: build it from the current sources when it is older.
beforeAll(() => ensureBuilt(), 120_000);

const demos: Demo[] = [];
afterEach(async () => {
  for (const demo of demos.splice(0)) await demo.api.close();
});

async function demo(): Promise<Demo> {
  const d = await startDemo();
  demos.push(d);
  return d;
}

const INPUTS = ['--input', 'name=Rex', '--input', 'adopter=Ann'];

/** Reads an event stream for a moment; rejects when nothing listens. */
function readEvents(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      setTimeout(() => {
        res.destroy();
        resolve(body);
      }, 300);
    });
    req.on('error', reject);
    req.end();
  });
}

/** An address of this machine that is not loopback, if it has one. */
function externalAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

describe('tool arazzo run --inspect', () => {
  it('serves the run on 127.0.0.1, keeps it until Ctrl-C, and prints the same record as a plain run', async () => {
    const plainDemo = await demo();
    const plain = spawnTool(['arazzo', 'run', plainDemo.file, ...INPUTS], plainDemo.dir);
    expect(await plain.exit).toBe(0);

    const liveDemo = await demo();
    const live = spawnTool(['arazzo', 'run', liveDemo.file, ...INPUTS, '--inspect', '--inspect-hold'], liveDemo.dir);
    const [, url] = await waitFor(live.stderr, /inspect: live view at (http:\/\/127\.0\.0\.1:\d+\/[\w-]+\/) \(this machine only/, live.exit);
    await waitFor(live.stderr, /the run is over; the live view stays at .* until you press Ctrl-C/, live.exit);
    // stdout and stderr are separate pipes: wait for the whole record rather than trust their order.
    await waitFor(live.stdout, /\n}\n$/, live.exit);
    expect(live.stdout()).toBe(plain.stdout());

    const events = await readEvents(`${url}events`);
    expect(events).toContain('event: run\ndata: {"runId":');
    expect(events).toContain('"value":"succeeded"');
    expect(events).not.toMatch(/Rex|Ann/);

    const external = externalAddress();
    if (external) await expect(readEvents(`http://${external}:${new URL(url!).port}${new URL(url!).pathname}events`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });

    live.child.kill('SIGINT');
    expect(await live.exit).toBe(0);
    await expect(readEvents(`${url}events`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('keeps the run exit code of a failed workflow after Ctrl-C', async () => {
    const d = await demo();
    // Without --input name the first request cannot be built: the workflow fails (exit 1).
    const live = spawnTool(['arazzo', 'run', d.file, '--input', 'adopter=Ann', '--inspect-hold', '--quiet'], d.dir);
    await waitFor(live.stderr, /until you press Ctrl-C/, live.exit);
    expect(live.stderr()).toContain('error: workflow "adoptPet" failed');
    live.child.kill('SIGINT');
    expect(await live.exit).toBe(1);
  });

  it('ends the live view with the run when stdin is not a terminal, keeping the exit code', async () => {
    const d = await demo();
    const live = spawnTool(['arazzo', 'run', d.file, '--input', 'adopter=Ann', '--inspect', '--quiet'], d.dir);
    expect(await live.exit).toBe(1);
    expect(live.stderr()).toContain('inspect: the run is over; the live view ends with it');
  });
});
