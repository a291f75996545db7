import { Builtins, Cli, type CommandClass } from 'clipanion';
import { Writable } from 'node:stream';
import { printableLine, stripControls } from '../output/printable.js';
import { VERSION } from '../version.js';
import type { ToolContext } from './context.js';
import { ToolError } from '../errors/tool-error.js';
import { styleFor } from '../output/style.js';
import { EXIT, exitCodeFor } from './exit-codes.js';
import { ToolCommand } from './tool-command.js';
import { VersionCommand } from './version-command.js';
import { commandClasses } from './commands.js';
import { describeSyntaxError, type SyntaxErrorLike } from './describe-syntax-error.js';

const REPORT_URL = 'https://github.com/tool-cli/tool/issues';

/** Taken out of argv before clipanion sees it (takeDebugFlag), so its help cannot list it. */
const GLOBAL_OPTIONS = `Global options

  --debug
    print stack traces and Node's warnings (or set TOOL_DEBUG=1); works with every command

`;

/** Builds the clipanion CLI with the builtins and every command registered, or only `commands` when given (see commandsNamedBy). */
export function buildCli(colors = false, commands: readonly CommandClass<ToolContext>[] = commandClasses as Array<CommandClass<ToolContext>>): Cli<ToolContext> {
  const cli = new Cli<ToolContext>({ binaryName: 'tool', binaryLabel: 'tool', binaryVersion: VERSION, enableCapture: false, enableColors: colors });
  cli.register(Builtins.HelpCommand);
  cli.register(VersionCommand);
  for (const command of commands) cli.register(command);
  return cli;
}

/**
 * The only commands that `argv` can select, from its first words: clipanion builds its parser
 * from every registered command, which took ~25 ms of each start-up for all of them
 * (measured in the fifth pass of docs/performance.md, in git history). Undefined when every command is needed: no words, an option
 * first (other than a lone --version or -v), -h or --help anywhere, a group's own help
 * (`tool arazzo` lists the group), or words that name no command (the error lists them all).
 * Every command whose path could match is kept, so the parse picks the command it would pick
 * among all of them; runCli parses again with all of them when this one fails.
 */
export function commandsNamedBy(argv: readonly string[]): Array<CommandClass<ToolContext>> | undefined {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return [];
  const first = argv[0];
  if (first === undefined || first.startsWith('-') || argv.includes('-h') || argv.includes('--help')) return undefined;
  const named = (commandClasses as Array<CommandClass<ToolContext>>).filter((command) =>
    (command.paths ?? []).some((path) => path.length > 0 && path.length <= argv.length && path.every((word, i) => argv[i] === word)),
  );
  return named.some((command) => command.usage?.category !== 'Help') ? named : undefined;
}

/** Strips the global `--debug` flag (anywhere before `--`); returns the rest and whether it was present. */
export function takeDebugFlag(argv: readonly string[]): { argv: string[]; debug: boolean } {
  const rest: string[] = [];
  let debug = false;
  let passthrough = false;
  for (const arg of argv) {
    if (!passthrough && arg === '--debug') debug = true;
    else rest.push(arg);
    if (arg === '--') passthrough = true;
  }
  return { argv: rest, debug };
}

/** Whether stack traces and Node's warnings are shown: `--debug` on the command line or TOOL_DEBUG=1 (or true). */
export function wantsDebug(argv: readonly string[], env: Record<string, string | undefined>): boolean {
  return takeDebugFlag(argv).debug || ['1', 'true'].includes(env.TOOL_DEBUG ?? '');
}

/**
 * Runs one command line and returns the exit code. Never throws: usage errors go to stderr with
 * the usage line (exit 2), user errors as one or two lines, internal errors as one line (the stack
 * only with --debug or TOOL_DEBUG=1).
 */
export async function runCli(rawArgv: readonly string[], context: Omit<ToolContext, 'debug' | 'colorDepth'> & { debug?: boolean }): Promise<number> {
  const { argv } = takeDebugFlag(rawArgv);
  const debug = context.debug === true || wantsDebug(rawArgv, context.env);
  const ctx: ToolContext = { ...context, debug, colorDepth: context.colors ? 8 : 1, runCommandLine: runCli };
  const named = commandsNamedBy(argv);
  let cli = buildCli(ctx.colors && ctx.stdoutIsTTY, named);
  let command;
  try {
    command = cli.process(argv, ctx);
  } catch (error) {
    if (named === undefined) return reportFailure(cli, error, ctx, commandNamedBy(argv));
    // Parse errors name candidates among every command: parse again as if all were registered.
    cli = buildCli(ctx.colors && ctx.stdoutIsTTY);
    try {
      command = cli.process(argv, ctx);
    } catch (again) {
      return reportFailure(cli, again, ctx, commandNamedBy(argv));
    }
  }
  if (!(command instanceof ToolCommand)) {
    // Help and version: clipanion writes `#0` for every option value; name the values instead.
    const help = new CollectingStream();
    const code = await cli.run(command, { ...ctx, stdout: help });
    ctx.stdout.write(namedPlaceholders(help.text));
    if (argv.length === 0 || (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h'))) ctx.stdout.write(GLOBAL_OPTIONS);
    return code;
  }
  let code: number;
  try {
    code = await cli.run(command, ctx);
  } catch (error) {
    return reportFailure(cli, error, ctx);
  }
  if (command instanceof ToolCommand && command.failure !== undefined) {
    return reportFailure(cli, command.failure, ctx, command.constructor as CommandClass<ToolContext>);
  }
  return code;
}

/** The command whose path is the longest prefix of `argv` (for the usage line of an option error that clipanion raised while parsing). */
function commandNamedBy(argv: readonly string[]): CommandClass<ToolContext> | undefined {
  let best: { command: CommandClass<ToolContext>; length: number } | undefined;
  for (const command of commandClasses as Array<CommandClass<ToolContext>>) {
    for (const path of command.paths ?? []) {
      const matches = path.length > 0 && path.every((word, i) => argv[i] === word);
      if (matches && path.length > (best?.length ?? 0)) best = { command, length: path.length };
    }
  }
  return best?.command;
}

function isUsageError(error: unknown): boolean {
  const e = error as { clipanion?: { type?: string }; name?: string } | null;
  return e?.clipanion?.type === 'usage' || e?.name === 'UnknownSyntaxError' || e?.name === 'AmbiguousSyntaxError' || e?.name === 'UsageError';
}

function reportFailure(cli: Cli<ToolContext>, error: unknown, ctx: ToolContext, command?: CommandClass<ToolContext>): number {
  const style = styleFor(ctx.colors);
  const out = (line: string) => ctx.stderr.write(`${line}\n`);
  if (error instanceof ToolError) {
    // Messages can quote a server or a document: no escape sequences reach the terminal (printable.ts).
    out(`${style.red('error:')} ${printableLine(error.message)}`);
    if (error.hint) out(`  ${stripControls(error.hint)}`);
    if (error.code === 'USAGE' && command) out(usageLine(cli, command));
    if (ctx.debug && error.stack) out(style.dim(error.stack));
    return exitCodeFor(error.kind);
  }
  if (isUsageError(error)) {
    const message = (error as Error).message.trim();
    const usage = command ? usageLine(cli, command) : undefined;
    const said = (error as Error).name === 'UnknownSyntaxError' && usage ? describeSyntaxError(error as SyntaxErrorLike, usage) : undefined;
    if (said !== undefined) {
      out(`${style.red('error:')} ${said}`);
      out(usage!);
    } else if ((error as Error).name === 'UnknownSyntaxError' || (error as Error).name === 'AmbiguousSyntaxError') {
      ctx.stderr.write(namedPlaceholders(cli.error(error, { colored: ctx.colors })));
    } else {
      out(`${style.red('error:')} ${message}`);
      if (command) out(usageLine(cli, command));
    }
    out(`Run \`tool --help\` for the list of commands, or \`tool <command> --help\` for one command.`);
    return EXIT.USAGE;
  }
  const message = error instanceof Error ? error.message : String(error);
  out(`${style.red('internal error:')} ${printableLine(message.split('\n')[0] ?? '')}`);
  if (ctx.debug && error instanceof Error && error.stack) out(style.dim(error.stack));
  else out(`  This is a bug in tool. Run again with --debug for details and report it at ${REPORT_URL}`);
  return EXIT.INTERNAL;
}

function usageLine(cli: Cli<ToolContext>, command: CommandClass<ToolContext>): string {
  return namedPlaceholders(cli.usage(command, { colored: false, prefix: 'Usage: ' })).trimEnd();
}

/** What an option's value is, for usage text (clipanion writes `#0`). */
const VALUE_NAMES: Record<string, string> = {
  '--input': 'key=value',
  '--input-env': 'name=VAR',
  '--inputs-file': 'file',
  '--workflow': 'id',
  '--output': 'format',
  '--format': 'format',
  '--tool-max-steps': 'n',
  '--tool-max-depth': 'n',
  '--tool-retry': 'n',
  '--tool-timeout': 'seconds',
  '--trace': 'file',
  '--report': 'file.json',
  '--har': 'file.har',
  '--junit': 'file.xml',
  '--results': 'file.jsonl',
  '--resume': 'file.jsonl',
  '--html': 'file.html',
  '--threshold': 'condition',
  '--concurrency': 'n',
  '--repeat': 'n',
  '--duration': 'duration',
  '--rate': 'rate',
  '--shard': 'i/n',
  '--from': 'file.har',
  '--inspect-port': 'port',
  '--http': '[host:]port',
  '--http-host': 'host',
  '--log-level': 'level',
  '--header': 'name: value',
  '-H': 'name: value',
  '--data': 'data',
  '-d': 'data',
  '--spec': 'file|url',
  '--level': 'level',
  '--tool-runner': 'v1|v2',
  '--checks': 'off|warn|fail',
  '--tool-body-limit': 'bytes',
  '--tool-allow-ref-host': 'host',
  '--tool-allow-read': 'folder',
  '--tool-bind': 'source=api',
  '--type': 'scheme',
  '--token-env': 'VAR',
  '--password-env': 'VAR',
  '--client-secret-env': 'VAR',
  '--username': 'name',
  '--key-name': 'name',
  '--in': 'header|query|cookie',
  '--token-url': 'url',
  '--authorize-url': 'url',
  '--device-url': 'url',
  '--client-id': 'id',
  '--scope': 'scopes',
};

/** Replaces clipanion's `--option #0` placeholders with `--option <what>`, keeping the option table aligned. */
export function namedPlaceholders(usage: string): string {
  const named = usage.replace(/((?:-{1,2}[A-Za-z][\w-]*,?)+) #\d+/g, (_, names: string) => {
    const name = names.split(',').find((n) => VALUE_NAMES[n] !== undefined);
    return `${names} <${name ? VALUE_NAMES[name] : 'value'}>`;
  });
  const row = /^ {2}(-\S.*?) {2,}(\S.*)$/;
  const lines = named.split('\n');
  const width = Math.max(0, ...lines.map((line) => row.exec(line)?.[1]?.length ?? 0));
  return lines.map((line) => line.replace(row, (_, spec: string, text: string) => `  ${spec.padEnd(width + 4)}${text}`)).join('\n');
}

/** A stream that keeps what is written to it. */
class CollectingStream extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}
