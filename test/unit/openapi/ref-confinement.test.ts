/**
 * Where a description and its `$ref`s may read from: the Arazzo document's folder, never tool's
 * own folders, regular files only, 10 MiB; refs in extensions are never followed; YAML alias
 * bombs and very long pointers are refused; a remote description's refs stay on its origin.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescriptionError } from '../../../src/openapi/errors.js';
import { loadDescription, type LoadDescriptionOptions } from '../../../src/openapi/load-description.js';

let root: string;
let project: string;
let flow: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tool-ref-confinement-'));
  project = join(root, 'project');
  flow = join(project, 'flow.arazzo.yaml');
  await mkdir(join(root, 'config', 'tool'), { recursive: true });
  await mkdir(project, { recursive: true });
  await writeFile(join(root, 'config', 'tool', 'credentials.json'), JSON.stringify({ credentials: { github: { secret: 's3cr3t' } } }));
  await writeFile(join(root, 'outside.yaml'), 'Limit: { name: limit, in: query }\n');
  await writeFile(join(project, 'common.yaml'), 'Limit: { name: limit, in: query }\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A description whose one operation has a parameter `$ref: ref`, and `extra` YAML at the top. */
function description(ref: string, extra = ''): string {
  return `openapi: 3.0.3\ninfo: {title: t, version: '1'}\n${extra}paths:\n  /a:\n    get:\n      operationId: a\n      parameters:\n        - $ref: '${ref}'\n      responses: {'200': {description: ok}}\n`;
}

const noFetch = async (url: string): Promise<string> => {
  throw new Error(`no fetch of ${url}`);
};

async function failure(promise: Promise<unknown>): Promise<DescriptionError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DescriptionError) return err;
    throw err;
  }
  throw new Error('expected a DescriptionError');
}

async function load(name: string, text: string, options: Partial<LoadDescriptionOptions> = {}) {
  await writeFile(join(project, name), text);
  return loadDescription(name, { baseFile: flow, fetchText: noFetch, ...options });
}

describe('file $refs', () => {
  it('follows a file $ref inside the Arazzo document folder', async () => {
    const loaded = await load('inside.yaml', description('./common.yaml#/Limit'));
    expect(loaded.operations.get('a')?.parameters[0]?.name).toBe('limit');
  });

  it("refuses a $ref that leaves the Arazzo document's folder, naming the ref and the rule", async () => {
    const err = await failure(load('up.yaml', description('../config/tool/credentials.json#/credentials/github/secret')));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain(`${join(project, 'up.yaml')}#/paths/~1a/get/parameters/0: $ref "../config/tool/credentials.json#/credentials/github/secret" is refused`);
    expect(err.message).toContain(`outside the allowed folder (files must stay inside ${project})`);
    expect(err.message).not.toContain('s3cr3t');
  });

  it('refuses a symlink inside the folder whose real path is outside it', async () => {
    await symlink(join(root, 'outside.yaml'), join(project, 'link.yaml'));
    const err = await failure(load('via-link.yaml', description('./link.yaml#/Limit')));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain(`it resolves to ${join(root, 'outside.yaml')}, outside the allowed folder`);
  });

  it("refuses tool's own config and cache folders even inside the Arazzo document's folder", async () => {
    const denied = join(project, 'home', '.config', 'tool');
    await mkdir(denied, { recursive: true });
    await writeFile(join(denied, 'credentials.json'), '{"Limit": {"name": "limit", "in": "query"}}');
    const err = await failure(load('into-config.yaml', description('./home/.config/tool/credentials.json#/Limit'), { policy: { denied: [denied] } }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain(`inside tool's own folder ${denied}`);
  });

  it('refuses a FIFO at once, without waiting for a writer', async () => {
    execFileSync('mkfifo', [join(project, 'pipe.yaml')]);
    const started = Date.now();
    const err = await failure(load('fifo.yaml', description('./pipe.yaml#/Limit')));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain('is not a regular file');
  });

  it('refuses a device such as /dev/zero even where the folder rule allows it', async () => {
    const err = await failure(load('zero.yaml', description('/dev/zero#/Limit'), { policy: { roots: ['/'] } }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain('$ref "/dev/zero#/Limit" is refused: is not a regular file');
  });

  it('refuses a $ref target, and a description, larger than the cap', async () => {
    await writeFile(join(project, 'big.yaml'), `Limit: { name: limit, in: query }\npad: '${'x'.repeat(4096)}'\n`);
    const ref = await failure(load('to-big.yaml', description('./big.yaml#/Limit'), { policy: { maxBytes: 2048 } }));
    expect(ref.code).toBe('DESCRIPTION_REFUSED');
    expect(ref.message).toContain('$ref "./big.yaml#/Limit" is refused: is larger than 2 KiB');
    const source = await failure(load('itself-big.yaml', description('#/x', `x-pad: '${'x'.repeat(4096)}'\n`), { policy: { maxBytes: 2048 } }));
    expect(source.code).toBe('DESCRIPTION_REFUSED');
    expect(source.message).toBe(`${join(project, 'itself-big.yaml')}: refusing to read the description: is larger than 2 KiB; refusing to read it`);
  });
});

describe('source descriptions', () => {
  it("refuses a description outside the Arazzo document's folder", async () => {
    await writeFile(join(root, 'elsewhere.yaml'), description('#/components/parameters/L', 'components: {parameters: {L: {name: l, in: query}}}\n'));
    const err = await failure(loadDescription(join(root, 'elsewhere.yaml'), { baseFile: flow, fetchText: noFetch }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain(`${join(root, 'elsewhere.yaml')}: refusing to read the description: it resolves to`);
  });

  it('reads a description the user named explicitly wherever it is, its refs confined to its own folder', async () => {
    const named = await loadDescription(join(root, 'elsewhere.yaml'), { baseFile: flow, fetchText: noFetch, policy: { roots: [], explicitSource: true } });
    expect(named.operations.has('a')).toBe(true);
    await mkdir(join(root, 'named'), { recursive: true });
    await writeFile(join(root, 'named', 'api.yaml'), description('../config/tool/credentials.json#/credentials'));
    const err = await failure(loadDescription(join(root, 'named', 'api.yaml'), { baseFile: flow, fetchText: noFetch, policy: { roots: [], explicitSource: true } }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
  });
});

describe('refs the resolver must not follow', () => {
  it('ignores $refs inside x- extensions, examples and links, even to missing or Markdown files', async () => {
    await writeFile(join(project, 'README.md'), '# Not YAML: {{\n');
    const extra = "x-docs: {$ref: './README.md'}\nx-gone: {$ref: './missing.yaml#/x'}\ncomponents: {examples: {e: {$ref: './missing-example.json'}}}\n";
    const loaded = await load('extensions.yaml', description('./common.yaml#/Limit', extra));
    expect(loaded.operations.get('a')?.parameters[0]?.name).toBe('limit');
  });

  it('refuses a YAML alias bomb in a description and in a $ref target', async () => {
    const bomb = "x-a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nx-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nx-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nx-d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n";
    const own = await failure(load('bomb.yaml', description('#/x-a', bomb)));
    expect(own.code).toBe('DESCRIPTION_REFUSED');
    expect(own.message).toBe(`${join(project, 'bomb.yaml')}: YAML aliases expand to too many nodes (more than 100 alias uses); refusing to expand a possible "billion laughs" document (write the repeated values out)`);
    await writeFile(join(project, 'bomb-target.yaml'), `Limit: {name: limit, in: query}\n${bomb}`);
    const target = await failure(load('to-bomb.yaml', description('./bomb-target.yaml#/Limit')));
    expect(target.code).toBe('DESCRIPTION_REFUSED');
    expect(target.message).toContain('YAML aliases expand to too many nodes');
  });

  it('refuses a JSON pointer of 50,000 segments at once', async () => {
    const started = Date.now();
    const err = await failure(load('long-pointer.yaml', description(`#/${'a/'.repeat(49_999)}a`)));
    expect(Date.now() - started).toBeLessThan(1000);
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toMatch(/#\/paths\/~1a\/get\/parameters\/0: \$ref "#\/a\/a.*… \(100001 characters\)" has more than 128 JSON pointer segments/);
  });
});

describe('remote $refs', () => {
  const api = 'https://specs.example.com/v1/api.yaml';
  const common = 'Limit: { name: limit, in: query }\n';

  function pages(texts: Record<string, string>, redirects: Record<string, string> = {}) {
    const asked: string[] = [];
    const fetchText = async (url: string) => {
      asked.push(url);
      const text = texts[url];
      if (text === undefined) throw new Error(`HTTP 404 for ${url}`);
      return { text, url: redirects[url] ?? url };
    };
    return { fetchText, asked };
  }

  it("refuses a remote description's $ref to another host, naming the flag, and fetches nothing for it", async () => {
    const { fetchText, asked } = pages({ [api]: description('http://169.254.169.254/latest/meta-data#/Limit') });
    const err = await failure(loadDescription(api, { baseFile: flow, fetchText }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toBe(
      `${api}#/paths/~1a/get/parameters/0: $ref "http://169.254.169.254/latest/meta-data#/Limit" is refused: a remote description's $refs must stay on its origin (https://specs.example.com), and 169.254.169.254 is not allowed; pass --tool-allow-ref-host 169.254.169.254 if you trust it`,
    );
    expect(asked).toEqual([api]);
  });

  it('follows a $ref on the same origin, and one to a host the user allowed', async () => {
    const { fetchText, asked } = pages({
      [api]: description('https://schemas.example.org/common.yaml#/Limit'),
      'https://schemas.example.org/common.yaml': common,
    });
    const loaded = await loadDescription(api, { baseFile: flow, fetchText, policy: { allowRefHosts: ['schemas.example.org'] } });
    expect(loaded.operations.get('a')?.parameters[0]?.name).toBe('limit');
    expect(asked).toEqual([api, 'https://schemas.example.org/common.yaml']);
    const same = pages({ [api]: description('common.yaml#/Limit'), 'https://specs.example.com/v1/common.yaml': common });
    expect((await loadDescription(api, { baseFile: flow, fetchText: same.fetchText })).operations.has('a')).toBe(true);
  });

  it('refuses a same-origin $ref that redirected to another host', async () => {
    const target = 'https://specs.example.com/v1/common.yaml';
    const { fetchText } = pages({ [api]: description('common.yaml#/Limit'), [target]: common }, { [target]: 'http://127.0.0.1:9/common.yaml' });
    const err = await failure(loadDescription(api, { baseFile: flow, fetchText }));
    expect(err.code).toBe('DESCRIPTION_REFUSED');
    expect(err.message).toContain('is refused: it redirected to http://127.0.0.1:9/common.yaml');
  });
});
