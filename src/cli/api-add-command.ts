import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool api add <name> <base-url>`: registers an API (base URL, description, extra headers). */
export class ApiAddCommand extends ToolCommand {
  static override paths = [['api', 'add']];

  static override usage = Command.Usage({
    category: 'APIs',
    description: 'register an API under a name',
    details: `
      Stores the API in the registry (\`$XDG_CONFIG_HOME/tool/apis.json\`, no secrets). A workflow source whose \`name\` (or \`x-tool-api\`) matches is then sent to this base URL with this API's credentials; credentials never go to another origin.

      The name starts with a letter and has at most 64 letters, digits, \`-\` or \`_\`. The base URL is http(s), without user:password, query string or fragment. \`--spec\` takes a file (stored as an absolute path) or an http(s) URL. \`--header\` adds a non-secret header to every request; use \`tool auth login\` for credentials.

      Adding a name that exists is an error unless \`--force\`; a forced change of origin drops the stored credentials.
    `,
    examples: [
      ['Register an API', '$0 api add petstore https://petstore3.swagger.io/api/v3'],
      ['With its description and a header', "$0 api add billing https://billing.example.com/v2 --spec ./billing.yaml --header 'X-Tenant: acme'"],
    ],
  });

  name = Option.String({ name: 'name', required: true });

  baseUrl = Option.String({ name: 'base-url', required: true });

  spec = Option.String('--spec', { description: 'The OpenAPI description: a file path or an http(s) URL' });

  headers = Option.Array('--header', [], { description: "A header sent with every request, 'Name: value' (repeatable)" });

  force = Option.Boolean('--force', false, { description: 'Replace an API of the same name' });

  async execute(): Promise<number> {
    const { apiAdd } = await import('./actions/api-add.js');
    return apiAdd(this, this.io);
  }
}
