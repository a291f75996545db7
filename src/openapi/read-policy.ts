/** What a description and its `$ref`s may read: which folders, how many bytes, which hosts. */

import { dirname, isAbsolute, relative, sep } from 'node:path';

export interface ReadPolicy {
  /**
   * Folder trees a local description and its file `$ref`s must stay inside (compared as real
   * paths). Empty: no local file may be read.
   */
  roots: readonly string[];
  /** Folders never read, even inside a root: tool's own config and cache folders. */
  denied: readonly string[];
  /** Largest description or `$ref` target accepted, in bytes. */
  maxBytes: number;
  /** Hosts (`host` or `host:port`) a remote description's `$ref`s may reach besides its own origin (--tool-allow-ref-host). */
  allowRefHosts: readonly string[];
  /**
   * The folder of the local Arazzo document the reads are for: the project it belongs to
   * (project-folder.ts) may be read too, except its hidden folders and files.
   */
  projectFrom?: string;
  /** The user named this description (`tool api add --spec`): it may be anywhere, and its folder is a root for its `$ref`s. */
  explicitSource?: boolean;
  /**
   * The user's working directory, when the command has --tool-allow-read: a file outside the
   * roots is then refused with that flag and its folder (relative to this one) as the way out.
   */
  allowReadFrom?: string;
}

/** 10 MiB, the same cap as an Arazzo document's. */
export const DEFAULT_MAX_DESCRIPTION_BYTES = 10 * 1024 * 1024;

/**
 * The policy when the caller gives none or only some of it: local reads confined to the folder of
 * `baseFile` (the Arazzo document), nothing denied, 10 MiB, no extra hosts.
 */
export function readPolicyFor(baseFile: string, given: Partial<ReadPolicy> = {}): ReadPolicy {
  const local = isAbsolute(baseFile) && !/^[a-z][a-z0-9+.-]*:/i.test(baseFile);
  return {
    roots: given.roots ?? (local ? [dirname(baseFile)] : []),
    denied: given.denied ?? [],
    maxBytes: given.maxBytes ?? DEFAULT_MAX_DESCRIPTION_BYTES,
    allowRefHosts: given.allowRefHosts ?? [],
    ...(given.explicitSource === true ? { explicitSource: true } : {}),
    ...(given.projectFrom !== undefined ? { projectFrom: given.projectFrom } : local && given.explicitSource !== true ? { projectFrom: dirname(baseFile) } : {}),
    ...(given.allowReadFrom !== undefined ? { allowReadFrom: given.allowReadFrom } : {}),
  };
}

/** Whether `path` is `folder` or inside it; both must already be real, absolute paths. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Why a `$ref` to `target` may not be fetched from a description at `holder`, or undefined when
 * it may: a remote description's refs stay on its origin unless the host is allowed.
 */
export function remoteRefRefusal(target: string, holder: string, allowRefHosts: readonly string[]): string | undefined {
  let to: URL;
  let from: URL;
  try {
    to = new URL(target);
    from = new URL(holder);
  } catch {
    return undefined;
  }
  if (!/^https?:$/.test(from.protocol) || to.origin === from.origin) return undefined;
  const allowed = allowRefHosts.map((host) => host.trim().toLowerCase());
  if (allowed.includes(to.host.toLowerCase()) || allowed.includes(to.hostname.toLowerCase())) return undefined;
  return `a remote description's $refs must stay on its origin (${from.origin}), and ${to.host} is not allowed; pass --tool-allow-ref-host ${to.hostname} if you trust it`;
}

/** At most `max` characters of a ref for a message, so a 1 MB pointer does not become a 1 MB error. */
export function shortRef(ref: string, max = 120): string {
  return ref.length <= max ? ref : `${ref.slice(0, max)}… (${ref.length} characters)`;
}

/** A --tool-allow-ref-host value as it is compared (lower case `host` or `host:port`), or undefined when it is not a host. */
export function normaliseRefHost(value: string): string | undefined {
  const host = value.trim().toLowerCase();
  return /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/.test(host) ? host : undefined;
}
