/**
 * `arazzo test --data`: the one selected workflow, and each row of the data file turned into a run
 * of it. A row is checked against the workflow's inputs schema before anything is sent for it
 * (whatever the runner profile): CSV strings are coerced to the declared types as `--input k=v`
 * strings are, defaults are filled in, and a row that does not fit is a failed run of its own.
 */
import { DEFAULT_PROFILE } from '../../arazzo/runner-profile.js';
import { CommandUsageError, ToolError } from '../../errors/tool-error.js';
import { printableLine } from '../../output/printable.js';
import { isSecretName } from '../../output/redact.js';
import { secretNamedStrings } from '../input-flags.js';
import type { DataRow } from './data-row.js';
import type { SuiteEntry } from './plan-suite.js';
import type { SuiteResult } from './run-entry.js';

/** How many of the selected workflows a usage error lists. */
const LISTED = 5;

/**
 * The entry the rows run: the only workflow selected, or undefined when no document could be read
 * (those entries fail on their own). Throws CommandUsageError when more than one is selected.
 */
export function selectDataEntry(entries: readonly SuiteEntry[], data: string): SuiteEntry | undefined {
  const selected = entries.filter((entry) => entry.loadError === undefined);
  if (selected.length <= 1) return selected[0];
  const names = selected.slice(0, LISTED).map((entry) => `${printableLine(entry.file)} › ${printableLine(entry.workflowId ?? '(no workflowId)')}`);
  const more = selected.length > LISTED ? `, and ${selected.length - LISTED} more` : '';
  throw new CommandUsageError(`--data ${data} runs one workflow once per row, and ${selected.length} are selected (${names.join(', ')}${more}); nothing was run`, 'Pick one with --workflow <workflowId> (and give only the document that holds it).');
}

/** A row made ready: the entry that runs it, or its failed result when it cannot run. */
export type RowRun = { entry: SuiteEntry } | { result: SuiteResult };

/**
 * Prepares the rows of `entry` (planned with --data): the flags' inputs as the document's profile
 * reads them and its inputs schema compiled, once. Returns what makes each row's run. Throws
 * ToolError when the flags cannot be read for that profile or the schema does not compile.
 */
export async function rowEntries(entry: SuiteEntry): Promise<(row: DataRow) => RowRun> {
  const source = entry.source;
  if (source === undefined) throw new Error('rowEntries needs an entry planned with --data');
  const { doc, workflow, profile } = source;
  const { retypeInputs, ...options } = entry.options;
  // As a run reads them: an Arazzo 1.1 document under the default runner reads `k:=json` flags again as JSON.
  const retype = retypeInputs !== undefined && profile.typesInputs && !(options.profile ?? DEFAULT_PROFILE).typesInputs;
  const flags = retype ? await retypeInputs(profile) : { inputs: options.inputs, strings: options.stringInputs ?? [] };
  // Ajv comes with the schema check, loaded only when a run needs it (test/unit/run/lazy-libraries.test.ts).
  const { checkInputs, compileInputSchema } = await import('../../plan/input-schema.js');
  const check = await compileInputSchema(doc, workflow);
  return (row) => {
    const failed = (code: string, message: string): RowRun => ({
      result: { file: entry.file, workflowId: entry.workflowId, row: row.row, status: 'failed', durationMs: 0, failure: { code, message: `${printableLine(message)}` }, ended: 'failed' },
    });
    if (row.values === undefined) return failed('INVALID_ROW', `${row.problem ?? 'the row cannot be read'}; nothing was sent`);
    const values = row.values;
    // The row wins over --input and --inputs-file; its CSV strings are coerced, its JSON values are not.
    const inputs = { ...flags.inputs, ...values };
    const strings = new Set([...flags.strings.filter((name) => !Object.hasOwn(values, name)), ...(row.strings ? Object.keys(values) : [])]);
    const secrets = [...(options.secretInputs ?? []), ...secretNamedStrings(values, isSecretName)];
    let checked = inputs;
    if (check !== undefined) {
      try {
        checked = checkInputs(doc, workflow, check, inputs, { strings, secrets });
      } catch (error) {
        if (!(error instanceof ToolError)) throw error;
        return failed(error.code, error.message);
      }
    }
    // Checked and typed here: the run checks them again (v2) but has nothing left to coerce or read again.
    return { entry: { ...entry, row: row.row, options: { ...options, inputs: checked, stringInputs: [], secretInputs: secrets } } };
  };
}
