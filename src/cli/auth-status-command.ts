import { Command, Option } from 'clipanion';
import * as t from 'typanion';
import { ToolCommand } from './tool-command.js';

/** `tool auth status [<name>]`: each API's scheme, where its secret comes from, and its token's expiry. */
export class AuthStatusCommand extends ToolCommand {
  static override paths = [['auth', 'status']];

  static override usage = Command.Usage({
    category: 'Auth',
    description: 'show how each API authenticates (never the secret)',
    details: `
      For each registered API (or only \`<name>\`): the auth scheme, whether a secret is stored or which environment variable supplies it (and whether it is set), and for OAuth 2.0 whether a refresh token is stored and when the cached access token expires. \`--output json\` prints an array (an object with \`<name>\`).
    `,
    examples: [
      ['Every API', '$0 auth status'],
      ['One API as JSON', '$0 auth status petstore --output json'],
    ],
  });

  name = Option.String({ name: 'name', required: false });

  output = Option.String('--output', 'text', { description: 'text or json', validator: t.isEnum(['text', 'json'] as const) });

  async execute(): Promise<number> {
    const { configPaths } = await import('../config/paths.js');
    const { apiRegistry, requireApi } = await import('../config/api-registry.js');
    const { credentialStore } = await import('../config/credential-store.js');
    const { tokenStore } = await import('../config/token-store.js');
    const { authStatus } = await import('../auth/auth-status.js');
    const { formatAuthStatus } = await import('./auth-format.js');
    const { env } = this.context;
    const paths = configPaths(env);
    const registry = await apiRegistry(paths).read();
    const entries = this.name === undefined ? [...registry.values()] : [requireApi(registry, this.name)];
    const credentials = await credentialStore(paths).read();
    const tokens = await tokenStore(paths).read();
    const now = Date.now();
    const statuses = entries.map((entry) => authStatus(entry, credentials.get(entry.name), tokens.get(entry.name), env, now));
    if (this.output === 'json') {
      const value = this.name === undefined ? statuses : statuses[0];
      this.context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
      return 0;
    }
    if (statuses.length === 0) {
      this.note('No APIs are registered. Add one: tool api add <name> <base-url>');
      return 0;
    }
    this.context.stdout.write(formatAuthStatus(statuses, now));
    return 0;
  }
}
