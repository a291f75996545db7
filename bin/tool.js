#!/usr/bin/env node
// Entry point of the `tool` command: loads the compiled program from dist/.
import('../dist/src/bin.js').catch((error) => {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/src/bin.js')) {
    process.stderr.write('error: tool is not built. Run `npm ci` (or `npm run build`) in its folder first.\n');
    process.exitCode = 70;
    return;
  }
  process.stderr.write(`internal error: ${error && error.message ? error.message.split('\n')[0] : error}\n`);
  process.exitCode = 70;
});
