/**
 * One tool call: the arguments checked (names the client may give, then the workflow's inputs
 * schema) before anything is sent, then the workflow run as `arazzo run` runs it (runWorkflowFile,
 * quiet, its JSON record captured instead of printed, as `arazzo test` runs an entry), a progress
 * note per step, the client's cancellation as the run's abort signal. The result is the record's
 * outputs (the bound APIs' credentials already masked by the record) as structured content, and a
 * short text: succeeded, or failed with the step and the explanation `run` prints.
 */
import { Writable } from 'node:stream';
import { ToolError } from '../../errors/tool-error.js';
import { printableLine, printableText, stripControls } from '../../output/printable.js';
import { isSecretName, valueMasker } from '../../output/redact.js';
import type { RunEvents } from '../../observe/run-events.js';
import type { RunRecord } from '../../run/run-record.js';
import type { RunIO } from '../../run/run-workflow.js';
import { SECRET_REFUSED, type McpTool } from './catalogue.js';
import { lineStream, type McpLog } from './log.js';

/** What a call returns, as MCP's CallToolResult has it. */
export interface ToolCallResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** What a call gets from the server: where runs look things up, the log, and the secrets it masks everywhere (credentials seen are added). */
export interface CallDeps {
  cwd: string;
  env: Record<string, string | undefined>;
  log: McpLog;
  secrets: Set<string>;
}

/** What a call gets from its request: the client's cancellation, and where progress goes (when the client asked for it). */
export interface CallRequest {
  signal: AbortSignal;
  progress?: (progress: number, message: string) => void;
}

/** Runs `tool` with `args`; returns the result (an error result for bad arguments, a failed run or a run that could not start). Throws only bugs. */
export async function callTool(tool: McpTool, args: Record<string, unknown>, request: CallRequest, deps: CallDeps): Promise<ToolCallResult> {
  const secrets = new Set([...deps.secrets, ...(tool.options.secretInputs ?? [])]);
  const mask = (text: string) => printableText(text, { values: secrets });
  const refusal = refusedArgument(tool, args);
  if (refusal !== undefined) return errorResult(`Invalid arguments: ${refusal}; nothing was sent.`);
  const checked = await checkedInputs(tool, { ...args, ...tool.options.inputs });
  if ('problem' in checked) return errorResult(`Invalid arguments: ${mask(checked.problem)}`);
  for (const [name, value] of Object.entries(args)) if (isSecretName(name) && typeof value === 'string' && value.length > 0) secrets.add(value);

  const record: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      record.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  // Quiet: stderr holds only warnings (logged) and, for a failed run, its explanation.
  const explanation: string[] = [];
  const stderr = lineStream((line) => {
    if (explanation.length > 0 || line.startsWith('error: workflow')) explanation.push(line);
    // Masked with this call's secrets too (a client-given one is not among the server's).
    else deps.log.warn(`${tool.name}: ${printableLine(line.replace(/^warning:\s*/, ''), { values: secrets })}`);
  });
  // A call's run speaks to no CI runner: in GitHub Actions it would print its ::add-mask:: lines
  // (the registry's credentials, the secret inputs) on its stderr, which is the server's log.
  const io: RunIO = { stdout, stderr, cwd: deps.cwd, colors: false, signal: request.signal, env: { ...deps.env, GITHUB_ACTIONS: undefined } };
  deps.log.info(`${tool.name}: running workflow "${tool.workflowId}" of ${tool.file}`);
  let outcome;
  try {
    // The engine loads with the first call, not at start-up (docs/performance.md).
    const { runWorkflowFile } = await import('../../run/run-workflow.js');
    outcome = await runWorkflowFile({ ...tool.options, inputs: checked.inputs, secretInputs: [...secrets], output: 'json', quiet: true, explainFailure: true }, io, { observe: (events) => observeSteps(events, request, secrets, deps.secrets) });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const message = mask(printableLine(error.message));
    deps.log.warn(`${tool.name}: ${message}`);
    return errorResult(`Workflow "${tool.workflowId}" did not run: ${message}`);
  } finally {
    stderr.end();
  }
  if (outcome.kind === 'invalid-document') return errorResult(`Workflow "${tool.workflowId}" did not run: ${tool.file} is invalid (the server's log has its findings); nothing was sent.`);
  const run = recordOf(record);
  if (outcome.kind === 'succeeded') {
    const outputs = maskedOutputs(run.outputs, secrets);
    deps.log.info(`${tool.name}: succeeded`);
    // JSON escapes control characters; the bidi controls it leaves are dropped from the text (the structured content is data).
    return { content: [{ type: 'text', text: stripControls(`Workflow "${tool.workflowId}" succeeded.\nOutputs: ${JSON.stringify(outputs, null, 2)}`) }], structuredContent: outputs };
  }
  if (outcome.kind === 'interrupted') {
    // The client cancelled (the SDK sends no response to a cancelled request) or the server is stopping.
    deps.log.info(`${tool.name}: interrupted; nothing more was sent`);
    return errorResult(`Workflow "${tool.workflowId}" was interrupted; nothing more was sent.`);
  }
  const failure = run.failure;
  const where = failure?.stepId !== undefined ? ` at step "${printableLine(failure.stepId)}"` : '';
  const lines = explanation.slice(1).map((line) => mask(line));
  const text = `Workflow "${tool.workflowId}" failed${where} (${failure?.code ?? outcome.kind}): ${mask(failure?.message ?? 'the run did not finish')}${lines.length > 0 ? `\n${lines.join('\n')}` : ''}`;
  deps.log.info(`${tool.name}: failed${where}`);
  return errorResult(text);
}

/** Why the client may not give one of `args`, or undefined: an input the server gives, a refused secret, an input the workflow does not declare. */
function refusedArgument(tool: McpTool, args: Record<string, unknown>): string | undefined {
  for (const name of Object.keys(args)) {
    // A workflow that declares no inputs takes any: a secret-named one is still not the client's to give.
    const why = tool.refused.get(name) ?? (!tool.secretsFromClient && isSecretName(name) ? SECRET_REFUSED : undefined);
    if (why !== undefined) return `input "${printableLine(name)}" cannot be given: ${why}`;
    if (tool.declared.size > 0 && !tool.declared.has(name)) return `workflow "${tool.workflowId}" has no input "${printableLine(name)}" (its inputs: ${[...tool.declared].filter((n) => !tool.refused.has(n)).join(', ') || 'none the client gives'})`;
  }
  return undefined;
}

/** The inputs checked against the workflow's inputs schema (defaults filled in), or the problem, naming the input. */
async function checkedInputs(tool: McpTool, inputs: Record<string, unknown>): Promise<{ inputs: Record<string, unknown> } | { problem: string }> {
  if (tool.declared.size === 0) return { inputs };
  // Ajv and the schema machinery are loaded with the first call (they are v2's, input-schema.ts).
  const { checkInputs, compileInputSchema } = await import('../../plan/input-schema.js');
  try {
    const check = await compileInputSchema(tool.doc, tool.workflow);
    if (check === undefined) return { inputs };
    const strings = new Set(tool.options.stringInputs ?? []);
    return { inputs: checkInputs(tool.doc, tool.workflow, check, inputs, { strings, secrets: tool.options.secretInputs ?? [] }) };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { problem: error.message };
  }
}

/** A progress note per step as it ends (its id and status; never a header, body or reason), none once the call is cancelled; the credentials the steps sent join `known`. */
function observeSteps(events: RunEvents, request: CallRequest, secrets: Set<string>, known: Set<string>): void {
  let steps = 0;
  const note = (message: string) => {
    if (request.signal.aborted || request.progress === undefined) return;
    request.progress(++steps, printableLine(message, { values: secrets }));
  };
  events.on('step.response', ({ stepId, request: sent, response, ok }) => {
    for (const value of sent.auth?.secretValues?.() ?? []) {
      secrets.add(value);
      known.add(value);
    }
    note(`step "${stepId}": ${response ? `${response.status}` : 'no response'}${ok ? '' : ' (failed)'}`);
  });
  events.on('step.failedEarly', ({ stepId }) => note(`step "${stepId}": failed before sending`));
  events.on('step.message', ({ stepId, action, ok }) => note(`step "${stepId}": ${action}${ok ? '' : ' (failed)'}`));
  events.on('call.ended', ({ stepId, workflowId, ok }) => note(`step "${stepId}": workflow "${workflowId}" ${ok ? 'succeeded' : 'failed'}`));
}

/** The outputs with the known secrets masked in every string (the record already masks the bound APIs' credentials). */
function maskedOutputs(outputs: Record<string, unknown>, secrets: ReadonlySet<string>): Record<string, unknown> {
  if (secrets.size === 0) return outputs;
  const mask = valueMasker(secrets);
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return mask(value);
    if (Array.isArray(value)) return value.map(walk);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, walk(v)]));
    return value;
  };
  return walk(outputs) as Record<string, unknown>;
}

/** The run record `run` printed (JSON), or an empty failed one when it printed none it could parse (a bug elsewhere, told as a failure). */
function recordOf(chunks: Buffer[]): RunRecord {
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as RunRecord;
  } catch {
    return { workflowId: '', status: 'failed', outputs: {}, steps: [] };
  }
}

function errorResult(text: string): ToolCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}
