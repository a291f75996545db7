/**
 * An OAuth endpoint that cannot be reached (connection refused, no such host) is an ordinary
 * error: one `error:` line naming the endpoint, one line saying what to do, exit 1, nothing stored.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closedPort, sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { tempHome, tool, type Home, type Outcome } from './auth-harness.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/run/', import.meta.url));
const HINT = '  Check the endpoint URL and the network connection, then try again.\n';

describe('tool auth login when an OAuth endpoint cannot be reached', () => {
  let home: Home;
  let servers: TestServer[];
  beforeEach(async () => {
    home = await tempHome();
    servers = [];
  });
  afterEach(async () => {
    for (const server of servers) await server.close();
    await home.remove();
  });

  const run = (argv: string[], stdin?: string, env: Record<string, string> = {}): Promise<Outcome> =>
    tool(argv, { env: { ...home.env, ...env }, cwd: FIXTURES, ...(stdin === undefined ? {} : { stdin }) });
  const addApi = async (name = 'pets') => {
    const added = await run(['api', 'add', name, 'http://127.0.0.1:9/v1']);
    expect(added.stderr).not.toContain('error');
    expect(added.code).toBe(0);
  };
  const nothingStored = async () => {
    await expect(stat(join(home.configDir, 'credentials.json'))).rejects.toThrow();
    await expect(stat(join(home.cacheDir, 'tokens.json'))).rejects.toThrow();
  };
  /** A device authorization endpoint that hands out a code to poll for at once. */
  const deviceEndpoint = async () => {
    const server = await startServer((_hit, res) => sendJson(res, 200, { device_code: 'd', user_code: 'U-1', verification_uri: 'https://example.com/device', interval: 1, expires_in: 600 }));
    servers.push(server);
    return `${server.origin}/device`;
  };

  it('exits 1 naming the token endpoint when the connection is refused (client credentials)', async () => {
    await addApi();
    const tokenUrl = `http://127.0.0.1:${await closedPort()}/token`;
    const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-client-credentials', '--token-url', tokenUrl, '--client-id', 'c', '--client-secret-stdin'], 'client-s3cret');
    expect(login.code).toBe(1);
    expect(login.stderr).toBe(`error: could not reach the OAuth endpoint ${tokenUrl}: connection refused\n${HINT}`);
    await nothingStored();
  });

  it('exits 1 naming the token endpoint when its host does not resolve', async () => {
    await addApi();
    const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-client-credentials', '--token-url', 'https://tool-test.invalid/oauth/token', '--client-id', 'c', '--client-secret-stdin'], 'client-s3cret');
    expect(login.code).toBe(1);
    expect(login.stderr).toMatch(/^error: could not reach the OAuth endpoint https:\/\/tool-test\.invalid\/oauth\/token: (host not found|DNS lookup failed \(temporary\))\n/);
    expect(login.stderr.endsWith(HINT)).toBe(true);
    expect(login.stderr.split('\n')).toHaveLength(3);
    await nothingStored();
  });

  it('exits 1 naming the device authorization endpoint when the connection is refused', async () => {
    await addApi();
    const deviceUrl = `http://127.0.0.1:${await closedPort()}/device`;
    const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-device-code', '--device-url', deviceUrl, '--token-url', 'http://127.0.0.1:9/token', '--client-id', 'c']);
    expect(login.code).toBe(1);
    expect(login.stderr).toBe(`error: could not reach the OAuth endpoint ${deviceUrl}: connection refused\n${HINT}`);
    await nothingStored();
  });

  it('exits 1 naming the token endpoint when a device code poll is refused', async () => {
    await addApi();
    const tokenUrl = `http://127.0.0.1:${await closedPort()}/token`;
    const login = await run(['auth', 'login', 'pets', '--type', 'oauth2-device-code', '--device-url', await deviceEndpoint(), '--token-url', tokenUrl, '--client-id', 'c']);
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('enter the code: U-1');
    expect(login.stderr.endsWith(`error: could not reach the OAuth endpoint ${tokenUrl}: connection refused\n${HINT}`)).toBe(true);
    await nothingStored();
  });

  it('fails a direct call with one error naming the token endpoint when a token cannot be fetched', async () => {
    const tokenUrl = `http://127.0.0.1:${await closedPort()}/token`;
    await addApi();
    // Not verified at login (the variable is unset), so the first request asks for the token.
    expect((await run(['auth', 'login', 'pets', '--type', 'oauth2-client-credentials', '--token-url', tokenUrl, '--client-id', 'c', '--client-secret-env', 'PETS_SECRET'])).code).toBe(0);
    const call = await run(['get', 'pets/items'], undefined, { PETS_SECRET: 'client-s3cret' });
    expect(call.code).toBe(1);
    expect(call.stderr).toBe(`error: could not reach the OAuth endpoint ${tokenUrl}: connection refused\n${HINT}`);
  });

  it('fails a workflow step with the token endpoint and its fix, not an internal error, when a token cannot be fetched', async () => {
    const tokenUrl = `http://127.0.0.1:${await closedPort()}/token`;
    await addApi('secure');
    expect((await run(['auth', 'login', 'secure', '--type', 'oauth2-client-credentials', '--token-url', tokenUrl, '--client-id', 'c', '--client-secret-env', 'SECURE_SECRET'])).code).toBe(0);
    const result = await run(['arazzo', 'run', 'binding-name-match.arazzo.yaml'], undefined, { SECURE_SECRET: 'client-s3cret' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`could not reach the OAuth endpoint ${tokenUrl}: connection refused (Check the endpoint URL and the network connection, then try again.)`);
    expect(result.stderr).not.toContain('internal error');
  });
});
