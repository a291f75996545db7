/** Parsed operation indexes on disk, so a second run does not parse a large description again. */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../config/write-file-atomic.js';
import type { Operation, OpenApiDescription } from '../openapi/types.js';
import { VERSION } from '../version.js';
import { markUsed } from './evict-entries.js';
import { sha256 } from './sha256.js';

/** What the index was built from: the text of a fetched body or a local file, by its SHA-256. */
export interface ParsedSource {
  bodyHash: string;
}

export interface ParsedStore {
  /** The index built from exactly `source` by this version of tool, or undefined. */
  read(location: string, source: ParsedSource): Promise<OpenApiDescription | undefined>;
  /** Stores the index; a description that cannot be serialised (a cyclic schema) is skipped. Throws the fs error. */
  write(location: string, source: ParsedSource, description: OpenApiDescription): Promise<void>;
}

/** Bumped whenever the serialised shape changes; the tool version is part of the key too (a new parser may index differently). */
const PARSED_FORMAT = 5;

/**
 * The parsed-index store in `dir`; one file per location, replaced when its source changes.
 * `afterWrite` receives the file just written (the cache's size cap runs there).
 */
export function parsedStore(dir: string, afterWrite: (files: string[]) => Promise<void> = async () => undefined): ParsedStore {
  const pathOf = (location: string) => join(dir, `${sha256(location)}.json`);
  return {
    async read(location, source) {
      const text = await readFile(pathOf(location), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      try {
        const raw = JSON.parse(text) as Record<string, unknown>;
        if (raw.format !== PARSED_FORMAT || raw.tool !== VERSION || raw.location !== location || !sameSource(raw.source, source)) return undefined;
        const description = toDescription(raw.description, location);
        if (description !== undefined) await markUsed(pathOf(location));
        return description;
      } catch {
        return undefined;
      }
    },
    async write(location, source, description) {
      let text: string;
      try {
        const serialised = { ...description, operations: [...description.operations] };
        text = JSON.stringify({ format: PARSED_FORMAT, tool: VERSION, location, source, description: serialised });
      } catch {
        // A recursive parameter schema is a cyclic graph after dereferencing: not worth a custom encoding.
        return;
      }
      await writeFileAtomic(pathOf(location), text, { mode: 0o600, dirMode: 0o700 });
      await afterWrite([pathOf(location)]);
    },
  };
}

function sameSource(stored: unknown, wanted: ParsedSource): boolean {
  if (stored === null || typeof stored !== 'object') return false;
  return (stored as Record<string, unknown>).bodyHash === wanted.bodyHash;
}

/** Rebuilds the description, checking the shape enough that a damaged file is a miss and never a crash later. */
function toDescription(raw: unknown, location: string): OpenApiDescription | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const d = raw as Record<string, unknown>;
  if (d.location !== location || typeof d.version !== 'string' || !isStringArray(d.servers) || !Array.isArray(d.operations)) return undefined;
  const operations = new Map<string, Operation>();
  for (const pair of d.operations as unknown[]) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string' || !isOperation(pair[1], pair[0])) return undefined;
    operations.set(pair[0], pair[1]);
  }
  const unnamed = d.unnamedOperations;
  if (unnamed !== undefined && (!Array.isArray(unnamed) || !unnamed.every((op) => isOperation(op, (op as { operationId?: unknown } | null)?.operationId)))) return undefined;
  return {
    location,
    version: d.version,
    ...(typeof d.title === 'string' ? { title: d.title } : {}),
    servers: d.servers,
    operations,
    ...(unnamed !== undefined ? { unnamedOperations: unnamed as Operation[] } : {}),
    ...(isObject(d.responseSchemas) ? { responseSchemas: d.responseSchemas } : {}),
  };
}

function isOperation(value: unknown, operationId: unknown): value is Operation {
  if (value === null || typeof value !== 'object') return false;
  const op = value as Record<string, unknown>;
  return (
    typeof operationId === 'string' &&
    op.operationId === operationId &&
    typeof op.method === 'string' &&
    typeof op.path === 'string' &&
    typeof op.pointer === 'string' &&
    isStringArray(op.servers) &&
    Array.isArray(op.parameters) &&
    Array.isArray(op.pathTemplate)
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
