/**
 * The real binary facing configuration it must not change: read-only folders and files are refused
 * with exit 2 and left as they are, and disagreeing files stop a request instead of letting it go
 * out without credentials. (Tests run as root, who may write anyway: tool checks the mode bits.)
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt } from './helpers/build.js';
import { runTool } from './helpers/run-tool.js';
import { startScriptedServer, type ScriptedServer } from './helpers/scripted-server.js';
import { runToolWithInput } from './helpers/tool-with-input.js';
import { makeWorkspace, type Workspace } from './helpers/workspace.js';

let ws: Workspace;
let server: ScriptedServer;

beforeAll(async () => {
  await ensureBuilt();
  server = await startScriptedServer({ 'GET /v1/pets': { body: { ok: true } } });
}, 180_000);
afterAll(() => server.close());
beforeEach(() => {
  ws = makeWorkspace('tool-permissions-');
});
afterEach(() => {
  chmodSync(join(ws.dir, 'config', 'tool'), 0o700);
  ws.remove();
});

const tool = (args: readonly string[]) => runTool(args, { cwd: ws.dir });
const configDir = () => join(ws.dir, 'config', 'tool');
const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('configuration files tool may not change', () => {
  it('refuses to write into a read-only (0500) config folder, naming it, and leaves it 0500', async () => {
    expect((await tool(['api', 'add', 'pets', `${server.url}/v1`])).code).toBe(0);
    const before = readFileSync(join(configDir(), 'apis.json'), 'utf8');
    chmodSync(configDir(), 0o500);
    const result = await tool(['api', 'add', 'billing', 'https://billing.example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${configDir()} is read-only (mode 0500)`);
    expect(result.stderr).toContain(`chmod u+w ${configDir()}`);
    expect(result.stderr.trim().split('\n')).toHaveLength(2);
    expect(modeOf(configDir())).toBe(0o500);
    expect(readFileSync(join(configDir(), 'apis.json'), 'utf8')).toBe(before);
  });

  it('refuses to replace a 0400 credentials.json and writes none of the other files', async () => {
    expect((await tool(['api', 'add', 'pets', `${server.url}/v1`])).code).toBe(0);
    expect((await runToolWithInput(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], { cwd: ws.dir, input: 'tok-1' })).code).toBe(0);
    const credentials = join(configDir(), 'credentials.json');
    const [credentialsBefore, apisBefore] = [readFileSync(credentials, 'utf8'), readFileSync(join(configDir(), 'apis.json'), 'utf8')];
    chmodSync(credentials, 0o400);
    const result = await runToolWithInput(['auth', 'login', 'pets', '--type', 'basic', '--username', 'me', '--password-stdin'], { cwd: ws.dir, input: 'pw-2' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${credentials} is read-only (mode 0400)`);
    expect(modeOf(credentials)).toBe(0o400);
    expect(readFileSync(credentials, 'utf8')).toBe(credentialsBefore);
    expect(readFileSync(join(configDir(), 'apis.json'), 'utf8')).toBe(apisBefore);
  });

  it('stops a request, instead of sending it without credentials, when credentials.json has a secret for an API apis.json records without auth', async () => {
    expect((await tool(['api', 'add', 'pets', `${server.url}/v1`])).code).toBe(0);
    // What an interrupted login, or two logins racing without a lock, could leave behind.
    writeFileSync(join(configDir(), 'credentials.json'), JSON.stringify({ version: 1, credentials: { pets: { secret: 'tok-1' } } }), { mode: 0o600 });
    server.setRoutes({ 'GET /v1/pets': { body: { ok: true } } });
    const result = await tool(['get', 'pets/pets']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('holds a credential for API "pets"');
    expect(result.stderr).toContain('tool auth login pets');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.count('GET /v1/pets')).toBe(0);
  });
});
