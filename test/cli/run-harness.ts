/**
 * The in-process twin of test/e2e/helpers/harness.ts for one describe block: one scripted server,
 * one workspace holding the shared API description (test/fixtures/run/api.openapi.yaml) pointed at
 * that server. `run()` writes a workflow fixture next to it and runs `tool arazzo run` on it
 * through runCli, with the environment the spawned binary would get.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { startScriptedServer, type Routes, type ScriptedServer } from '../e2e/helpers/scripted-server.js';
import { makeWorkspace, type Workspace } from '../e2e/helpers/workspace.js';
import { runInWorkspace, type WorkspaceResult } from './run-in-workspace.js';

export interface RunOptions {
  /** More `{{KEY}}` values for the fixture template. */
  vars?: Record<string, string>;
  timeoutMs?: number;
}

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
  let server: ScriptedServer | undefined;
  let ws: Workspace | undefined;
  const need = () => {
    if (!server || !ws) throw new Error('the harness is used before beforeAll ran');
    return { server, ws };
  };

  beforeAll(async () => {
    server = await startScriptedServer();
    ws = makeWorkspace();
    ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  });

  afterAll(async () => {
    await server?.close();
    ws?.remove();
  });

  return {
    get server() {
      return need().server;
    },
    get ws() {
      return need().ws;
    },
    run(fixture, args = [], routes, opts = {}) {
      const { server: s, ws: w } = need();
      if (routes) s.setRoutes(routes);
      const file = w.fixture(fixture, { BASE_URL: s.url, ...opts.vars });
      return runInWorkspace(['arazzo', 'run', file, ...args], { cwd: w.dir, timeoutMs: opts.timeoutMs });
    },
    tool: (args, timeoutMs) => runInWorkspace(args, { cwd: need().ws.dir, timeoutMs }),
  };
}
