/**
 * Every code a ToolError can carry, with its kind and when it happens: the one list that
 * docs/errors.md is generated from (test/unit/error-docs.test.ts). The CLI alone turns a kind into
 * an exit code (src/cli/exit-codes.ts); nothing below src/cli knows exit codes.
 */

/** What sort of failure an error is. */
export type ErrorKind =
  /** A bad flag, argument, file, configuration or environment: the command did not start its work. */
  | 'usage'
  /** The Arazzo document cannot be used: not YAML, not a mapping, or invalid for the runner. */
  | 'invalid-document'
  /** The work was attempted and failed: a request, a login, a trace file. */
  | 'failed'
  /** The user stopped the command (Ctrl-C) or a login. */
  | 'interrupted'
  /** A bug in tool itself. */
  | 'internal';

interface CodeInfo {
  kind: ErrorKind;
  /** When the error happens, for docs/errors.md. */
  when: string;
}

export const ERROR_CODES = {
  // Flags, arguments and files named on the command line.
  USAGE: { kind: 'usage', when: 'A flag value or a combination of flags and arguments is not accepted (the usage line is printed too).' },
  FILE: { kind: 'usage', when: 'A file named by a flag cannot be read or written: request body (`-d @file`), inputs file, trace file, `--report`/`--har`/`--junit` file (checked before any request), replay\'s `--from` file.' },
  HAR_INVALID: { kind: 'usage', when: '`tool arazzo replay --from`: the file is not a HAR file (not JSON, no `log.entries`, or an entry without its request method and URL or its response status); nothing runs.' },
  MERGE_INPUT_INVALID: { kind: 'usage', when: '`tool arazzo merge-reports`: a `.json` file is not a suite report of `arazzo test --report`, a `.jsonl` line other than the last is not a run of `--results` (the last, cut short by a kill, is left out with a warning), or a `.xml` file is not the `--junit` file of `arazzo test`; the message names the file (and line); nothing is written.' },
  NO_SPEC: { kind: 'usage', when: '`tool api ops` on an API registered without a description (`--spec`).' },
  SVG_TOO_LARGE: { kind: 'usage', when: '`tool arazzo graph --format svg`: the chart has more than 300 nodes, or Graphviz did not lay it out within 20 s; nothing is printed (`--format dot` or `mermaid` print any chart).' },
  DESCRIPTION_REFUSED: { kind: 'usage', when: '`tool arazzo validate`: a source description breaks a read rule (a folder outside the allowed ones, a non-public address).' },

  // Loading an Arazzo document.
  FILE_NOT_FOUND: { kind: 'usage', when: 'The Arazzo document does not exist.' },
  IS_A_DIRECTORY: { kind: 'usage', when: 'The Arazzo document path is a directory.' },
  FILE_UNREADABLE: { kind: 'usage', when: 'The Arazzo document cannot be read (permissions, I/O error), or is not a regular file (a FIFO, a device, a socket).' },
  FILE_TOO_LARGE: { kind: 'usage', when: 'The Arazzo document is larger than the size limit.' },
  YAML_SYNTAX: { kind: 'invalid-document', when: 'The Arazzo document is not valid YAML or JSON.' },
  NOT_AN_OBJECT: { kind: 'invalid-document', when: 'The top level of the Arazzo document is not a mapping.' },
  ALIAS_LIMIT: { kind: 'invalid-document', when: 'YAML aliases in the document expand to too many nodes.' },
  TOO_DEEP: { kind: 'invalid-document', when: 'The document nests deeper than the depth limit.' },

  // Preparing a workflow run (before any request).
  BAD_REFERENCE: { kind: 'invalid-document', when: 'A `$components` reference in a step does not resolve.' },
  UNKNOWN_GOTO_TARGET: { kind: 'invalid-document', when: 'A `goto` action names a step or workflow that does not exist.' },
  WORKFLOW_KEY_CLASH: { kind: 'invalid-document', when: 'v2: a workflowId with a `.` (such as `lib.finish`) is also the key of a workflow of an Arazzo source (`finish` of source `lib`); nothing is sent.' },
  DEPENDS_ON_CYCLE: { kind: 'invalid-document', when: 'v2: the `dependsOn` lists of the selected workflow and its dependencies form a cycle, or name a workflow the document does not have.' },
  RETRY_ON_SUCCESS: { kind: 'invalid-document', when: 'A success action is a `retry` (Arazzo allows only `end` and `goto` there).' },
  BAD_CONDITION: { kind: 'invalid-document', when: 'A criterion condition does not parse.' },
  UNKNOWN_OPERATION: { kind: 'invalid-document', when: "A step's `operationId` is in none of the source descriptions." },
  AMBIGUOUS_OPERATION: { kind: 'invalid-document', when: "A step's unqualified `operationId` is in more than one source description." },
  BAD_PARAMETER: { kind: 'invalid-document', when: 'A step parameter cannot be prepared (a bad reference or location).' },
  NO_SERVER_URL: { kind: 'usage', when: 'A step has no base URL: its source is bound to no API and its description has no usable `servers`.' },
  DEPENDS_ON_UNSUPPORTED: { kind: 'failed', when: 'The selected workflow declares `dependsOn`, which the v1 runner does not run; nothing is sent.' },
  UNKNOWN_API: { kind: 'usage', when: '`x-tool-api` or `--tool-bind` (v2) names an API that is not registered.' },
  UNKNOWN_BIND_SOURCE: { kind: 'usage', when: '`--tool-bind <source>=<api>` (v2) names a source that is not an OpenAPI source of the document, or `<arazzo-source>.<source>` one the run does not open.' },
  INVALID_INPUTS: { kind: 'usage', when: '`--tool-runner v2`: a required workflow input is missing, or an input does not match the workflow\'s `inputs` schema; nothing is sent.' },
  INPUT_SCHEMA_INVALID: { kind: 'invalid-document', when: '`--tool-runner v2`: the workflow\'s `inputs` schema does not compile (JSON Schema 2020-12), or is too large or too deep.' },
  DESCRIPTION_UNAVAILABLE: { kind: 'usage', when: 'A source description cannot be read, fetched or parsed, or breaks a read rule.' },
  ARAZZO_SOURCE_INVALID: { kind: 'invalid-document', when: 'v2: an Arazzo source the run reaches is not a valid workflow document, or a step, action or `dependsOn` names a workflow its Arazzo source does not declare; the findings are printed first, and nothing is sent.' },

  // Sending requests.
  TRANSPORT: { kind: 'failed', when: 'A direct request (`tool get` …) failed without a response: connection refused, timeout, TLS error.' },
  INTERRUPTED: { kind: 'interrupted', when: 'A direct request was abandoned by Ctrl-C.' },
  TRACE_WRITE_FAILED: { kind: 'failed', when: 'The `--trace` file could not be written to the end (disk full, removed device); the run is reported as a warning.' },
  REPORT_WRITE_FAILED: { kind: 'failed', when: 'A `--report`, `--har` or `--junit` file could not be written when the run ended (disk full, removed device); reported as a warning, the exit code stays the run\'s.' },
  REPLAY_NO_MATCH: { kind: 'failed', when: '`tool arazzo replay`: a step sent a request that the HAR file has no recorded response left for (another method or URL, or more of them than were recorded); the step fails with this message.' },

  // Asynchronous (AsyncAPI) channels: src/async.
  ASYNCAPI_INVALID: { kind: 'invalid-document', when: 'An AsyncAPI source description is not an AsyncAPI 3 document, or a local `$ref` in it does not resolve or loops; the message names the JSON pointer.' },
  ASYNC_PROTOCOL_UNSUPPORTED: { kind: 'invalid-document', when: 'An AsyncAPI server uses a protocol tool cannot speak (supported: `mqtt`, `mqtts`, `ws`, `wss`); the message names the protocol.' },
  ASYNC_CONNECT_FAILED: { kind: 'failed', when: 'A message broker or WebSocket server could not be reached or refused the connection (refused, timed out, bad credentials, protocol version refused); the message names `host:port`, never the password.' },
  ASYNC_CONNECTION_LOST: { kind: 'failed', when: 'The connection to a message broker or WebSocket server closed while a step was waiting for a message (or the server sent a WebSocket message over the size limit), or the broker refused a subscription.' },
  ASYNC_PUBLISH_FAILED: { kind: 'failed', when: 'A message could not be sent: the broker refused it, the connection was closed or closed before the broker acknowledged it, or it carries headers over MQTT 3.1.1, which has no place for them.' },
  ASYNC_TIMEOUT: { kind: 'failed', when: 'No matching message arrived on the channel within the step\'s `timeout`; the message names the channel and the milliseconds.' },
  ASYNC_ABORTED: { kind: 'interrupted', when: 'Waiting for a message or a connection was stopped (Ctrl-C, or the workflow ended).' },

  // Configuration files.
  CONFIG_SYNTAX: { kind: 'usage', when: 'A configuration file is not valid JSON.' },
  PROJECT_SETTINGS_INVALID: { kind: 'usage', when: 'The project\'s `tool.config.yaml` is not valid YAML, has an unknown key or a bad value, or names a folder or report path outside its project.' },
  CONFIG_SHAPE: { kind: 'usage', when: 'A configuration file is not a JSON object of the expected shape.' },
  CONFIG_VERSION: { kind: 'usage', when: 'A configuration file has no `version`, or one this tool does not know.' },
  CONFIG_UNREADABLE: { kind: 'usage', when: 'A configuration file cannot be read.' },
  CONFIG_WRITE_FAILED: { kind: 'usage', when: 'A configuration file cannot be written (permissions, disk full).' },
  CONFIG_READ_ONLY: { kind: 'usage', when: 'A configuration file or folder is read-only; nothing is changed.' },
  CONFIG_LOCKED: { kind: 'usage', when: 'Another tool process holds the configuration lock for too long.' },
  CONFIG_LOCK_LOST: { kind: 'usage', when: 'The configuration lock was taken over while this process was paused.' },
  CONFIG_HOME_MISSING: { kind: 'usage', when: 'Neither `XDG_CONFIG_HOME`/`XDG_CACHE_HOME` nor `HOME` is set to a usable folder.' },
  API_NOT_FOUND: { kind: 'usage', when: 'No API of that name is registered.' },
  API_EXISTS: { kind: 'usage', when: '`tool api add` with a name that is already registered (without `--force`).' },
  API_CHANGED: { kind: 'usage', when: 'The API was removed or moved by another command while this one was running.' },
  CREDENTIAL_ORIGIN_MISMATCH: { kind: 'usage', when: "A stored credential was given for another origin than the API's current base URL; it is not sent." },
  CREDENTIAL_WITHOUT_SCHEME: { kind: 'usage', when: 'A credential is stored for an API that records no auth scheme.' },
  INVALID_API_NAME: { kind: 'usage', when: 'An API name is not a valid name.' },
  INVALID_URL: { kind: 'usage', when: 'A base URL or OAuth endpoint is not an acceptable http(s) URL.' },
  INVALID_HEADER: { kind: 'usage', when: 'A `--header` of `tool api add` is malformed or given twice.' },
  INVALID_ENV_NAME: { kind: 'usage', when: 'A flag expects an environment variable name and got something else.' },
  INVALID_SPEC: { kind: 'usage', when: '`--spec` is neither a file path nor an http(s) URL.' },

  // The description cache.
  CACHE_TTL_INVALID: { kind: 'usage', when: '`TOOL_CACHE_TTL` is not a whole number of seconds.' },
  CACHE_SIZE_INVALID: { kind: 'usage', when: '`TOOL_CACHE_MAX_MIB` is not a whole number of MiB.' },

  // Credentials and logins.
  NOT_LOGGED_IN: { kind: 'usage', when: 'An API with an auth scheme has no stored credential.' },
  SECRET_ENV_MISSING: { kind: 'usage', when: 'An API takes its secret from an environment variable that is not set.' },
  LOGIN_EXPIRED: { kind: 'usage', when: 'An OAuth login has expired and cannot be refreshed.' },
  OAUTH_ERROR: { kind: 'failed', when: 'An OAuth 2.0 endpoint answered with an `error`.' },
  OAUTH_BAD_RESPONSE: { kind: 'failed', when: 'An OAuth 2.0 endpoint answered something that is not a valid token or device-code response.' },
  OAUTH_UNREACHABLE: { kind: 'failed', when: 'An OAuth 2.0 endpoint could not be reached.' },
  LOGIN_TIMEOUT: { kind: 'failed', when: 'No browser came back to the loopback redirect in time.' },
  LOGIN_ABORTED: { kind: 'interrupted', when: 'A login was interrupted (Ctrl-C, or the prompt was closed).' },
  ACCESS_DENIED: { kind: 'failed', when: 'The login was denied on the verification page.' },
  DEVICE_CODE_EXPIRED: { kind: 'failed', when: 'The device code expired before the login was approved.' },
} as const satisfies Record<string, CodeInfo>;

/** The documented code of every ToolError. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The kind of the errors that carry `code`. */
export function kindOf(code: ErrorCode): ErrorKind {
  return ERROR_CODES[code].kind;
}
