/**
 * The run options of each document of a command that runs many (`arazzo test`, `mcp serve`):
 * per document, its project's tool.config.yaml under the flags (quietRunFlags of
 * workflow-options.ts).
 */
import { parseCount, parseSeconds } from './input-flags.js';
import { readProjectSettings, type ProjectSettings } from './project-settings.js';
import { resolveSharedRunFlags, type SharedRunFlags } from './workflow-options.js';
import type { RunOptions } from '../run/run-workflow.js';

/** The shared flags, and --tool-retry and --tool-timeout as given. */
export interface DocumentRunFlags {
  shared: Omit<SharedRunFlags, 'workflow'>;
  retry: string | undefined;
  timeout: string | undefined;
}

/**
 * The options `arazzo run` would run `file` with: its project's settings (read once per project
 * through `settingsRead`) under the flags. Throws ToolError for a bad flag or project setting.
 */
export async function documentRunOptions(file: string, flags: DocumentRunFlags, context: { env: Record<string, string | undefined>; cwd: string }, settingsRead: Map<string, Promise<ProjectSettings>>): Promise<RunOptions> {
  const settings = await readProjectSettings(file, context.cwd, settingsRead);
  return {
    ...(await resolveSharedRunFlags({ ...flags.shared, workflow: undefined }, context, settings)),
    file,
    dryRun: false,
    retry: flags.retry !== undefined ? parseCount('--tool-retry', flags.retry, 0, 20) : (settings.retry?.value ?? 2),
    retryUnsafe: false,
    timeoutMs: flags.timeout !== undefined ? parseSeconds('--tool-timeout', flags.timeout, 3600) : (settings.timeout?.value ?? 30) * 1000,
  };
}
