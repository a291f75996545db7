/**
 * The project a local Arazzo document belongs to: the nearest folder, from the document's own
 * upwards, that holds `.git` or `tool.config.yaml`. Its descriptions may read anywhere inside it
 * (but in hidden folders), so `workflows/flow.arazzo.yaml` reads `../openapi/api.yaml` as teams
 * lay repositories out. The home folder and `/` are never a project, whatever they hold (a
 * dotfiles repository in `~` must not open all of it): the search stops there.
 */
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** What marks a folder as a project. */
export const PROJECT_MARKERS = ['.git', 'tool.config.yaml'] as const;

const found = new Map<string, Promise<string | undefined>>();

/** The project folder of a document in `folder` (a real, absolute path), or undefined when none is found below the home folder or `/`. */
export function projectFolder(folder: string): Promise<string | undefined> {
  let pending = found.get(folder);
  if (pending === undefined) {
    pending = search(folder);
    found.set(folder, pending);
  }
  return pending;
}

async function search(folder: string): Promise<string | undefined> {
  const home = safeHome();
  for (let at = resolve(folder); ; at = dirname(at)) {
    if (at === home || dirname(at) === at) return undefined;
    for (const marker of PROJECT_MARKERS) if (await exists(join(at, marker))) return at;
  }
}

function safeHome(): string | undefined {
  try {
    return resolve(homedir());
  } catch {
    return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined)) !== undefined;
}
