/** Opening a URL in the user's browser: $BROWSER, else xdg-open (or open on macOS). */

import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { platform as osPlatform } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A function that opens a URL (returns false if it could not start the program), or undefined
 * when neither $BROWSER nor xdg-open/open is available. The URL is passed as one argument, never
 * through a shell.
 */
export function browserOpener(env: Record<string, string | undefined>, platform: NodeJS.Platform = osPlatform()): ((url: string) => boolean) | undefined {
  const command = browserCommand(env, platform);
  if (command === undefined) return undefined;
  return (url) => {
    const args = command.args.includes('%s') ? command.args.map((arg) => (arg === '%s' ? url : arg)) : [...command.args, url];
    try {
      const child = spawn(command.program, args, { detached: true, stdio: 'ignore', env });
      child.on('error', () => undefined);
      child.unref();
      return true;
    } catch {
      return false;
    }
  };
}

function browserCommand(env: Record<string, string | undefined>, platform: NodeJS.Platform): { program: string; args: string[] } | undefined {
  // $BROWSER may list several commands separated by ':'; the first one is used.
  const fromEnv = env.BROWSER?.split(':')[0]?.trim();
  if (fromEnv !== undefined && fromEnv !== '') {
    const [program, ...args] = fromEnv.split(/\s+/);
    if (program !== undefined) return { program, args };
  }
  const opener = platform === 'darwin' ? 'open' : 'xdg-open';
  const found = onPath(opener, env.PATH ?? '');
  return found === undefined ? undefined : { program: found, args: [] };
}

function onPath(program: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}
