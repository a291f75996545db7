/**
 * The usual end-to-end setup for one describe block: dist/ built, one scripted server, one
 * workspace holding the shared API description (test/fixtures/run/api.openapi.yaml) pointed at
 * that server. `run()` writes a workflow fixture next to it and runs `tool arazzo run` on it.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { ensureBuilt } from './build.js';
import { runTool, spawnTool, type ToolProcess, type ToolResult } from './run-tool.js';
import { startScriptedServer, type Routes, type ScriptedServer } from './scripted-server.js';
import { makeWorkspace, type Workspace } from './workspace.js';

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
  run(fixture: string, args?: readonly string[], routes?: Routes, opts?: RunOptions): Promise<ToolResult>;
  /** Like run() but returns the live process. */
  start(fixture: string, args?: readonly string[], routes?: Routes): ToolProcess;
  /** Runs the binary with arbitrary arguments in the workspace. */
  tool(args: readonly string[], timeoutMs?: number): Promise<ToolResult>;
}

/** Registers beforeAll/afterAll hooks and returns the harness they fill in. */
export function useRunHarness(): RunHarness {
  let server: ScriptedServer | undefined;
  let ws: Workspace | undefined;
  const live = new Set<ToolProcess>();
  const need = () => {
    if (!server || !ws) throw new Error('the harness is used before beforeAll ran');
    return { server, ws };
  };
  const prepare = (fixture: string, routes: Routes | undefined, vars: Record<string, string> = {}) => {
    const { server: s, ws: w } = need();
    if (routes) s.setRoutes(routes);
    return w.fixture(fixture, { BASE_URL: s.url, ...vars });
  };

  beforeAll(async () => {
    await ensureBuilt();
    server = await startScriptedServer();
    ws = makeWorkspace();
    ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  }, 180_000);

  afterAll(async () => {
    for (const p of live) p.child.kill('SIGKILL');
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
      const file = prepare(fixture, routes, opts.vars);
      return runTool(['arazzo', 'run', file, ...args], { cwd: need().ws.dir, timeoutMs: opts.timeoutMs });
    },
    start(fixture, args = [], routes) {
      const file = prepare(fixture, routes);
      const p = spawnTool(['arazzo', 'run', file, ...args], { cwd: need().ws.dir });
      live.add(p);
      void p.result.finally(() => live.delete(p)).catch(() => undefined);
      return p;
    },
    tool: (args, timeoutMs) => runTool(args, { cwd: need().ws.dir, timeoutMs }),
  };
}
