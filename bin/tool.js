#!/usr/bin/env node
// Entry point of the `tool` command: loads the compiled program from dist/. CommonJS (see
// bin/package.json): Node then starts without its ES module loader, ~10 ms of every command
// (docs/performance.md, fifth pass); the bundle is CommonJS too.
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const bundle = join(__dirname, '..', 'dist', 'bundle', 'tool.js');
const modules = join(__dirname, '..', 'dist', 'src', 'bin.js');

function fail(error) {
  // A closed stderr must not turn this one line into a crash (src/bin.ts guards it once loaded).
  process.stderr.on('error', () => undefined);
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/bin.js')) {
    process.stderr.write('error: tool is not built. Run `npm ci` (or `npm run build`) in its folder first.\n');
    process.exitCode = 70;
    return;
  }
  process.stderr.write(`internal error: ${error && error.message ? error.message.split('\n')[0] : error}\n`);
  process.exitCode = 70;
}

// The bundle (scripts/bundle.js) starts faster than tsc's output (a run loads ~320 modules), but
// is only used when at least as new as them: a bare `tsc` rebuild must not run a stale bundle.
const bundled = statSync(bundle, { throwIfNoEntry: false });
const compiled = statSync(modules, { throwIfNoEntry: false });
if (bundled && (!compiled || bundled.mtimeMs >= compiled.mtimeMs)) {
  // A bundle built before it was CommonJS (no dist/bundle/package.json) is an ES module.
  if (!statSync(join(bundle, '..', 'package.json'), { throwIfNoEntry: false })) {
    import(pathToFileURL(bundle).href).catch(fail);
  } else {
    try {
      require(bundle);
    } catch (error) {
      fail(error);
    }
  }
} else {
  import(pathToFileURL(modules).href).catch(fail);
}
