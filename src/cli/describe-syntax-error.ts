/** Clipanion's parse errors on a known command, said as one line in tool's words. */
import { didYouMean } from '../arazzo/suggest.js';

/** What clipanion's UnknownSyntaxError carries: the argv it read and, per candidate command, why it did not match. */
export interface SyntaxErrorLike {
  input?: readonly string[];
  candidates?: ReadonlyArray<{ reason: string | null }>;
}

const OPTION_NAME = /(?<![\w-])--?[A-Za-z][\w-]*/g;

/**
 * The text after `error:` for a parse error of the command whose usage line is `usage`: an unknown
 * option with the closest one (`unknown option "--inputs" (did you mean "--input"?)`), an option
 * missing its value, a surplus or missing argument. Undefined when clipanion did not say why.
 */
export function describeSyntaxError(error: SyntaxErrorLike, usage: string): string | undefined {
  const reason = error.candidates?.find((candidate) => candidate.reason !== null)?.reason;
  if (!reason) return undefined;
  const input = error.input ?? [];
  const unknown = /^Unsupported option name \("(.+)"\)/.exec(reason);
  if (unknown) {
    const name = unknown[1]!.split('=')[0]!;
    return `unknown option "${name}"${didYouMean(name, new Set(usage.match(OPTION_NAME) ?? []))}`;
  }
  const noValue = /^Not enough arguments to option (\S+?)\.?$/.exec(reason);
  if (noValue) {
    const option = noValue[1]!;
    const next = input[input.indexOf(option) + 1];
    if (next !== undefined && next.startsWith('-')) {
      return `option ${option} needs a value, and "${next}" after it reads as an option; to give it as the value, write ${option}=${next}`;
    }
    return `option ${option} needs a value`;
  }
  const extra = /^Extraneous positional argument \("(.*)"\)/.exec(reason);
  if (extra) return `unexpected argument "${extra[1]}"`;
  if (/^Not enough positional arguments/.test(reason)) return 'a required argument is missing';
  return reason.replace(/\.$/, '');
}
