/**
 * What a run gives its GitHub Actions output (src/observe/github/, loaded only when
 * GITHUB_ACTIONS=true): the run's options and streams, and where each step of the selected
 * workflow is in the document, so that a failure's annotation points at its step.
 */
import type { Writable } from 'node:stream';
import type { LoadedDocument, Position, Workflow } from '../arazzo/model.js';
import type { GitHubRun, GitHubSuite } from '../observe/github/github-run.js';
import type { Reporter } from '../observe/reporter.js';

/** Starts the GitHub Actions output of a run: its `::add-mask::` lines are printed at once. */
export async function startGitHub(
  run: { file: string; secretInputs?: readonly string[]; replay: boolean; suite?: GitHubSuite | undefined },
  io: { stderr: Writable; env: Record<string, string | undefined>; cwd: string },
  reporter: Reporter,
): Promise<GitHubRun> {
  const { startGitHubRun } = await import('../observe/github/github-run.js');
  return startGitHubRun({
    stderr: io.stderr,
    env: io.env,
    cwd: io.cwd,
    command: run.replay ? 'replay' : 'run',
    file: run.file,
    secrets: run.secretInputs ?? [],
    warn: (message) => reporter.warn(message),
    ...(run.suite !== undefined ? { suite: run.suite } : {}),
  });
}

/** The line and column of each step of `workflow`, by stepId. */
export function stepPositions(doc: LoadedDocument, workflow: Workflow): Map<string, Position> {
  const positions = new Map<string, Position>();
  for (const step of workflow.steps) {
    const position = step.stepId === undefined ? undefined : doc.locate(step.pointer);
    if (position && step.stepId !== undefined) positions.set(step.stepId, position);
  }
  return positions;
}
