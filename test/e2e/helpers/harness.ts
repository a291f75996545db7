/**
 * The usual end-to-end setup for one describe block: dist/ built, one scripted server, one
 * workspace holding the shared API description (test/fixtures/run/api.openapi.yaml) pointed at
 * that server. `run()` writes a workflow fixture next to it and runs `tool arazzo run` on it.
 */
import { ensureBuilt } from './build.js';
import { runTool, spawnTool, type ToolProcess, type ToolResult } from './run-tool.js';
import type { Routes, ScriptedServer } from './scripted-server.js';
import { useScriptedWorkspace, type RunOptions } from './scripted-workspace.js';
import type { Workspace } from './workspace.js';

export type { RunOptions } from './scripted-workspace.js';

export interface RunHarness {
  readonly server: ScriptedServer;
  readonly ws: Workspace;
  /**
   * Sets the server's routes (forgetting earlier hits), writes `fixture` with `{{BASE_URL}}` and
   * `opts.vars` filled in, and runs `tool arazzo run <fixture> ...args`.
   */
  run(fixture: string, args?: readonly string[], routes?: Routes, opts?: RunOptions): Promise<ToolResult>;
  /** Like run() but returns the live process. */
  start(fixture: string, args?: readonly string[], routes?: Routes): ToolProcess;
  /** Runs the binary with arbitrary arguments in the workspace. */
  tool(args: readonly string[], timeoutMs?: number): Promise<ToolResult>;
}

/** Registers beforeAll/afterAll hooks and returns the harness they fill in. */
export function useRunHarness(): RunHarness {
  const live = new Set<ToolProcess>();
  const shared = useScriptedWorkspace({
    before: ensureBuilt,
    beforeTimeoutMs: 180_000,
    after: () => {
      for (const p of live) p.child.kill('SIGKILL');
    },
  });
  return {
    get server() {
      return shared.server;
    },
    get ws() {
      return shared.ws;
    },
    run(fixture, args = [], routes, opts = {}) {
      const file = shared.prepare(fixture, routes, opts.vars);
      return runTool(['arazzo', 'run', file, ...args], { cwd: shared.ws.dir, timeoutMs: opts.timeoutMs });
    },
    start(fixture, args = [], routes) {
      const file = shared.prepare(fixture, routes);
      const p = spawnTool(['arazzo', 'run', file, ...args], { cwd: shared.ws.dir });
      live.add(p);
      void p.result.finally(() => live.delete(p)).catch(() => undefined);
      return p;
    },
    tool: (args, timeoutMs) => runTool(args, { cwd: shared.ws.dir, timeoutMs }),
  };
}
