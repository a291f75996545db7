/**
 * Writes a JUnit file whose `<testsuite>` elements carry their counts in attributes that come
 * before their testcases, without holding the testcases in memory: each suite's testcases go to a
 * temporary file of their own (in a hidden folder beside the target) as they come, and the file
 * is put together at the end, suite by suite, then renamed over the target (output-file.ts). The
 * temporary folder is removed whether the file is written or not.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ToolError } from '../../errors/tool-error.js';
import type { OutputFile } from '../../observe/report/output-file.js';
import { junitHead, JUNIT_TAIL, TESTSUITE_CLOSE, testsuiteOpen, type CaseCounts } from './suite-junit.js';

/** Suites' case files kept open at once: documents come and go in suite order, and a large suite must not run out of file descriptors. */
const OPEN_HANDLES = 16;
/** Characters of testcases held before they are written: a write per testcase made a 20 000-run suite half as fast again. */
const BUFFERED = 256 * 1024;

export interface JunitAssembly {
  /** Adds a testcase (one line of XML, escaped) to the suite `name` (made on first use). */
  add(name: string, caseXml: string, outcome: 'passed' | 'failed' | 'skipped', seconds: number): void;
  /** Writes the file and removes the temporary folder. Rejects with a REPORT_WRITE_FAILED ToolError when a write failed. */
  commit(): Promise<void>;
  /** Removes the temporary folder and file, writing nothing. */
  discard(): Promise<void>;
}

interface SuiteParts {
  file: string;
  counts: CaseCounts;
  /** Testcase lines not yet written. */
  pending: string[];
}

/** Opens the target (`path` relative to `cwd`) and the folder of case files. Throws FileError (exit 2) when the target cannot be written. */
export async function openJunitAssembly(path: string, cwd: string, flag: string): Promise<JunitAssembly> {
  // The report modules load only when a report is asked for (test/unit/observe/report-lazy.test.ts).
  const { openOutputFile } = await import('../../observe/report/output-file.js');
  const out = await openOutputFile(path, cwd, flag);
  const target = resolve(cwd, path);
  const folder = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.parts`);
  try {
    await mkdir(folder, { mode: 0o700 });
  } catch (error) {
    await out.discard();
    throw error;
  }
  const suites = new Map<string, SuiteParts>();
  const handles = new Map<string, FileHandle>();
  let queue: Promise<unknown> = Promise.resolve();
  let failure: unknown;
  let buffered = 0;

  const handleFor = async (parts: SuiteParts): Promise<FileHandle> => {
    let handle = handles.get(parts.file);
    if (handle !== undefined) {
      // Least recently used first: the Map's order is the order of use.
      handles.delete(parts.file);
      handles.set(parts.file, handle);
      return handle;
    }
    if (handles.size >= OPEN_HANDLES) {
      const [oldest, oldHandle] = handles.entries().next().value as [string, FileHandle];
      handles.delete(oldest);
      await oldHandle.close();
    }
    handle = await open(parts.file, 'a', 0o600);
    handles.set(parts.file, handle);
    return handle;
  };
  const closeHandles = async () => {
    for (const handle of handles.values()) await handle.close().catch(() => undefined);
    handles.clear();
  };
  /** Queues the write of every suite's pending lines, each suite's in one write. */
  const flush = () => {
    for (const parts of suites.values()) {
      if (parts.pending.length === 0) continue;
      const text = parts.pending.join('');
      parts.pending = [];
      queue = queue
        .then(async () => {
          if (failure === undefined) await (await handleFor(parts)).write(text);
        })
        .catch((error: unknown) => (failure ??= error));
    }
    buffered = 0;
  };
  const cleanUp = async () => {
    await queue;
    await closeHandles();
    await rm(folder, { recursive: true, force: true });
  };

  return {
    add(name, caseXml, outcome, seconds) {
      let parts = suites.get(name);
      if (parts === undefined) {
        parts = { file: join(folder, `${suites.size}.xml`), counts: { tests: 0, failures: 0, skipped: 0, time: 0 }, pending: [] };
        suites.set(name, parts);
      }
      countCase(parts.counts, outcome, seconds);
      const line = `    ${caseXml}\n`;
      parts.pending.push(line);
      buffered += line.length;
      if (buffered >= BUFFERED) flush();
    },
    async commit() {
      flush();
      await queue;
      await closeHandles();
      try {
        if (failure !== undefined) throw failure;
        await assemble(out, suites);
      } catch (error) {
        await out.discard();
        await rm(folder, { recursive: true, force: true });
        if (error instanceof ToolError) throw error;
        throw new ToolError('REPORT_WRITE_FAILED', `could not write the ${flag} file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      await rm(folder, { recursive: true, force: true });
      await out.commit();
    },
    async discard() {
      await cleanUp();
      await out.discard();
    },
  };
}

function countCase(counts: CaseCounts, outcome: 'passed' | 'failed' | 'skipped', seconds: number): void {
  counts.tests++;
  if (outcome === 'failed') counts.failures++;
  if (outcome === 'skipped') counts.skipped++;
  counts.time += seconds;
}

/** The head with the totals, then each suite's opening, its case file copied a chunk at a time, and its end. */
async function assemble(out: OutputFile, suites: Map<string, SuiteParts>): Promise<void> {
  const total: CaseCounts = { tests: 0, failures: 0, skipped: 0, time: 0 };
  for (const { counts } of suites.values()) {
    total.tests += counts.tests;
    total.failures += counts.failures;
    total.skipped += counts.skipped;
    total.time += counts.time;
  }
  out.write(junitHead(total));
  for (const [name, parts] of suites) {
    out.write(testsuiteOpen(name, parts.counts));
    for await (const chunk of createReadStream(parts.file, { encoding: 'utf8', highWaterMark: 256 * 1024 })) {
      out.write(chunk as string);
      // The output file queues what it is given: wait for it, so that only a chunk is held at a time.
      await out.flushed();
    }
    out.write(TESTSUITE_CLOSE);
  }
  out.write(JUNIT_TAIL);
}
