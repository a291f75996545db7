/**
 * Bundles tsc's output (dist/src/bin.js and everything it imports, dependencies included) into
 * dist/bundle/: main.cjs plus a chunk per lazily imported part (got for sending, the run machinery
 * for `arazzo run`, ...), so each command still loads only what it needs, and packages bundled on
 * their own (packages/yaml.cjs). Loading a few dozen bundled files instead of ~320 separate modules
 * is most of what `tool` costs at start-up; see docs/performance.md. Every file is a CommonJS
 * script, and dist/bundle/tool.js (src/bundle/start-bundle.ts) loads them with V8's code cache,
 * which Node 20 keeps for no ES module. bin/tool.js prefers the bundle when it is at least as new
 * as dist/src/bin.js. Run by `npm run build` after tsc. The bundle is an optimisation: if esbuild
 * is missing or fails, this warns and exits 0, and bin/tool.js loads dist/src/ instead.
 *
 * Dependencies are bundled as published: no plugin here rewrites a dependency's code (the one text
 * change, lazyYaml, is to tool's own src/arazzo/yaml-library.ts). What patches once bought is in
 * docs/performance.md, as upstream proposals.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist', 'bundle');
const require = createRequire(import.meta.url);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const ES_SYNTAX = /^[ \t]*(?:import|export)[\s{*]/m;
/**
 * Packages bundled on their own, as dist/bundle/packages/<name>.cjs, and loaded only when code
 * requires them (src/bundle/script-loader.ts resolves the name). `yaml` is needed only for a
 * document the parsed-document cache does not hold, error positions and YAML output, but code
 * splitting put its 260 KB in a chunk that every run loaded (~4 ms; the fifth pass of docs/performance.md, in git history).
 */
const LAZY_PACKAGES = ['yaml'];

/** Whether `file` is CommonJS by Node's rules: .cjs, or .js under a package.json without "type": "module". */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * Imports of CommonJS packages go through a small ES module per package that re-exports its names:
 * - With code splitting, esbuild turns `await import('<a CommonJS package>')` into a chunk with
 *   only a default export, so `const { stringify } = await import('yaml')` would get undefined
 *   (Node itself exposes the named exports).
 * - Each of our modules that imports a CommonJS package (clipanion in every command file, typanion)
 *   got its own copy of the package's exports, a getter per name: ~2 000 property definitions,
 *   ~4 ms of every start-up (measured in the fifth pass of docs/performance.md, in git history). One shared module makes one copy.
 */
const commonJsNamedExports = {
  name: 'commonjs-named-exports',
  setup(bundler) {
    const ours = join(root, 'dist') + sep;
    bundler.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith('node:') || args.namespace === 'commonjs-named' || args.pluginData?.plain || LAZY_PACKAGES.includes(args.path)) return undefined;
      if (args.kind !== 'dynamic-import' && !(args.kind === 'import-statement' && args.importer.startsWith(ours))) return undefined;
      const resolved = await bundler.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, importer: args.importer, pluginData: { plain: true } });
      if (resolved.errors.length > 0 || resolved.external || !isCommonJs(resolved.path)) return undefined;
      // A `module` build in a package without "type": "module" (xstate) is ES code all the same.
      if (ES_SYNTAX.test(readFileSync(resolved.path, 'utf8'))) return undefined;
      const names = Object.keys(require(resolved.path)).filter((name) => IDENTIFIER.test(name) && name !== 'default');
      return { path: resolved.path, namespace: 'commonjs-named', pluginData: { names } };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'commonjs-named' }, (args) => ({
      // require() gives module.exports itself, as Node's `import` of a CommonJS module gives it as the default.
      contents: `const m = require(${JSON.stringify(args.path)});\nexport default m;\nexport const { ${args.pluginData.names.join(', ')} } = m;\n`,
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * `yaml` is loaded on first use (src/arazzo/yaml-library.ts) with a synchronous require from
 * `createRequire(import.meta.url)`, which would load node_modules/yaml file by file. This makes it
 * a plain `require('yaml')`, which the loader answers with the bundle's own copy (LAZY_PACKAGES).
 * The build fails if the line is not there, so this cannot silently turn into an unbundled require.
 */
const lazyYaml = {
  name: 'lazy-yaml',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]dist[\\/]src[\\/]arazzo[\\/]yaml-library\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const call = /createRequire\(import\.meta\.url\)\((['"])yaml\1\)/g;
      const found = text.match(call) ?? [];
      if (found.length !== 1) throw new Error(`${args.path}: expected one createRequire(import.meta.url)('yaml'), found ${found.length}`);
      return { contents: text.replace(call, "require('yaml')"), loader: 'js' };
    });
  },
};

/**
 * One output file of the split ES module build as a CommonJS script for src/bundle/script-loader.ts:
 * imports become require() calls (dynamic ones too, which the loader resolves among the chunks),
 * `import.meta.url` the file's own URL. Strict, as the module was.
 */
async function toScript(transform, text) {
  const { code } = await transform(text, {
    format: 'cjs',
    loader: 'js',
    platform: 'node',
    target: 'node20',
    supported: { 'dynamic-import': false },
    define: { 'import.meta.url': '__toolImportMetaUrl' },
    logOverride: { 'empty-import-meta': 'error' },
    logLevel: 'error',
  });
  const metaUrl = code.includes('__toolImportMetaUrl') ? 'var __toolImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' : '';
  return `"use strict";${metaUrl}${code}`;
}

rmSync(outdir, { recursive: true, force: true });
try {
  const { build, transform } = await import('esbuild');
  // 1. The program, split into lazily loaded chunks, in memory.
  const { outputFiles } = await build({
    entryPoints: { main: join(root, 'dist', 'src', 'bin.js') },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.cjs' },
    chunkNames: 'chunks/[name]-[hash]',
    external: LAZY_PACKAGES,
    plugins: [commonJsNamedExports, lazyYaml],
    write: false,
    logLevel: 'warning',
  });
  // 1b. The lazily loaded packages, each bundled on its own.
  const packages = {};
  for (const name of LAZY_PACKAGES) {
    const outfile = join(outdir, 'packages', `${name}.cjs`);
    const built = await build({ entryPoints: [require.resolve(name)], outfile, bundle: true, format: 'cjs', platform: 'node', target: 'node20', write: false, logLevel: 'warning' });
    outputFiles.push(...built.outputFiles);
    packages[name] = relative(outdir, outfile).split(sep).join('/');
  }
  // 2. Each file as a CommonJS script, so that src/bundle/script-loader.ts can compile it with
  //    V8's code cache (Node 20 caches no ES modules); the bundle id names that cache.
  const id = createHash('sha256');
  for (const file of outputFiles.sort((a, b) => a.path.localeCompare(b.path))) {
    const script = file.path.startsWith(join(outdir, 'packages') + sep) ? file.text : await toScript(transform, file.text);
    mkdirSync(dirname(file.path), { recursive: true });
    writeFileSync(file.path, script);
    id.update(`${relative(outdir, file.path)}\0${script}\0`);
  }
  // 3. dist/bundle/tool.js, which bin/tool.js requires: the loader, started on main.cjs. CommonJS,
  //    like bin/tool.js, so that Node never starts its ES module loader for the bundle.
  const bundleId = id.digest('hex').slice(0, 16);
  writeFileSync(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  await build({
    stdin: {
      contents: `import { startBundle } from './dist/src/bundle/start-bundle.js';\nstartBundle(require('node:path').join(__dirname, 'main.cjs'), ${JSON.stringify(bundleId)}, ${JSON.stringify(packages)});\n`,
      resolveDir: root,
      sourcefile: 'tool.js',
      loader: 'js',
    },
    outfile: join(outdir, 'tool.js'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
} catch (error) {
  rmSync(outdir, { recursive: true, force: true });
  process.stderr.write(`warning: no bundle built (${String(error?.message ?? error).split('\n')[0]}); bin/tool.js will load dist/src/ (slower start-up)\n`);
}
