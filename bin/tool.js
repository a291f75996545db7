#!/usr/bin/env node
// Entry point of the `tool` command: loads the compiled program from dist/.
import { statSync } from 'node:fs';

const bundle = new URL('../dist/bundle/tool.js', import.meta.url);
const modules = new URL('../dist/src/bin.js', import.meta.url);

// The bundle (scripts/bundle.js) starts faster than tsc's output (a run loads ~320 modules), but
// is only used when at least as new as them: a bare `tsc` rebuild must not run a stale bundle.
function entry() {
  const bundled = statSync(bundle, { throwIfNoEntry: false });
  const compiled = statSync(modules, { throwIfNoEntry: false });
  return bundled && (!compiled || bundled.mtimeMs >= compiled.mtimeMs) ? bundle : modules;
}

import(entry().href).catch((error) => {
  // A closed stderr must not turn this one line into a crash (src/bin.ts guards it once loaded).
  process.stderr.on('error', () => undefined);
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/bin.js')) {
    process.stderr.write('error: tool is not built. Run `npm ci` (or `npm run build`) in its folder first.\n');
    process.exitCode = 70;
    return;
  }
  process.stderr.write(`internal error: ${error && error.message ? error.message.split('\n')[0] : error}\n`);
  process.exitCode = 70;
});
