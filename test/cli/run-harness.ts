/**
 * The in-process twin of test/e2e/helpers/harness.ts for one describe block: one scripted server,
 * one workspace holding the shared API description (test/fixtures/run/api.openapi.yaml) pointed at
 * that server. `run()` writes a workflow fixture next to it and runs `tool arazzo run` on it
 * through runCli, with the environment the spawned binary would get.
 */
import type { Routes, ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { useScriptedWorkspace, type RunOptions } from '../e2e/helpers/scripted-workspace.js';
import type { Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace, type WorkspaceResult } from './run-in-workspace.js';

export type { RunOptions } from '../e2e/helpers/scripted-workspace.js';

export interface RunHarness {
  readonly server: ScriptedServer;
  readonly ws: Workspace;
  /**
   * Sets the server's routes (forgetting earlier hits), writes `fixture` with `{{BASE_URL}}` and
   * `opts.vars` filled in, and runs `tool arazzo run <fixture> ...args`.
   */
  run(fixture: string, args?: readonly string[], routes?: Routes, opts?: RunOptions): Promise<WorkspaceResult>;
  /** Runs `tool` with arbitrary arguments in the workspace. */
  tool(args: readonly string[], timeoutMs?: number): Promise<WorkspaceResult>;
}

/** Registers beforeAll/afterAll hooks and returns the harness they fill in. */
export function useRunHarness(): RunHarness {
  const shared = useScriptedWorkspace();
  return {
    get server() {
      return shared.server;
    },
    get ws() {
      return shared.ws;
    },
    run(fixture, args = [], routes, opts = {}) {
      const file = shared.prepare(fixture, routes, opts.vars);
      return runInWorkspace(['arazzo', 'run', file, ...args], { cwd: shared.ws.dir, timeoutMs: opts.timeoutMs });
    },
    tool: (args, timeoutMs) => runInWorkspace(args, { cwd: shared.ws.dir, timeoutMs }),
  };
}
