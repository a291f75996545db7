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
    const { showAuthStatus } = await import('./actions/auth-status.js');
    return showAuthStatus(this, this.io);
  }
}
