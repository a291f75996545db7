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
    const { logout } = await import('../auth/logout.js');
    const { configPaths } = await import('../config/paths.js');
    const removed = await logout(configPaths(this.context.env), this.name);
    this.note(removed ? `Logged out of ${this.name}: its credentials and tokens were removed.` : `${this.name} had no credentials; nothing to remove.`);
    return 0;
  }
}
