/**
 * Validation of Arazzo 1.1 asynchronous steps against their AsyncAPI descriptions: each AsyncAPI
 * source reads as an AsyncAPI 3 document (ASYNCAPI_INVALID), each message step names an
 * operation or channel it has (OPERATION_NOT_FOUND), a source the document does not bind itself
 * (`x-tool-api`) has a server tool speaks (UNSUPPORTED_PROTOCOL: kafka, amqp… are named), and a
 * receive with a correlationId has a message that says where its correlation id is. A source
 * that is not read (a remote one during `validate`) is not looked into.
 */
import type { Report } from '../arazzo/finding.js';
import type { ArazzoDocument, SourceDescription } from '../arazzo/model.js';
import { childPointer } from '../arazzo/read-fields.js';
import type { AsyncApiDocument } from '../async/asyncapi-document.js';
import { serversOf, serversOfOperation, supportedProtocol } from '../async/asyncapi-lookup.js';
import { ToolError } from '../errors/tool-error.js';
import { DescriptionError } from '../openapi/errors.js';
import { DescriptionUnavailableError } from './description-loader.js';
import { findTarget, type AsyncTarget, type NamedAsyncApi } from './compile-async-step.js';

/** The AsyncAPI document of a source (its url as written); undefined when it is not read. Throws ToolError (ASYNCAPI_INVALID, DESCRIPTION_*) when it cannot be read. */
export type ReadAsyncApi = (url: string) => Promise<AsyncApiDocument | undefined>;

/** Checks the message steps of `doc` (an Arazzo 1.1 document) against the AsyncAPI sources `read` reads. */
export async function checkAsyncSteps(doc: ArazzoDocument, read: ReadAsyncApi, report: Report): Promise<void> {
  const declared = doc.sourceDescriptions.filter((source) => source.type === 'asyncapi' && source.name !== undefined && source.url !== undefined);
  if (declared.length === 0) return;
  const sources: Array<NamedAsyncApi & { declared: SourceDescription }> = [];
  for (const source of declared) {
    try {
      const document = await read(source.url!);
      if (document !== undefined) sources.push({ name: source.name!, document, declared: source });
    } catch (error) {
      if (!(error instanceof ToolError) && !(error instanceof DescriptionError)) throw error;
      // A source the run cannot read, or may not (a read rule), stops it when it is bound (exit 2), as an OpenAPI source does; `validate` stops on a read rule after its findings (afterValidation).
      if (error instanceof DescriptionUnavailableError) continue;
      report.error('ASYNCAPI_INVALID', childPointer(source.pointer, 'url'), `source "${source.name}" (${source.url}) cannot be read as an AsyncAPI 3 description: ${error.message}`);
    }
  }
  const read11 = new Set(sources.map((source) => source.name));
  for (const workflow of doc.workflows) {
    for (const step of workflow.steps) {
      if (step.action !== 'send' && step.action !== 'receive') continue;
      const reference = step.channelPath ?? step.operationId ?? step.operationPath ?? '';
      // A step of a source that was not read (remote during validate, or unreadable: reported above) is not looked into.
      const named = /\$sourceDescriptions\.([^.}]+)\./.exec(reference)?.[1];
      if (named !== undefined && !read11.has(named)) continue;
      if (named === undefined && sources.length < declared.length) continue;
      let target: AsyncTarget<(typeof sources)[number]>;
      try {
        target = findTarget(step, sources, (message) => {
          throw new TargetMissing(message);
        });
      } catch (error) {
        if (!(error instanceof TargetMissing)) throw error;
        report.error('OPERATION_NOT_FOUND', childPointer(step.pointer, step.channelPath !== undefined ? 'channelPath' : step.operationId !== undefined ? 'operationId' : 'operationPath'), `step "${step.stepId ?? ''}": ${error.message}`);
        continue;
      }
      if (target.source.declared.api === undefined) {
        const servers = target.operation ? serversOfOperation(target.document, target.operation) : serversOf(target.document, target.channel);
        if (servers.length > 0 && servers.every((server) => supportedProtocol(server) instanceof Error)) {
          const protocols = [...new Set(servers.map((server) => server.protocol))].join(', ');
          report.error(
            'UNSUPPORTED_PROTOCOL',
            step.pointer,
            `step "${step.stepId ?? ''}": channel "${target.channel.key}" of source "${target.source.name}" is on servers of protocol ${protocols}; tool speaks mqtt, mqtts, ws and wss (bind a broker it speaks: tool api add ${target.source.name} mqtt://<host>:<port>, with x-tool-api)`,
          );
        }
      }
      if (step.action === 'receive' && step.correlationId !== undefined && !target.messages.some((message) => message.correlationId !== undefined)) {
        report.error('INVALID_ASYNC_STEP', childPointer(step.pointer, 'correlationId'), `step "${step.stepId ?? ''}" has a correlationId, but no message of channel "${target.channel.key}" in source "${target.source.name}" says where its correlation id is (AsyncAPI correlationId.location)`);
      }
    }
  }
}

class TargetMissing extends Error {}
