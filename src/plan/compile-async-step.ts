/**
 * Compiles an Arazzo 1.1 asynchronous step (one that names an operation or channel of an
 * AsyncAPI source) into what the executor needs: send or receive, the channel address, the broker
 * URL (the bound API's, else the operation's own AsyncAPI server), its credentials, the message's
 * content type, the header parameters (MQTT 5 user properties), the correlation (where the
 * AsyncAPI message keeps its correlation id, and the value the step expects) and the timeout.
 * The payload is the step's `requestBody` (compiled as for HTTP, replacements included).
 */
import type { Step } from '../arazzo/model.js';
import type { AsyncApiChannel, AsyncApiDocument, AsyncApiMessage, AsyncApiOperation } from '../async/asyncapi-document.js';
import { channelByPointer, operationById, serversOf, serversOfOperation, serverUrl, supportedProtocol } from '../async/asyncapi-lookup.js';
import { compileTemplate, type TemplateOptions } from '../expressions/compile-template.js';
import type { Template, TemplateWarning } from '../expressions/template-ast.js';
import type { AuthHook } from '../http/types.js';
import type { AsyncSource } from './async-sources.js';
import { StepPreparationError } from './step-preparation-error.js';

/** What an asynchronous step does, compiled once. */
export interface AsyncProgram {
  action: 'send' | 'receive';
  /** The AsyncAPI source's name. */
  source: string;
  /** The channel address (an MQTT topic, a WebSocket path). */
  channel: string;
  /** The broker or server URL: the bound API's base URL, else the operation's own AsyncAPI server. */
  url: string;
  auth?: AuthHook;
  /** The AsyncAPI server's `protocolVersion` (MQTT `3.1.1` or `5`), when it gives one. */
  protocolVersion?: string;
  contentType?: string;
  /** `in: header` parameters: message headers (MQTT 5 user properties). */
  headers: Array<{ name: string; value: Template }>;
  /** A receive step's correlation: where the message keeps its id, and the value this step waits for. */
  correlation?: { location: string; value: Template };
  /** A receive waits this long for its message; a send this long for the broker to take it. */
  timeoutMs: number;
}

const QUALIFIED = /^\$sourceDescriptions\.([^.]+)\.(.+)$/;
const CHANNEL_PATH = /^\{?\$sourceDescriptions\.([^.}]+)\.url\}?#(\/.*)$/;

/** Whether the step names an AsyncAPI source (by a qualified operationId, operationPath or channelPath) or has an `action`. */
export function isAsyncStep(step: Step, sources: readonly AsyncSource[]): boolean {
  if (step.action !== undefined || step.channelPath !== undefined) return true;
  const reference = step.operationId ?? step.operationPath;
  const source = reference === undefined ? undefined : QUALIFIED.exec(reference)?.[1];
  return source !== undefined && sources.some((candidate) => candidate.name === source);
}

/**
 * The asynchronous program of `step`. Throws StepPreparationError (exit 10, as an invalid document; validation reports the same first) naming the step for an
 * operation or channel no AsyncAPI source has, a missing or unknown `action`, a parameter other
 * than a header, a server whose protocol tool does not speak, or a correlationId whose message
 * declares no correlation location.
 */
export function compileAsyncStep(step: Step, sources: readonly AsyncSource[], warnings: TemplateWarning[], templates: TemplateOptions, defaultTimeoutMs: number, headerParameters: ReadonlyArray<{ name?: string; in?: string; value?: unknown; pointer: string }>): AsyncProgram {
  const stepId = step.stepId ?? '';
  const fail = (message: string, hint?: string): never => {
    throw new StepPreparationError('UNKNOWN_OPERATION', `step "${stepId}": ${message}`, hint);
  };
  const action = step.action;
  if (action !== 'send' && action !== 'receive') fail(action === undefined ? 'an AsyncAPI step needs action: send or action: receive' : `action "${action}" is not send or receive`);
  const target = findTarget(step, sources, fail);
  const { source, document, channel, messages } = target;
  const address = channel.address;
  if (address === undefined) fail(`channel "${channel.key}" of source "${source.name}" has no address`);
  const url = source.baseUrl ?? ownServerUrl(document, target, source.name, fail);
  const program: AsyncProgram = { action: action as 'send' | 'receive', source: source.name, channel: address!, url, headers: [], timeoutMs: step.timeout ?? defaultTimeoutMs };
  const servers = target.operation ? serversOfOperation(document, target.operation) : serversOf(document, target.channel);
  const protocolVersion = servers.find((server) => server.protocolVersion !== undefined)?.protocolVersion;
  if (protocolVersion !== undefined) program.protocolVersion = protocolVersion;
  if (source.auth) program.auth = source.auth;
  const contentType = step.requestBody?.contentType ?? messages.find((message) => message.contentType !== undefined)?.contentType;
  if (contentType !== undefined) program.contentType = contentType;
  for (const parameter of headerParameters) {
    if (parameter.in !== 'header') fail(`parameter "${parameter.name ?? ''}" has in: ${parameter.in ?? '(none)'}; a message takes header parameters only (its headers)`);
    const local: TemplateWarning[] = [];
    program.headers.push({ name: parameter.name ?? '', value: compileTemplate(parameter.value, local, templates) });
    for (const w of local) warnings.push({ ...w, pointer: `${parameter.pointer}/value${w.pointer}` });
  }
  if (step.correlationId !== undefined && program.action === 'receive') {
    const location = messages.find((message) => message.correlationId !== undefined)?.correlationId?.location;
    if (location === undefined) fail(`has correlationId, but no message of channel "${channel.key}" in source "${source.name}" declares a correlationId location`, 'Add correlationId: { location: $message.header#/<name> } to the message in the AsyncAPI description.');
    program.correlation = { location: location!, value: compileTemplate(step.correlationId, warnings, templates) };
  }
  return program;
}

/** An AsyncAPI source as far as finding a step's operation goes. */
export type NamedAsyncApi = Pick<AsyncSource, 'name' | 'document'>;

export interface AsyncTarget<S extends NamedAsyncApi = AsyncSource> {
  source: S;
  document: AsyncApiDocument;
  operation?: AsyncApiOperation;
  channel: AsyncApiChannel;
  messages: AsyncApiMessage[];
}

/** The operation or channel the step names: `channelPath`, else a (qualified) operationId, or the 1.1 text's `operationPath: $sourceDescriptions.<name>.<operationId>`. */
export function findTarget<S extends NamedAsyncApi>(step: Step, sources: readonly S[], fail: (message: string, hint?: string) => never): AsyncTarget<S> {
  if (step.channelPath !== undefined) {
    const match = CHANNEL_PATH.exec(step.channelPath);
    if (!match) return fail(`channelPath "${step.channelPath}" is not {$sourceDescriptions.<name>.url}#/channels/<channel>`);
    const source = sources.find((candidate) => candidate.name === match[1]) ?? fail(`channelPath names source "${match[1]}", which is not an AsyncAPI source of the document`);
    const channel = channelByPointer(source.document, match[2]!) ?? fail(`channelPath "${step.channelPath}": source "${source.name}" has no channel at ${match[2]}`);
    return { source, document: source.document, channel, messages: channel.messages };
  }
  const reference = step.operationId ?? step.operationPath ?? fail('names no AsyncAPI operation (operationId) or channel (channelPath)');
  const qualified = QUALIFIED.exec(reference);
  const candidates = qualified ? sources.filter((source) => source.name === qualified[1]) : sources;
  const operationId = qualified ? qualified[2]! : reference;
  for (const source of candidates) {
    const operation = operationById(source.document, operationId);
    if (!operation) continue;
    const channel = source.document.channels.get(operation.channel) ?? fail(`operation "${operationId}" of source "${source.name}" names channel "${operation.channel}", which the description does not have`);
    return { source, document: source.document, operation, channel, messages: operation.messages.length > 0 ? operation.messages : channel.messages };
  }
  const known = candidates.flatMap((source) => [...source.document.operations.keys()]);
  return fail(`no AsyncAPI source has operation "${operationId}"`, known.length > 0 ? `Its operations: ${known.slice(0, 10).join(', ')}` : undefined);
}

/** The URL of the first server of the operation (or channel) whose protocol tool speaks; throws when none does, naming the protocols. */
function ownServerUrl(document: AsyncApiDocument, target: AsyncTarget<NamedAsyncApi>, name: string, fail: (message: string, hint?: string) => never): string {
  const servers = target.operation ? serversOfOperation(document, target.operation) : serversOf(document, target.channel);
  if (servers.length === 0) return fail(`source "${name}" declares no server for channel "${target.channel.key}", and no registered broker is bound to it`, `Bind one: tool api add ${name} mqtt://<host>:<port>`);
  const usable = servers.find((server) => !(supportedProtocol(server) instanceof Error));
  if (usable) return serverUrl(usable);
  const protocols = [...new Set(servers.map((server) => server.protocol))].join(', ');
  throw new StepPreparationError('UNKNOWN_OPERATION', `source "${name}": channel "${target.channel.key}" is on servers of protocol ${protocols}, which tool does not speak (it speaks mqtt, mqtts, ws and wss)`, `Bind a broker tool speaks: tool api add ${name} mqtt://<host>:<port>`);
}
