/**
 * The suite's JSON summary on stdout, written as the suite goes: `runs` first, a run per line as
 * each finishes (so memory does not grow with the runs), then the counts and figures once known.
 * The whole is one JSON object, as `JSON.parse` and jq read it.
 */
import type { Writable } from 'node:stream';

export interface SummaryOutput {
  /** A finished run, as the summary lists it. */
  run(run: Record<string, unknown>): void;
  /** The rest of the summary (counts, figures); ends the object. */
  end(rest: Record<string, unknown>): void;
}

/** Starts the summary on `stdout`. */
export function startSummary(stdout: Writable): SummaryOutput {
  let runs = 0;
  stdout.write('{\n  "runs": [');
  return {
    run(run) {
      stdout.write(`${runs++ === 0 ? '\n' : ',\n'}    ${JSON.stringify(run)}`);
    },
    end(rest) {
      // `{\n  "passed": 1, …\n}` without its opening brace continues the object.
      const body = JSON.stringify(rest, null, 2).slice(1);
      stdout.write(`${runs > 0 ? '\n  ' : ''}]${Object.keys(rest).length > 0 ? `,${body}` : '\n}'}\n`);
    },
  };
}
