/**
 * runCli registers with clipanion only the commands that argv's first words can select
 * (commandsNamedBy). These tests check that the smaller parser picks the same command with the
 * same option values as the parser of every command, and that help, unknown commands and group
 * help still see them all.
 */
import { describe, expect, it } from '@jest/globals';
import type { Command } from 'clipanion';
import { buildCli, commandsNamedBy } from '../../src/cli/run-cli.js';
import type { ToolContext } from '../../src/cli/context.js';
import { runTool } from './run-tool.js';

const paths = (argv: string[]) => commandsNamedBy(argv)?.map((command) => command.paths?.[0]?.join(' '));

/** The command clipanion picks for argv, as its class name and its option values. */
function parsed(argv: string[], all: boolean): { name: string; values: string } | { error: string } {
  const cli = all ? buildCli(false) : buildCli(false, commandsNamedBy(argv));
  try {
    const command = cli.process(argv, {} as ToolContext) as Command<ToolContext>;
    const values = JSON.stringify(command, (key, value: unknown) => (key === 'cli' || key === 'context' ? undefined : value));
    return { name: command.constructor.name, values };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

describe('which commands a command line registers', () => {
  it('registers only the builtins for a lone --version or -v', () => {
    expect(paths(['--version'])).toEqual([]);
    expect(paths(['-v'])).toEqual([]);
  });

  it('registers the commands whose path starts the command line, group help included', () => {
    expect(paths(['arazzo', 'run', 'flow.arazzo.yaml', '--quiet'])).toEqual(['arazzo', 'arazzo run']);
    expect(paths(['get', 'https://example.test/'])).toEqual(['get']);
    expect(paths(['api', 'add', 'pets', 'https://example.test'])).toEqual(['api', 'api add']);
  });

  it('registers every command for help, a group alone, an option first, no words or unknown words', () => {
    for (const argv of [[], ['--help'], ['-h'], ['arazzo'], ['arazzo', 'run', '--help'], ['api', 'add', '-h'], ['--debugx'], ['arazzo', 'runn', 'x'], ['nope']]) {
      expect(paths(argv)).toBeUndefined();
    }
  });

  it('picks the same command with the same option values as the parser of every command', () => {
    const lines = [
      ['--version'],
      ['arazzo', 'run', 'flow.arazzo.yaml', '--quiet', '--input', 'a=1', '--input', 'b=2'],
      ['arazzo', 'run', 'flow.arazzo.yaml', '--workflow', 'w', '--output', 'yaml', '--dry-run'],
      ['arazzo', 'validate', 'flow.arazzo.yaml'],
      ['arazzo', 'graph', 'flow.arazzo.yaml'],
      ['get', 'https://example.test/pets', '-H', 'accept: application/json'],
      ['post', 'https://example.test/pets', '--json', '-d', '{"a":1}'],
      ['api', 'list'],
      ['cache', 'clear'],
      ['arazzo', 'run'],
      ['arazzo', 'run', 'a', 'b'],
      ['arazzo', 'run', 'flow.arazzo.yaml', '--no-such-option'],
      ['api', 'add'],
    ];
    for (const argv of lines) expect({ argv, ...parsed(argv, false) }).toEqual({ argv, ...parsed(argv, true) });
  });

  it('still reports a bad option with the command usage line', async () => {
    const result = await runTool(['arazzo', 'run', 'flow.arazzo.yaml', '--no-such-option']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Usage: tool arazzo run');
  });

  it('still lists the group for `tool arazzo` and every command for `tool --help`', async () => {
    const group = await runTool(['arazzo']);
    expect(group.stdout).toContain('tool arazzo run');
    expect(group.stdout).toContain('tool arazzo validate');
    const help = await runTool(['--help']);
    for (const command of ['arazzo run', 'api add', 'auth login', 'cache clear', 'get']) expect(help.stdout).toContain(`tool ${command}`);
  });
});
