import { Command, Option } from 'clipanion';
import * as t from 'typanion';
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
    const { apiOps } = await import('./actions/api-ops.js');
    return apiOps(this, this.io);
  }
}
