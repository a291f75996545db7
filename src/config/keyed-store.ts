/** A versioned JSON file holding one object per API name: `{ "version": 1, "<section>": { "<api>": {...} } }`. */

import { withConfigLock, type ConfigLock } from './config-lock.js';
import { FILE_VERSION, readConfigFile } from './read-config-file.js';
import { objectAt, type Path } from './shape.js';
import { writeConfigJson } from './write-config-json.js';

export interface KeyedStore<T> {
  /** Entries by API name (empty when the file does not exist); throws ConfigError for a broken file. */
  read(): Promise<Map<string, T>>;
  /**
   * Takes the configuration lock, reads the file, lets `change` edit the entries and writes them
   * back atomically. A broken or read-only file throws before anything is written; a file that did
   * not exist is not created just to stay empty.
   */
  update(change: (entries: Map<string, T>) => void): Promise<void>;
  /** As update(), for a caller that already holds the lock because it changes several files together. */
  updateLocked(lock: ConfigLock, change: (entries: Map<string, T>) => void): Promise<void>;
}

export interface KeyedStoreSpec<T> {
  path: string;
  section: string;
  /** The config folder, home of the lock every writer takes. */
  configDir: string;
  /** Holds secrets: errors show no excerpt of the file. */
  secret: boolean;
  /** Reads one entry; throws ShapeProblem for a bad field. */
  parseEntry(value: unknown, path: Path, name: string): T;
  /** The JSON form of one entry. */
  toJson(entry: T): unknown;
}

/** A store over one file; nothing is read until read() or update() is called. */
export function keyedStore<T>(spec: KeyedStoreSpec<T>): KeyedStore<T> {
  const load = async (): Promise<Map<string, T> | undefined> =>
    readConfigFile({
      path: spec.path,
      secret: spec.secret,
      parse: (doc) => {
        const section = objectAt(doc[spec.section] ?? {}, [spec.section]);
        const entries = new Map<string, T>();
        for (const [name, value] of Object.entries(section)) entries.set(name, spec.parseEntry(value, [spec.section, name], name));
        return entries;
      },
    });
  // Only ever called with the lock held, so the file read here is the one the write replaces.
  const readModifyWrite = async (change: (entries: Map<string, T>) => void): Promise<void> => {
    const existing = await load();
    const entries = existing ?? new Map<string, T>();
    change(entries);
    if (existing === undefined && entries.size === 0) return;
    const section = Object.fromEntries([...entries].map(([name, entry]) => [name, spec.toJson(entry)]));
    await writeConfigJson(spec.path, { version: FILE_VERSION, [spec.section]: section });
  };
  return {
    async read() {
      return (await load()) ?? new Map();
    },
    update: (change) => withConfigLock({ configDir: spec.configDir }, () => readModifyWrite(change)),
    updateLocked: (_lock, change) => readModifyWrite(change),
  };
}
