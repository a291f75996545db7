/**
 * A bare URL that belongs to a registered API is sent without its credentials; when it answers
 * 401 or 403, one line says which API it is and the command that sends them (never the secret).
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { sendJson, startServer, type TestServer } from '../unit/http/test-server.js';
import { tempHome, tool, type Home } from './auth-harness.js';

const TOKEN = 'tok-Hint-5a6b';

describe('direct calls: a 401 from a registered API\'s URL', () => {
  let home: Home;
  let api: TestServer;
  beforeEach(async () => {
    home = await tempHome();
    api = await startServer((hit, res) => {
      if (hit.url.startsWith('/v1/forbidden')) return sendJson(res, 403, { error: 'forbidden' });
      if (hit.headers.authorization === `Bearer ${TOKEN}`) return sendJson(res, 200, { me: 'alice' });
      sendJson(res, 401, { error: 'unauthorized' });
    });
  });
  afterEach(async () => {
    await api.close();
    await home.remove();
  });
  const run = (argv: string[], stdin?: string) => tool(argv, { env: home.env, ...(stdin !== undefined ? { stdin } : {}) });
  const logIn = async () => {
    expect((await run(['api', 'add', 'pets', `${api.origin}/v1`])).code).toBe(0);
    expect((await run(['auth', 'login', 'pets', '--type', 'bearer', '--with-token'], TOKEN)).code).toBe(0);
  };

  it('names the API and the command that sends its credentials', async () => {
    await logIn();
    const bare = await run(['get', `${api.origin}/v1/me`]);
    expect(bare.stderr).toBe('HTTP 401 Unauthorized\nhint: this URL is API "pets"\'s: tool get pets/me sends its credentials\n');
    expect(bare.stderr).not.toContain(TOKEN);
    const named = await run(['get', 'pets/me']);
    expect(named.stdout).toBe('{"me":"alice"}');
  });

  it('gives the hint for a 403 and with --fail, with the query masked where secret-like', async () => {
    await logIn();
    const forbidden = await run(['delete', `${api.origin}/v1/forbidden?id=3&api_key=k-Secret-77`, '--fail']);
    expect(forbidden.code).toBe(1);
    expect(forbidden.stderr).toContain('hint: this URL is API "pets"\'s: tool delete pets/forbidden?id=3&api_key=*** sends its credentials\n');
    expect(forbidden.stderr).not.toContain('k-Secret-77');
  });

  it('says nothing of a URL outside the base URL\'s path, or of an API without credentials', async () => {
    await logIn();
    const outside = await run(['get', `${api.origin}/v10/me`]);
    expect(outside.stderr).toBe('HTTP 401 Unauthorized\n');
    expect((await run(['api', 'add', 'open', `${api.origin}/v2`])).code).toBe(0);
    const open = await run(['get', `${api.origin}/v2/me`]);
    expect(open.stderr).toBe('HTTP 401 Unauthorized\n');
  });
});
