/** Copies official Arazzo examples into a workspace, with their descriptions pointed at a local server. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { fillTemplate, type Workspace } from './workspace.js';

/** The official examples (read only). */
export const OFFICIAL_EXAMPLES = fileURLToPath(new URL('../../fixtures/arazzo-examples/examples/1.0.0', import.meta.url));
/** Local stand-ins for descriptions the official examples reference but do not ship. */
export const OFFICIAL_FIXTURES = fileURLToPath(new URL('../../fixtures/official/', import.meta.url));

/** Copies an official file into the workspace, after applying `edits` (exact text replacements that must each match). Returns its path. */
export function copyOfficial(ws: Workspace, name: string, edits: Array<[from: string, to: string]> = [], as = name): string {
  let text = readFileSync(join(OFFICIAL_EXAMPLES, name), 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`${name} does not contain ${JSON.stringify(from)}`);
    text = text.split(from).join(to);
  }
  return ws.write(as, text);
}

/** Copies an official OpenAPI description with `servers` replaced by one entry, `serverUrl`. Returns its path. */
export function copyOfficialDescription(ws: Workspace, name: string, serverUrl: string, as = name): string {
  const description = parse(readFileSync(join(OFFICIAL_EXAMPLES, name), 'utf8')) as Record<string, unknown>;
  description.servers = [{ url: serverUrl }];
  return ws.write(as, stringify(description));
}

/** Writes a stand-in description from test/fixtures/official/ with `{{BASE_URL}}` filled in. Returns its path. */
export function writeStandIn(ws: Workspace, name: string, baseUrl: string, as = name): string {
  return ws.write(as, fillTemplate(readFileSync(join(OFFICIAL_FIXTURES, name), 'utf8'), { BASE_URL: baseUrl }));
}
