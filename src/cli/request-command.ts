import { Command, Option } from 'clipanion';
import type { HttpMethod } from '../http/types.js';
import { exitCodeFor } from './exit-codes.js';
import { parseCount, parseSeconds } from './input-flags.js';
import { ToolCommand } from './tool-command.js';

const DETAILS = `
  \`<url>\` is an absolute http(s) URL (sent without stored credentials), or \`<api-name>/<path>\` to use a registered API: the path is appended to its base URL and its auth chain runs (registry headers and credentials, sent only to the API's own origin).

  The response body goes to stdout: exactly the bytes received when stdout is a pipe or a file, indented JSON on a terminal (a binary body is not dumped on a terminal). \`-v\` prints the request line, the request headers (secrets as ***), the status line and the response headers on stderr.

  A body comes from \`-d <text>\`, \`-d @file\` (bytes as they are) or \`-d -\` (stdin). Its Content-Type is \`application/x-www-form-urlencoded\` as with curl, \`application/json\` with \`--json\` (which also sets Accept), or whatever \`-H 'Content-Type: …'\` says.

  Exit codes: 0 when a response arrived, whatever its status; 1 for HTTP >= 400 with \`--fail\` (the body then goes to stderr) or when no response arrived (connection, DNS, timeout); 2 usage or configuration error (such as an unknown API name); 130 interrupted (143 on SIGTERM, 129 on SIGHUP). See docs/requests.md.
`;

/** The clipanion command for one HTTP method; every method shares these options and the same code path. */
function requestCommand(method: HttpMethod, description: string, examples: Array<[string, string]>) {
  return class RequestCommand extends ToolCommand {
    static override paths = [[method.toLowerCase()]];

    static override usage = Command.Usage({ category: 'Requests', description, details: DETAILS, examples });

    target = Option.String({ name: 'url', required: true });

    headers = Option.Array('-H,--header', [], { description: "A request header, 'Name: value' (repeatable)" });

    data = Option.String('-d,--data', { description: 'The request body: text, @file, or - for stdin' });

    json = Option.Boolean('--json', false, { description: 'Send and accept JSON (Content-Type and Accept: application/json)' });

    verbose = Option.Boolean('-v,--verbose', false, { description: 'Print the request and response lines and headers on stderr' });

    fail = Option.Boolean('-f,--fail', false, { description: 'Exit 1 on HTTP >= 400 (the body goes to stderr instead of stdout)' });

    retry = Option.String('--tool-retry', '2', { description: 'Transport retries for connection errors and 408/429/5xx (default 2; idempotent methods only)' });

    retryUnsafe = Option.Boolean('--tool-retry-unsafe', false, { description: 'Let transport retries repeat POST and PATCH' });

    timeout = Option.String('--tool-timeout', '30', { description: 'Request timeout in seconds (default 30)' });

    async execute(): Promise<number> {
      const options = {
        method,
        target: this.target,
        headers: this.headers,
        json: this.json,
        verbose: this.verbose,
        fail: this.fail,
        retry: parseCount('--tool-retry', this.retry, 0, 20),
        retryUnsafe: this.retryUnsafe,
        timeoutMs: parseSeconds('--tool-timeout', this.timeout, 3600),
        ...(this.data !== undefined ? { data: this.data } : {}),
      };
      const { sendDirectRequest } = await import('../request/send-direct-request.js');
      return exitCodeFor((await sendDirectRequest(options, this.context)).kind);
    }
  };
}

/** `tool get|post|put|patch|delete|head <url>`: one request through the request pipeline. */
export const requestCommands = [
  requestCommand('GET', 'send a GET request and print the response body', [
    ['Fetch a URL', '$0 get https://httpbin.org/json'],
    ['Use a registered API (its base URL and credentials)', '$0 get petstore/pet/1'],
    ['Show the exchange on stderr', '$0 get petstore/pet/1 -v'],
  ]),
  requestCommand('POST', 'send a POST request with a body and print the response body', [
    ['Post JSON', `$0 post petstore/pet --json -d '{"name":"Rex"}'`],
    ['Post a file', '$0 post petstore/pet --json -d @pet.json'],
    ['Post stdin', 'jq -n \'{name:"Rex"}\' | $0 post petstore/pet --json -d -'],
  ]),
  requestCommand('PUT', 'send a PUT request with a body and print the response body', [['Replace a resource', '$0 put petstore/pet --json -d @pet.json']]),
  requestCommand('PATCH', 'send a PATCH request with a body and print the response body', [['Change a field', `$0 patch billing/invoices/7 --json -d '{"paid":true}'`]]),
  requestCommand('DELETE', 'send a DELETE request and print the response body', [['Delete, failing on HTTP errors', '$0 delete petstore/pet/1 --fail']]),
  requestCommand('HEAD', 'send a HEAD request (use -v to see the status and headers)', [['See the headers', '$0 head https://example.com -v']]),
];
