/**
 * What a run may take from the earlier runs of the same process: `arazzo test` runs a document's
 * workflow hundreds of times, and each run would read, parse and validate the same document and
 * read the same descriptions again. A memo keeps each value made under a key (a promise: its
 * result, or its error) for the memo's life, which is the suite's: documents do not change under
 * a suite (it planned them before the first run).
 */
export interface RunMemo {
  /** The value kept under `key`, made by `make` the first time. */
  get<T>(key: string, make: () => T): T;
}

/** An empty memo. */
export function createRunMemo(): RunMemo {
  const values = new Map<string, unknown>();
  return {
    get<T>(key: string, make: () => T): T {
      if (values.has(key)) return values.get(key) as T;
      const value = make();
      values.set(key, value);
      return value;
    },
  };
}
