/**
 * A secret is masked in every encoding a request or a server gives it (issue 23, item 12): a
 * secret input sent in a form field (URL-encoded, `+` for a space), echoed back as JSON (`\"`)
 * and as XML (`&quot;`) and in a binary body, and the bound API's Basic credential echoed by a server that returns the
 * request's headers and captured by a step output. None of these reach stdout, stderr, the
 * dry-run and --verbose lines, the trace or the HAR, JUnit and JSON reports.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRecord } from '../e2e/helpers/record.js';
import { startScriptedServer, type Hit, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace } from './run-in-workspace.js';

/** A password input with a space and characters that URL, JSON and XML encodings all change. */
const PASSWORD = `S3cret p@ss!"<&>'`;
/** The bound API's Basic password, and the credential the server receives. */
const BASIC_PASSWORD = 'B4sic p@ss"<&>';
const BASIC = Buffer.from(`alice:${BASIC_PASSWORD}`).toString('base64');

/** Every form the secrets take on the wire and in the server's answers. */
const FORMS = [
  PASSWORD,
  new URLSearchParams({ v: PASSWORD }).toString().slice(2), // S3cret+p%40ss%21%22%3C%26%3E%27
  encodeURIComponent(PASSWORD), // S3cret%20p%40ss!%22%3C%26%3E'
  JSON.stringify(PASSWORD).slice(1, -1), // S3cret p@ss!\"<&>'
  'S3cret p@ss!&quot;&lt;&amp;&gt;&#39;',
  BASIC_PASSWORD,
  JSON.stringify(BASIC_PASSWORD).slice(1, -1),
  BASIC,
];

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** Where `text` (and every string in it, parsed as JSON when it is JSON) shows a form of the secrets, as `what: form in …`. */
function leaksIn(what: string, text: string): string[] {
  const strings = [text];
  if (what.endsWith('.xml')) strings.push(text.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!));
  try {
    const walk = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
      // A HAR body kept as base64 (a binary response): its bytes.
      const { encoding, text: content } = (value ?? {}) as { encoding?: unknown; text?: unknown };
      if (encoding === 'base64' && typeof content === 'string') strings.push(Buffer.from(content, 'base64').toString('latin1'));
    };
    walk(JSON.parse(text));
  } catch {
    // Not JSON: the text alone.
  }
  const leaks = new Set<string>();
  for (const string of strings) for (const form of FORMS) if (string.includes(form)) leaks.add(`${what}: ${JSON.stringify(form)} in ${JSON.stringify(string.slice(Math.max(string.indexOf(form) - 40, 0), string.indexOf(form) + form.length + 20))}`);
  return [...leaks];
}

let server: ScriptedServer;
let ws: Workspace;

beforeAll(async () => {
  server = await startScriptedServer({
    'POST /login': (hit: Hit) => ({ body: { received: hit.body, pin: new URLSearchParams(hit.body).get('pin') } }),
    'POST /notes': (hit: Hit) => ({ headers: { 'content-type': 'application/xml' }, body: `<note>${xmlEscape(String((JSON.parse(hit.body) as { text: string }).text))}</note>` }),
    'GET /headers': (hit: Hit) => ({ body: { headers: hit.headers } }),
    'GET /blob': (hit: Hit) => ({ headers: { 'content-type': 'application/octet-stream' }, body: `\u0001pin=${new URLSearchParams({ v: String(hit.headers['x-pin']) }).toString().slice(2)}` }),
  });
  ws = makeWorkspace('tool-encoded-secrets-');
  ws.fixture('encoded-secrets.openapi.yaml');
  ws.fixture('encoded-secrets.arazzo.yaml');
  const tool = (args: string[], input?: string) => runInWorkspace(args, { cwd: ws.dir, ...(input === undefined ? {} : { input }) });
  expect((await tool(['api', 'add', 'echo', server.url])).code).toBe(0);
  expect((await tool(['auth', 'login', 'echo', '--type', 'basic', '--username', 'alice', '--password-stdin'], `${BASIC_PASSWORD}\n`)).code).toBe(0);
});

afterAll(async () => {
  await server.close();
  ws.remove();
});

const inputs = ['--input', 'user=alice', '--input', `password=${PASSWORD}`, '--input', 'expectedPin=nope'];
const run = (...args: string[]) => runInWorkspace(['arazzo', 'run', 'encoded-secrets.arazzo.yaml', ...inputs, ...args], { cwd: ws.dir });

describe('a secret in encoded form', () => {
  it('is masked in stdout, --verbose, the trace and the HAR, JUnit and JSON reports', async () => {
    const result = await run('--verbose', '--trace', 'run.trace', '--har', 'run.har', '--junit', 'run.xml', '--report', 'run.json');
    expect(result.code).toBe(1);
    // The server really received and echoed every form, so their absence below means something.
    expect(server.hits[0]?.body).toContain(FORMS[1]);
    expect(server.hits[2]?.headers.authorization).toBe(`Basic ${BASIC}`);
    const files = ['run.trace', 'run.har', 'run.xml', 'run.json'].flatMap((file) => leaksIn(file, readFileSync(join(ws.dir, file), 'utf8')));
    expect([...leaksIn('stdout', result.stdout), ...leaksIn('stderr', result.stderr), ...files]).toEqual([]);
    expect(result.stderr).toContain('user=alice&pin=***');
  });

  it('is masked in a dry run', async () => {
    const result = await run('--dry-run', '--verbose');
    expect(result.code).toBe(0);
    expect(leaksIn('stderr', result.stderr)).toEqual([]);
    expect(result.stderr).toContain('user=alice&pin=***');
  });

  it('keeps the bound API credential a step output captured out of the record on stdout, JSON and YAML', async () => {
    const result = await run();
    expect(result.code).toBe(1);
    expect(parseRecord(result.stdout).steps[2]?.outputs).toEqual({ authorization: '***' });
    const yaml = await run('--output', 'yaml');
    expect(yaml.stdout).toContain('authorization: "***"');
    expect([...leaksIn('stdout', result.stdout), ...leaksIn('stdout (yaml)', yaml.stdout)]).toEqual([]);
  });
});
