/**
 * A real MQTT broker on a free 127.0.0.1 port for the transport tests: Mosquitto when its binary
 * is installed (it speaks MQTT 5, which the transport uses by default), else aedes in this process
 * (MQTT 3.1.1 only: tests that need MQTT 5 properties skip themselves under it).
 * `TOOL_TEST_BROKER=aedes` (or `=mosquitto`) forces one.
 */

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export type BrokerKind = 'mosquitto' | 'aedes';

export interface Broker {
  kind: BrokerKind;
  /** `mqtt://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** The MQTT version the broker speaks best: 5 for Mosquitto, 4 (3.1.1) for aedes. */
  protocolVersion: 4 | 5;
  stop(): Promise<void>;
}

export interface BrokerOptions {
  /** When given, only this user name and password are accepted. */
  credentials?: { username: string; password: string };
  /** Overrides the choice (and TOOL_TEST_BROKER). */
  kind?: BrokerKind;
}

/** The mosquitto binary: on PATH or in /usr/sbin (not on a normal user's PATH on Debian). */
export function mosquittoBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin'];
  return dirs.map((dir) => join(dir, 'mosquitto')).find((path) => existsSync(path));
}

/** Which broker startBroker will use. */
export function brokerKind(): BrokerKind {
  const forced = process.env.TOOL_TEST_BROKER;
  if (forced === 'aedes' || forced === 'mosquitto') return forced;
  return mosquittoBinary() === undefined ? 'aedes' : 'mosquitto';
}

/** Starts a broker and waits until it accepts connections. */
export async function startBroker(options: BrokerOptions = {}): Promise<Broker> {
  const kind = options.kind ?? brokerKind();
  return kind === 'mosquitto' ? startMosquitto(options) : startAedes(options);
}

/** A port nothing listens on right now (bound once, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function startMosquitto(options: BrokerOptions): Promise<Broker> {
  const binary = mosquittoBinary();
  if (binary === undefined) throw new Error('TOOL_TEST_BROKER=mosquitto, but no mosquitto binary was found');
  const dir = mkdtempSync(join(tmpdir(), 'tool-mosquitto-'));
  const port = await freePort();
  const lines = [`listener ${port} 127.0.0.1`, 'persistence false', 'log_dest stderr', 'log_type error'];
  // Started as root, mosquitto would switch to the `mosquitto` user, who cannot read our files.
  if (process.getuid?.() === 0) lines.push('user root');
  if (options.credentials === undefined) lines.push('allow_anonymous true');
  else {
    const passwords = join(dir, 'passwords');
    const made = spawnSync('mosquitto_passwd', ['-b', '-c', passwords, options.credentials.username, options.credentials.password], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`mosquitto_passwd failed: ${made.stderr}`);
    lines.push('allow_anonymous false', `password_file ${passwords}`);
  }
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `${lines.join('\n')}\n`);
  const child = spawn(binary, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await waitForPort(port, child, () => stderr);
  } catch (error) {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    kind: 'mosquitto',
    url: `mqtt://127.0.0.1:${port}`,
    port,
    protocolVersion: 5,
    stop: async () => {
      await stopChild(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startAedes(options: BrokerOptions): Promise<Broker> {
  const { Aedes } = await import('aedes');
  const { credentials } = options;
  const broker = await Aedes.createBroker({
    ...(credentials !== undefined && {
      authenticate: (_client, username, password, done) => {
        const ok = username === credentials.username && password?.toString() === credentials.password;
        done(ok ? null : Object.assign(new Error('bad user name or password'), { returnCode: 4 as const }), ok);
      },
    }),
  });
  const server: Server = createServer(broker.handle);
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    kind: 'aedes',
    url: `mqtt://127.0.0.1:${port}`,
    port,
    protocolVersion: 4,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** Resolves once something accepts connections on the port; rejects if the child exits or 5 s pass. */
async function waitForPort(port: number, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited with ${child.exitCode}: ${output()}`);
    if (await accepts(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`mosquitto did not listen on ${port} within 5 s: ${output()}`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
