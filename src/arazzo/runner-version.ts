/** Which runner contract a run, a validation or a graph follows: v1 (the default) or v2 (docs/arazzo-coverage.md). */
export type RunnerVersion = 'v1' | 'v2';

/** The runner versions `--tool-runner` and `TOOL_RUNNER` accept. */
export const RUNNER_VERSIONS: readonly RunnerVersion[] = ['v1', 'v2'];

/** What v2 says of a construct its contract runs but this version does not yet. */
export const NOT_YET_V2_TEXT = 'not yet supported by the v2 runner in this version';

/** The end of every v2 finding about such a construct. */
export const NOT_YET_IN_V2 = `(${NOT_YET_V2_TEXT})`;
