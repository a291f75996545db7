import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';
import { quietRunFlags, workflowRunOptions } from './workflow-options.js';

/** `tool mcp serve [files…]`: a Model Context Protocol server whose tools are the documents' workflows. */
export class McpServeCommand extends ToolCommand {
  static override paths = [['mcp', 'serve']];

  static override usage = Command.Usage({
    category: 'MCP',
    description: 'serve Arazzo workflows as tools to AI agents (Model Context Protocol)',
    details: `
      Takes files, folders and globs as \`arazzo test\` does (without any: every \`*.arazzo.{yaml,yml,json}\` under the working directory). Each workflow becomes a tool: its name from the workflowId (prefixed by the document's name when two documents share an id), its description from the workflow's summary and description, its input schema from the workflow's \`inputs\` and its output schema from its outputs. A call checks the arguments against the inputs schema, then runs the workflow as \`arazzo run\` would (the same engine and pipeline, the document's profile, its project's tool.config.yaml), with a progress notification per step; a cancelled call aborts the run.

      Credentials stay in the API registry: sources bind as for \`arazzo run\`, and no header, token or stored credential reaches a result, an error, a progress notification or the log. An input with a secret-like name (token, password, apiKey…) is refused from the client unless \`--allow-secret-inputs\`; give it with \`--input-env name=VAR\` instead, and it leaves the tool's schema.

      Only workflows whose steps all use GET, HEAD or OPTIONS are listed, unless \`--allow-writes\` (the others are marked destructive). Each document is also a resource (its text), and each workflow's chart an SVG resource.

      stdio by default (what desktop agents and editors spawn; stdout is the protocol). \`--http [host:]port\` serves Streamable HTTP on /mcp instead, on 127.0.0.1 unless \`--http-host\` names another host, with a random bearer token printed on stderr (or TOOL_MCP_TOKEN). The log goes to stderr (\`--log-level\`, default warn). See docs/mcp.md.

      Exit codes: 0 the client closed stdio, 2 usage error (a bad flag, no document found, a port in use, a non-loopback --http host without --http-host), 130/143 stopped by a signal.
    `,
    examples: [
      ['Serve the workflows of a folder on stdio', '$0 mcp serve workflows/'],
      ['Serve over HTTP on a local port', '$0 mcp serve flows/ --http 8765'],
      ['List write workflows too, and give a secret input from the environment', '$0 mcp serve orders.arazzo.yaml --allow-writes --input-env apiToken=ORDERS_TOKEN'],
    ],
  });

  files = Option.Rest({ name: 'files' });

  http = Option.String('--http', { description: 'Serve Streamable HTTP on [host:]port (path /mcp; 127.0.0.1 unless --http-host) instead of stdio' });

  httpHost = Option.String('--http-host', { description: 'The host --http listens on when it is not loopback (0.0.0.0 for every interface)' });

  workflow = Option.String('--workflow', { description: 'List only the workflows whose id matches: an id, or a glob with * and ?' });

  allowWrites = Option.Boolean('--allow-writes', false, { description: 'Also list workflows that send other methods than GET, HEAD and OPTIONS (marked destructive)' });

  allowSecretInputs = Option.Boolean('--allow-secret-inputs', false, { description: 'Let the client give inputs with secret-like names (token, password, apiKey…)' });

  inputEnv = workflowRunOptions.inputEnv();

  inputsFile = workflowRunOptions.inputsFile();

  logLevel = Option.String('--log-level', 'warn', { description: 'What the log on stderr shows: error, warn (default), info or debug', validator: t.isEnum(['error', 'warn', 'info', 'debug'] as const) });

  checks = workflowRunOptions.checks();

  maxSteps = workflowRunOptions.maxSteps('call');

  retry = workflowRunOptions.retry();

  timeout = workflowRunOptions.timeout();

  allowRefHosts = workflowRunOptions.allowRefHosts();

  allowRead = workflowRunOptions.allowRead();

  runner = workflowRunOptions.runner();

  async execute(): Promise<number> {
    const { serveMcp } = await import('./mcp/serve.js');
    const shared = quietRunFlags({ runner: this.runner, inputs: [], inputEnv: this.inputEnv, inputsFile: this.inputsFile, checks: this.checks, maxSteps: this.maxSteps, allowRefHosts: this.allowRefHosts, allowRead: this.allowRead });
    return serveMcp(
      { files: this.files, shared, workflow: this.workflow, retry: this.retry, timeout: this.timeout, allowWrites: this.allowWrites, allowSecretInputs: this.allowSecretInputs, http: this.http, httpHost: this.httpHost, logLevel: this.logLevel },
      this.context,
    );
  }
}
