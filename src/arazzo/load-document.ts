import { readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ArazzoLoadError } from './errors.js';
import type { LoadedDocument } from './model.js';
import { documentFromValue, parseDocumentValue } from './parse-document-text.js';
import type { RawObject } from './read-fields.js';
import { openForReading } from './open-for-reading.js';
import { readBoundedText } from './read-bounded.js';

/** Where parsed documents are kept from one run to the next, by their text (src/cache/document-store.ts). */
export interface ParsedDocuments {
  /** The value stored for exactly this text, or undefined. Never throws. */
  read(text: string): Promise<RawObject | undefined>;
  /** Keeps the value parsed from this text (a tree: no aliases). Never throws. */
  write(text: string, value: RawObject): Promise<void>;
}

export interface LoadOptions {
  /** Directory relative paths are resolved against. */
  cwd: string;
  /** Largest file accepted, in bytes; default 10 MiB. */
  maxBytes?: number;
  /** Alias expansions allowed; default 100. */
  maxAliasCount?: number;
  /** Parsed documents by their text: an unchanged document is not parsed again. */
  store?: ParsedDocuments;
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * Reads and parses an Arazzo document (YAML or JSON) from disk. Throws ArazzoLoadError: FILE_NOT_FOUND,
 * IS_A_DIRECTORY, FILE_TOO_LARGE, FILE_UNREADABLE (exit 2) or a parse error (exit 10).
 *
 * With a `store`, the value is read back from it when the same text was parsed before, and a value
 * that is a tree (no aliases) is stored after its parse. A text that does not parse
 * is never stored, so its errors are reported on every load.
 */
export async function loadDocument(file: string, options: LoadOptions): Promise<LoadedDocument> {
  const absolutePath = resolve(options.cwd, file);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const text = await readLimited(file, absolutePath, maxBytes);
  const stored = await options.store?.read(text);
  if (stored !== undefined) return documentFromValue(stored, text, file, absolutePath);
  const parsed = parseDocumentValue(text, file, options.maxAliasCount === undefined ? {} : { maxAliasCount: options.maxAliasCount });
  if (parsed.tree) await options.store?.write(text, parsed.value);
  return documentFromValue(parsed.value, text, file, absolutePath);
}

async function readLimited(file: string, absolutePath: string, maxBytes: number): Promise<string> {
  try {
    const { handle, info, kind } = await openForReading(absolutePath);
    try {
      if (kind === 'directory') {
        throw new ArazzoLoadError('IS_A_DIRECTORY', `${file} is a directory, not a workflow document`, file, undefined, await suggestIn(absolutePath, file));
      }
      if (kind === 'special') {
        throw new ArazzoLoadError('FILE_UNREADABLE', `${file} is not a regular file (a FIFO, a device or a socket); refusing to read it`, file, undefined, 'Give the path of an Arazzo document saved as a file.');
      }
      // At most maxBytes + 1 bytes are read, so a huge file (or one that grows) is refused without reading it all.
      const tooLarge = () => new ArazzoLoadError('FILE_TOO_LARGE', `${file} is larger than ${formatBytes(maxBytes)}; refusing to load it`, file, undefined, 'Arazzo documents are small; check that this is the right file.');
      return await readBoundedText(handle, info.size, maxBytes, tooLarge);
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof ArazzoLoadError) throw error;
    throw fileError(error as NodeJS.ErrnoException, file, absolutePath);
  }
}

function fileError(error: NodeJS.ErrnoException, file: string, absolutePath: string): ArazzoLoadError {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return new ArazzoLoadError('FILE_NOT_FOUND', `${file}: no such file`, file, undefined, `Check the path (looked for ${absolutePath}).`);
    case 'EISDIR':
      return new ArazzoLoadError('IS_A_DIRECTORY', `${file} is a directory, not a workflow document`, file);
    case 'EACCES':
    case 'EPERM':
      return new ArazzoLoadError('FILE_UNREADABLE', `${file}: permission denied`, file, undefined, 'Check the file permissions, or copy the file somewhere readable.');
    default:
      return new ArazzoLoadError('FILE_UNREADABLE', `${file} cannot be read: ${error.message}`, file);
  }
}

async function suggestIn(directory: string, file: string): Promise<string> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const documents = names.filter((name) => /\.arazzo\.(ya?ml|json)$/i.test(name)).sort();
  const sep = file.endsWith('/') ? '' : '/';
  if (documents.length === 0) return 'Give the path of an Arazzo document (a *.arazzo.yaml file).';
  return `Give the path of an Arazzo document, e.g. ${documents.slice(0, 3).map((name) => `${file}${sep}${name}`).join(', ')}`;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}
