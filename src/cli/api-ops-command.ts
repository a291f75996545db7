import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { parseRefHosts } from './allow-ref-hosts.js';
import { ToolError } from '../errors/tool-error.js';
import { ToolCommand } from './tool-command.js';

/** `tool api ops <name>`: the operations of a registered API's description (`--spec`). */
export class ApiOpsCommand extends ToolCommand {
  static override paths = [['api', 'ops']];

  static override usage = Command.Usage({
    category: 'APIs',
    description: "list the operations of a registered API's description",
    details: `
      Loads the description given with \`tool api add --spec\` (a file, or an http(s) URL fetched through the description cache; see docs/apis.md) and prints one row per operation on stdout: operationId, method, path and summary, in document order. Operations without an operationId are not listed, since a workflow step cannot call them.

      \`--output json\` prints an array of \`{ operationId, method, path, summary }\` instead.
    `,
    examples: [
      ['List the operations', '$0 api ops petstore'],
      ['As JSON for a script', '$0 api ops petstore --output json'],
    ],
  });

  name = Option.String({ name: 'name', required: true });

  output = Option.String('--output', 'table', { description: 'table or json', validator: t.isEnum(['table', 'json'] as const) });

  allowRefHosts = Option.Array('--tool-allow-ref-host', [], { description: "A host the description's http(s) $refs may reach: another origin than a remote description's own, or a loopback or private address (repeatable); see docs/security.md" });

  async execute(): Promise<number> {
    const allowRefHosts = await parseRefHosts(this.allowRefHosts);
    const { apiRegistry, requireApi } = await import('../config/api-registry.js');
    const { configPaths } = await import('../config/paths.js');
    const paths = configPaths(this.context.env);
    const api = requireApi(await apiRegistry(paths).read(), this.name);
    if (api.spec === undefined) {
      throw new ToolError('NO_SPEC', `API "${api.name}" has no description`, `Add one: tool api add ${api.name} ${api.baseUrl} --spec <file|url> --force`);
    }
    const { createPipeline } = await import('../http/create-pipeline.js');
    const { createDescriptionLoader } = await import('../plan/description-loader.js');
    const { formatOperationsTable, operationsToJson } = await import('./operations-table.js');
    const { printableLine } = await import('../output/printable.js');
    const { redactUrl } = await import('../output/redact.js');
    const pipeline = createPipeline();
    try {
      // `tool api add` stores an absolute path or a URL; a hand-edited relative path is taken from the registry's folder.
      // The user named this description (--spec), so it may live anywhere; its $refs stay in its folder.
      const load = createDescriptionLoader(pipeline, paths.apisFile, { env: this.context.env, explicitSources: true, allowRefHosts, sourceUrls: [api.spec], warn: (message) => this.note(`${this.style.yellow('warning:')} ${printableLine(message)}`) });
      const operations = [...(await load(api.spec)).operations.values()];
      if (this.output === 'json') {
        this.context.stdout.write(`${JSON.stringify(operationsToJson(operations), null, 2)}\n`);
      } else if (operations.length === 0) {
        this.note(`${printableLine(redactUrl(api.spec))} has no operations with an operationId.`);
      } else {
        this.context.stdout.write(formatOperationsTable(operations));
      }
      return 0;
    } finally {
      pipeline.close();
    }
  }
}
