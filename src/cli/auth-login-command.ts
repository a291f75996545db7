import { Command, Option } from 'clipanion';
import { ToolCommand } from './tool-command.js';

/** `tool auth login <name>`: sets up an API's auth scheme and stores its secret (or gets OAuth tokens). */
export class AuthLoginCommand extends ToolCommand {
  static override paths = [['auth', 'login']];

  static override usage = Command.Usage({
    category: 'Auth',
    description: "set up an API's credentials",
    details: `
      Non-interactive forms (the contract for scripts and CI):

      - \`--type bearer --with-token\` (the token on stdin)
      - \`--type basic --username <u> --password-stdin\`
      - \`--type api-key --key-name <name> [--in header|query|cookie] --with-token\`
      - \`--type oauth2-client-credentials --token-url <url> --client-id <id> --client-secret-stdin [--scope <s>]...\`
      - \`--type oauth2-authorization-code --authorize-url <url> --token-url <url> --client-id <id> [--scope <s>]... [--no-browser]\`
      - \`--type oauth2-device-code --device-url <url> --token-url <url> --client-id <id> [--scope <s>]...\`

      Instead of stdin, \`--token-env\`, \`--password-env\` or \`--client-secret-env\` name an environment variable read at each run; only its name is stored.

      On a terminal, anything missing is asked for (secrets with hidden input). Otherwise a missing flag is a usage error (exit 2). Secrets go to credentials.json (mode 0600) and are never printed.
    `,
    examples: [
      ['A bearer token from a variable, stored', 'printf %s "$TOKEN" | $0 auth login github --type bearer --with-token'],
      ['A bearer token read from $CI_TOKEN at each run', '$0 auth login github --type bearer --token-env CI_TOKEN'],
      ['An API key in a header', 'printf %s "$KEY" | $0 auth login weather --type api-key --key-name X-Api-Key --with-token'],
      ['OAuth 2.0 client credentials', 'printf %s "$SECRET" | $0 auth login billing --type oauth2-client-credentials --token-url https://auth.example.com/token --client-id tool --client-secret-stdin --scope invoices:read'],
      ['OAuth 2.0 device code', '$0 auth login gh --type oauth2-device-code --device-url https://github.com/login/device/code --token-url https://github.com/login/oauth/access_token --client-id Iv1.abc'],
    ],
  });

  name = Option.String({ name: 'name', required: true });

  type = Option.String('--type', { description: 'bearer, basic, api-key, oauth2-client-credentials, oauth2-authorization-code or oauth2-device-code' });

  withToken = Option.Boolean('--with-token', false, { description: 'Read the token or API key from stdin' });

  tokenEnv = Option.String('--token-env', { description: 'Read the token or API key from this environment variable at each run' });

  username = Option.String('--username', { description: 'User name (basic)' });

  passwordStdin = Option.Boolean('--password-stdin', false, { description: 'Read the password from stdin (basic)' });

  passwordEnv = Option.String('--password-env', { description: 'Read the password from this environment variable at each run (basic)' });

  keyName = Option.String('--key-name', { description: 'Header, query parameter or cookie name of the API key' });

  keyIn = Option.String('--in', { description: 'Where the API key goes: header (default), query or cookie' });

  tokenUrl = Option.String('--token-url', { description: 'OAuth 2.0 token endpoint' });

  authorizeUrl = Option.String('--authorize-url', { description: 'OAuth 2.0 authorization endpoint (authorization code)' });

  deviceUrl = Option.String('--device-url', { description: 'OAuth 2.0 device authorization endpoint (device code)' });

  clientId = Option.String('--client-id', { description: 'OAuth 2.0 client ID' });

  clientSecretStdin = Option.Boolean('--client-secret-stdin', false, { description: 'Read the client secret from stdin (client credentials)' });

  clientSecretEnv = Option.String('--client-secret-env', { description: 'Read the client secret from this environment variable at each run' });

  scopes = Option.Array('--scope', [], { description: 'An OAuth 2.0 scope to request (repeatable)' });

  browser = Option.Boolean('--browser', true, {
    description: 'Authorization code: open a browser when stderr is a terminal (the default); --no-browser only prints the URL',
  });

  async execute(): Promise<number> {
    const { authLogin } = await import('./actions/auth-login.js');
    return authLogin(this, this.io);
  }
}
