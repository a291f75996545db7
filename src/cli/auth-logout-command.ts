import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool auth logout <name>`: removes an API's secret, tokens and auth scheme. */
export class AuthLogoutCommand extends ToolCommand {
  static override paths = [['auth', 'logout']];

  static override usage = Command.Usage({
    category: 'Auth',
    description: "remove an API's credentials and tokens",
    details: `
      Deletes the stored secret and refresh token (credentials.json), the cached access token (tokens.json) and the auth scheme of the API; its requests are then sent without credentials. The API stays registered (\`tool api remove\` deletes it). A secret read from an environment variable is not touched, only the reference to it is forgotten.
    `,
    examples: [['Log out', '$0 auth logout petstore']],
  });

  name = Option.String({ name: 'name', required: true });

  async execute(): Promise<number> {
    const { authLogout } = await import('./actions/auth-logout.js');
    return authLogout(this, this.io);
  }
}
