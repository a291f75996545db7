import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool api remove <name>`: unregisters an API and deletes its credentials and tokens. */
export class ApiRemoveCommand extends ToolCommand {
  static override paths = [['api', 'remove']];

  static override usage = Command.Usage({
    category: 'APIs',
    description: 'remove a registered API, its credentials and tokens',
    details: `
      Deletes the registry entry, the secret in credentials.json and any cached OAuth tokens. An unknown name is an error (exit 2).
    `,
    examples: [['Remove an API', '$0 api remove petstore']],
  });

  name = Option.String({ name: 'name', required: true });

  async execute(): Promise<number> {
    const { apiRemove } = await import('./actions/api-remove.js');
    return apiRemove(this, this.io);
  }
}
