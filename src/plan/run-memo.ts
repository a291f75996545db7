/**
 * What a run may take from the earlier runs of the same process: `arazzo test` runs a document's
 * workflow hundreds of times, and each run would read, parse and validate the same document and
 * read the same descriptions again. A memo keeps each value made under a key (a promise: its
 * result, or its error) for the memo's life, which is the suite's: documents do not change under
 * a suite (it planned them before the first run). A promise that rejects is forgotten, so that
 * the next run makes the value again.
 */
export interface RunMemo {
  /** The value kept under `key`, made by `make` the first time. */
  get<T>(key: string, make: () => T): T;
  /** Drops the value kept under `key`: the next `get` makes it again. */
  forget(key: string): void;
}

/** An empty memo. */
export function createRunMemo(): RunMemo {
  const values = new Map<string, unknown>();
  return {
    get<T>(key: string, make: () => T): T {
      if (values.has(key)) return values.get(key) as T;
      const value = make();
      values.set(key, value);
      // A failure is not kept: a description that could not be fetched once (a server's hiccup
      // in a load run) is fetched again by the next run, not failed for the rest of the suite.
      if (isThenable(value)) value.then(undefined, () => values.get(key) === value && values.delete(key));
      return value;
    },
    forget(key) {
      values.delete(key);
    },
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
