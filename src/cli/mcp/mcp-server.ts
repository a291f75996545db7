/**
 * The MCP server of a catalogue (the SDK's low-level Server: the schemas are JSON Schema already):
 * tools/list and tools/call, resources/list and resources/read. One per connection: stdio has one,
 * Streamable HTTP one per session.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { printableLine } from '../../output/printable.js';
import { VERSION } from '../../version.js';
import type { ToolContext } from '../context.js';
import { callTool, type CallDeps } from './call-tool.js';
import type { Catalogue } from './catalogue.js';
import { listResources, resourceReader } from './resources.js';

/** What every connection's server shares. */
export interface ServerDeps extends CallDeps {
  context: ToolContext;
  /** --tool-runner, for the charts. */
  runner: string | undefined;
}

/** MCP's code for a resource that does not exist. */
const RESOURCE_NOT_FOUND = -32002;

/** A server for one connection, its handlers registered. */
export function createMcpServer(catalogue: Catalogue, deps: ServerDeps): Server {
  // The SDK's default validator (an Ajv with its formats, made per server) checks what a client
  // answers to elicitation, which this server never asks for.
  const server = new Server({ name: 'tool', version: VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: NO_ELICITATION });
  const tools = new Map(catalogue.tools.map((tool) => [tool.name, tool]));
  const readResource = resourceReader(catalogue, deps.context, deps.log, deps.runner);

  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: catalogue.tools.map((tool) => ({
      name: tool.name,
      ...(tool.title !== undefined ? { title: tool.title } : {}),
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object' },
      outputSchema: tool.outputSchema as { type: 'object' },
      annotations: { ...(tool.title !== undefined ? { title: tool.title } : {}), readOnlyHint: tool.readOnly, destructiveHint: !tool.readOnly, openWorldHint: true },
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool "${printableLine(request.params.name)}"`);
    const token = extra._meta?.progressToken;
    const progress = token === undefined ? undefined : (done: number, message: string) => void extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: done, message } }).catch(() => undefined);
    try {
      return await callTool(tool, request.params.arguments ?? {}, { signal: extra.signal, ...(progress ? { progress } : {}) }, deps);
    } catch (error) {
      // A bug: logged (with the stack under --debug), and the client told no more than that.
      deps.log.error(`${tool.name}: internal error: ${(error as Error).message}`);
      if (deps.context.debug) deps.context.stderr.write(`${(error as Error).stack ?? ''}\n`);
      return { content: [{ type: 'text', text: `Workflow "${tool.workflowId}": internal error in tool (the server's log says more).` }], isError: true };
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: listResources(catalogue) }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    let content;
    try {
      content = await readResource(uri);
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, printableLine((error as Error).message));
    }
    if (content === undefined) throw new McpError(RESOURCE_NOT_FOUND, `no resource ${printableLine(uri)}`);
    return { contents: [content] };
  });
  return server;
}

/** A validator for the SDK's elicitation answers: the server sends no elicitation, so it is never asked. */
const NO_ELICITATION = {
  getValidator: () => (input: unknown) => ({ valid: false as const, data: undefined, errorMessage: `tool asks for no elicitation (got ${typeof input})` }),
};

const INSTRUCTIONS = 'Each tool runs one Arazzo workflow against the APIs it names, with the credentials of the user\'s API registry (they are never shown). A tool\'s result holds the workflow\'s outputs; a failed run says which step failed and why. The resources are the Arazzo documents and a chart of each workflow.';
