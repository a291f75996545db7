/**
 * What both run harnesses share (test/e2e/helpers/harness.ts spawns the binary,
 * test/cli/run-harness.ts runs in-process): for one describe block, one scripted server and one
 * workspace holding the shared API description (test/fixtures/run/api.openapi.yaml) pointed at it.
 */
import { afterAll, beforeAll } from '@jest/globals';
import { startScriptedServer, type Routes, type ScriptedServer } from './scripted-server.js';
import { makeWorkspace, type Workspace } from './workspace.js';

export interface RunOptions {
  /** More `{{KEY}}` values for the fixture template. */
  vars?: Record<string, string>;
  timeoutMs?: number;
}

export interface ScriptedWorkspace {
  readonly server: ScriptedServer;
  readonly ws: Workspace;
  /** Sets the server's routes (forgetting earlier hits) and writes `fixture` with `{{BASE_URL}}` and `vars` filled in; returns its path. */
  prepare(fixture: string, routes?: Routes, vars?: Record<string, string>): string;
}

export interface ScriptedWorkspaceHooks {
  /** Runs first in beforeAll (the e2e harness builds dist/ here). */
  before?: () => Promise<void>;
  /** beforeAll's timeout. */
  beforeTimeoutMs?: number;
  /** Runs first in afterAll. */
  after?: () => void;
}

/** Registers beforeAll/afterAll hooks and returns the server and workspace they fill in. */
export function useScriptedWorkspace(hooks: ScriptedWorkspaceHooks = {}): ScriptedWorkspace {
  let server: ScriptedServer | undefined;
  let ws: Workspace | undefined;
  const need = () => {
    if (!server || !ws) throw new Error('the harness is used before beforeAll ran');
    return { server, ws };
  };

  beforeAll(async () => {
    await hooks.before?.();
    server = await startScriptedServer();
    ws = makeWorkspace();
    ws.fixture('api.openapi.yaml', { BASE_URL: server.url });
  }, hooks.beforeTimeoutMs);

  afterAll(async () => {
    hooks.after?.();
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
    prepare(fixture, routes, vars = {}) {
      const { server: s, ws: w } = need();
      if (routes) s.setRoutes(routes);
      return w.fixture(fixture, { BASE_URL: s.url, ...vars });
    },
  };
}
