import { describe, expect, it } from '@jest/globals';
import { namedPlaceholders } from '../../src/cli/run-cli.js';
import { runTool } from './run-tool.js';

describe('namedPlaceholders', () => {
  it("names clipanion's #0 option values after what they hold", () => {
    expect(namedPlaceholders('$ tool arazzo run [--input #0] [--tool-timeout #0] [-H,--header #0] [--other #1] <file>')).toBe(
      '$ tool arazzo run [--input <key=value>] [--tool-timeout <seconds>] [-H,--header <name: value>] [--other <value>] <file>',
    );
  });

  it('keeps the option table aligned after renaming', () => {
    const table = ['Options', '', '  --input #0     An input', '  --dry-run      Print it', '  --inspect-port #0    The port'].join('\n');
    expect(namedPlaceholders(table).split('\n').slice(2)).toEqual([
      '  --input <key=value>      An input',
      '  --dry-run                Print it',
      '  --inspect-port <port>    The port',
    ]);
  });

  it('names the value of every option in tool --help', async () => {
    const help = await runTool(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--tool-runner <v1|v2>');
    expect(help.stdout).not.toContain('<value>');
  });
});
