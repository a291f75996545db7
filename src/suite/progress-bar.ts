/**
 * The progress bar `arazzo test` keeps at the bottom of a terminal's stderr: runs done (of how
 * many, when known), failures, runs per second and the time. Redrawn four times a second in place
 * (`\r`, erase line); a run's line is printed above it. Only on a terminal, never in CI.
 */
import { Writable } from 'node:stream';
import { styleFor, type Style } from '../output/style.js';
import { stripVTControlCharacters } from 'node:util';

export interface ProgressCounts {
  done: number;
  failed: number;
}

export interface Progress {
  /** Prints `text` (a whole line, without its newline) above the bar. */
  line(text: string): void;
  /** A stream for the runs' own stderr (warnings, errors): what it gets is printed above the bar. */
  readonly stderr: Writable;
  /** The counts changed. */
  update(counts: ProgressCounts): void;
  /** Erases the bar for good. */
  stop(): void;
}

const WIDTH = 24;

/** What the bar is measured against: a number of runs, or a time (--duration); neither: a count alone. */
export interface ProgressTarget {
  total?: number | undefined;
  durationMs?: number | undefined;
}

/** A bar on `stream` when `enabled`; otherwise lines go straight to the stream and nothing else is drawn. */
export function createProgress(stream: Writable, style: Style, enabled: boolean, target: ProgressTarget): Progress {
  if (!enabled) return { line: (text) => stream.write(`${text}\n`), stderr: stream, update: () => undefined, stop: () => undefined };
  const started = Date.now();
  let counts: ProgressCounts = { done: 0, failed: 0 };
  let drawn = false;
  const draw = () => {
    stream.write(`\r\u001b[K${fitted(barText(counts, Date.now() - started, target, style), barText(counts, Date.now() - started, {}, plain), (stream as { columns?: number }).columns)}`);
    drawn = true;
  };
  const erase = () => {
    if (drawn) stream.write('\r\u001b[K');
    drawn = false;
  };
  const timer = setInterval(draw, 250);
  timer.unref();
  return {
    stderr: new Writable({
      write(chunk: Buffer | string, _encoding, done) {
        erase();
        stream.write(chunk);
        done();
      },
    }),
    line(text) {
      erase();
      stream.write(`${text}\n`);
      draw();
    },
    update(next) {
      counts = next;
    },
    stop() {
      clearInterval(timer);
      erase();
    },
  };
}

const plain = styleFor(false);

/**
 * The bar as it fits in `columns` (a line that wraps cannot be erased with `\r`): whole; else
 * without its graphic, uncoloured; else cut.
 */
export function fitted(text: string, short: string, columns: number | undefined): string {
  if (columns === undefined || stripVTControlCharacters(text).length < columns) return text;
  return short.length < columns ? short : short.slice(0, Math.max(0, columns - 1));
}

/** `[██████░░░░] 120/1000 runs · 3 failed · 45.2/s · 0:12`. Pure. */
export function barText(counts: ProgressCounts, elapsedMs: number, target: ProgressTarget, style: Style): string {
  const fraction = target.total !== undefined && target.total > 0 ? counts.done / target.total : target.durationMs !== undefined ? elapsedMs / target.durationMs : undefined;
  const filled = fraction === undefined ? 0 : Math.round(Math.min(1, fraction) * WIDTH);
  const bar = fraction === undefined ? '' : `[${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}] `;
  const done = target.total !== undefined ? `${counts.done}/${target.total}` : `${counts.done}`;
  const failed = counts.failed > 0 ? style.red(`${counts.failed} failed`) : '0 failed';
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round((counts.done / seconds) * 10) / 10 : 0;
  return `${bar}${done} runs · ${failed} · ${rate}/s · ${clock(elapsedMs)}${target.durationMs !== undefined ? ` of ${clock(target.durationMs)}` : ''}`;
}

function clock(ms: number): string {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}
