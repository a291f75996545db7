/**
 * Bundles tsc's output (dist/src/bin.js and everything it imports, dependencies included) into
 * dist/bundle/: one entry file, tool.js, plus a chunk per lazily imported part (got for sending,
 * yaml and the run machinery for `arazzo run`, ...), so each command still loads only what it
 * needs. Loading a few bundled files instead of ~400 separate modules is most of what `tool`
 * costs at start-up; see docs/performance.md. bin/tool.js prefers the bundle when it is at least
 * as new as dist/src/bin.js. Run by `npm run build` after tsc.
 */
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/bundle`;

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { tool: `${root}dist/src/bin.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Bundled CommonJS dependencies (clipanion, typanion, got's helpers) call require() for Node's
  // built-ins; an ES module has no require, so give the bundle one.
  banner: { js: "import { createRequire as __toolCreateRequire } from 'node:module';\nconst require = __toolCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});
