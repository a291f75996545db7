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
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
 * requires them (src/bundle/script-loader.ts resolves the name). `yaml` is needed only for the
 * fallback parse, error positions and YAML output, but code splitting put its 260 KB in a chunk
 * that every run loaded (~4 ms; docs/performance.md, fifth pass).
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
 *   ~4 ms of every start-up (docs/performance.md, fifth pass). One shared module makes one copy.
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
 * got imports http2-wrapper (and with it node:http2) at load time, but uses it only when a request
 * sets `http2: true`, which the pipeline never does. Loading it cost ~5 ms of every run's start-up;
 * the bundle gets a stand-in that fails loudly if that ever changes.
 */
const noHttp2 = {
  name: 'no-http2',
  setup(bundler) {
    bundler.onResolve({ filter: /^http2-wrapper$/ }, (args) => ({ path: args.path, namespace: 'no-http2' }));
    bundler.onLoad({ filter: /.*/, namespace: 'no-http2' }, () => ({
      contents:
        "const unsupported = () => { throw new Error('HTTP/2 is not built into tool (got\\'s http2 option is never set)'); };\n" +
        'export default { auto: unsupported, request: unsupported, get: unsupported, globalAgent: undefined };\n',
    }));
  },
};

/**
 * `@sindresorhus/is` (got's type checks) builds two `Intl.ListFormat`s at load time, which loads
 * ICU's list-pattern data: ~20 ms and ~6 MiB of every command that imports got, for a message
 * written only when an assertion fails. The bundle builds them on first use instead. The source
 * is patched only if it holds exactly the two lines expected; otherwise the build fails, so a got
 * update cannot silently drop the stand-in.
 */
const lazyListFormat = {
  name: 'lazy-list-format',
  setup(bundler) {
    bundler.onLoad({ filter: /[\\/]@sindresorhus[\\/]is[\\/]distribution[\\/]index\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const eager = /^const (andFormatter|orFormatter) = new Intl\.ListFormat\(([^;]*)\);$/gm;
      const found = text.match(eager) ?? [];
      if (found.length !== 2) throw new Error(`${args.path}: expected two eager Intl.ListFormat constants, found ${found.length}`);
      const lazy = (_, name, options) => `const ${name} = { format: (list) => (${name}.inner ??= new Intl.ListFormat(${options})).format(list), inner: undefined };`;
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
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

/** `text` with the one match of `pattern` replaced; throws (failing the build) unless there is exactly one, so a dependency update cannot drop a patch silently. */
function patchOnce(path, text, pattern, replacement, what) {
  const found = text.match(new RegExp(pattern.source, 'g')) ?? [];
  if (found.length !== 1) throw new Error(`${path}: expected one ${what}, found ${found.length}`);
  return text.replace(new RegExp(pattern.source), replacement);
}

/** Fails the build when a patching plugin's file was never loaded (its filter stopped matching): a patch must not be dropped silently. */
function requirePatched(bundler, what) {
  const state = { applied: false };
  bundler.onEnd((result) => {
    if (!state.applied && result.errors.length === 0) throw new Error(`${what}: the file to patch was not part of the build`);
  });
  return state;
}

/**
 * Patches to XState's transitions, which a chart keeps for its whole life (about six per step of a
 * workflow; docs/performance.md, fifth, sixth and eighth passes):
 *
 * - XState builds each transition as `{ ...transitionConfig, actions, guard, target, source, ... }`.
 *   On Node 20's V8, an object spread followed by a property the source did not have gets a hidden
 *   class of its own, every time: a 5000-step chart held ~20 000 of them (6 MiB, ~1.2 KiB per
 *   step). Object.assign builds the same object (same keys, same order, own enumerable properties
 *   of the config first; configs have no `__proto__` key) on shared hidden classes.
 * - Each transition (and each state's initial transition) carried a `toJSON` closure over the
 *   transition, its state node and its targets: a closure and a context, ~110 B, per transition.
 *   One shared function reads the same values from `this` and returns the same object. The
 *   difference is in XState's copies of a transition, whose JSON is now the copy's own fields: a
 *   delayed transition's `{ ...transition, delay }` includes `delay`, and `StateNode.definition`'s
 *   copies show their converted actions. tool never serialises XState's transitions (graphs use
 *   `machine.config`; traces and the live view read the fields).
 * - A transition's domain (the state its exits and entries stay under) was worked out each time
 *   the transition was taken, twice per transition: its targets, their ancestors, the least
 *   common one. It depends only on the transition (its source, targets and `reenter`) unless a
 *   target is a history state, so it is kept on the transition, in a non-enumerable property,
 *   the first time; a transition to a history state still works it out every time.
 *
 * The source is patched only if it holds exactly the text expected, else the build fails, so an
 * XState update cannot silently drop this.
 */
const xstateTransitions = {
  name: 'xstate-transitions',
  setup(bundler) {
    const patched = requirePatched(bundler, 'xstate-transitions');
    bundler.onLoad({ filter: /[\\/]xstate[\\/]dist[\\/]raise-[0-9a-f]+\.esm\.js$/ }, (args) => {
      patched.applied = true;
      let text = readFileSync(args.path, 'utf8');
      const replaceOnce = (pattern, replacement, what) => {
        text = patchOnce(args.path, text, pattern, replacement, what);
      };
      replaceOnce(
        /(function formatTransition\(stateNode, descriptor, transitionConfig\) \{\n(?:.*\n){3}  const transition = )\{\n    \.\.\.transitionConfig,\n((?:    .*\n)+?)    toJSON: \(\) => \(\{\n      \.\.\.transition,\n      source: `#\$\{stateNode\.id\}`,\n      target: target \? target\.map\(t => `#\$\{t\.id\}`\) : undefined\n    \}\)\n  \};\n  return transition;\n\}/,
        (_, head, rest) =>
          `${head}Object.assign({}, transitionConfig, {\n${rest}    toJSON: transitionToJSON\n  });\n  return transition;\n}\n` +
          'function transitionToJSON() {\n  return { ...this, source: `#${this.source.id}`, target: this.target ? this.target.map(t => `#${t.id}`) : undefined };\n}',
        'formatTransition with `{ ...transitionConfig, ... }` and a toJSON closure',
      );
      replaceOnce(
        /(function formatInitialTransition\(stateNode, _target\) \{\n(?:.*\n)+?  const transition = \{\n(?:    .*\n)+?)    toJSON: \(\) => \(\{\n      \.\.\.transition,\n      source: `#\$\{stateNode\.id\}`,\n      target: resolvedTarget \? \[`#\$\{resolvedTarget\.id\}`\] : \[\]\n    \}\)\n  \};/,
        (_, head) => `${head}    toJSON: initialTransitionToJSON\n  };`,
        'formatInitialTransition with a toJSON closure',
      );
      // toStatePath splits a state id or path one character at a time (a string per character); without a backslash escape it is split('.').
      replaceOnce(
        /(function toStatePath\(stateId\) \{\n  if \(isArray\(stateId\)\) \{\n    return stateId;\n  \}\n)(  const result = \[\];\n  let segment = '';\n  for \(let i = 0; i < stateId\.length; i\+\+\) \{\n    const char = stateId\.charCodeAt\(i\);\n    switch \(char\) \{\n)/,
        (_, head, loop) => `${head}  if (!stateId.includes('\\\\')) return stateId.split('.');\n${loop}`,
        'toStatePath that splits character by character',
      );
      replaceOnce(
        /function getTransitionDomain\(transition, historyValue\) \{\n  const targetStates = getEffectiveTargetStates\(transition, historyValue\);\n/,
        () =>
          'const DOMAIN = Symbol(\'domain\');\n' +
          'const NO_DOMAIN = Symbol(\'no domain\');\n' +
          'function getTransitionDomain(transition, historyValue) {\n' +
          '  const known = transition[DOMAIN];\n' +
          '  if (known !== undefined) return known === NO_DOMAIN ? undefined : known;\n' +
          '  const domain = findTransitionDomain(transition, historyValue);\n' +
          '  if (!transition.target || !transition.target.some(isHistoryNode)) Object.defineProperty(transition, DOMAIN, { value: domain === undefined ? NO_DOMAIN : domain });\n' +
          '  return domain;\n' +
          '}\n' +
          'function findTransitionDomain(transition, historyValue) {\n' +
          '  const targetStates = getEffectiveTargetStates(transition, historyValue);\n',
        'getTransitionDomain',
      );
      text += '\nfunction initialTransitionToJSON() {\n  return { ...this, source: `#${this.source.id}`, target: this.target.map(t => `#${t.id}`) };\n}\n';
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * Patches to XState's StateMachine module, for charts of many states (docs/performance.md, eighth
 * pass):
 *
 * - A state node's memoised values (its transitions by event, its delayed transitions, its event
 *   list) were kept in one module-wide WeakMap keyed by the node: a WeakMap entry per node of the
 *   chart, which the garbage collector treats as an ephemeron. They are now kept on the node, in a
 *   non-enumerable property under a symbol of this module (the same plain object as before).
 * - The candidate transitions of an event a node receives were memoised under the key
 *   `candidates-<event type>`: a new string, hashed again, for every event. They are kept in a
 *   Map by event type on the node.
 * - The machine's `events` (every event type of the chart) was computed when the machine was made,
 *   walking every state's own events: ~5 ms per 1000 states of a fresh process, for a list that
 *   nothing in tool reads. It is now a getter that computes the same list on first read.
 * - `getStateNodeById('#<id>.<key>')` (how tool's transitions name their targets) split the id,
 *   copied the path and walked it through four generic functions. An id of exactly that form, with
 *   no escape, now reads the node's child directly; anything else, or a miss, takes the general
 *   path, which gives the same node or throws the same error.
 *
 * The source is patched only if it holds exactly the text expected, else the build fails, so an
 * XState update cannot silently drop this.
 */
const xstateStateNodes = {
  name: 'xstate-state-nodes',
  setup(bundler) {
    const patched = requirePatched(bundler, 'xstate-state-nodes');
    bundler.onLoad({ filter: /[\\/]xstate[\\/]dist[\\/]StateMachine-[0-9a-f]+\.esm\.js$/ }, (args) => {
      patched.applied = true;
      let text = readFileSync(args.path, 'utf8');
      const replaceOnce = (pattern, replacement, what) => {
        text = patchOnce(args.path, text, pattern, replacement, what);
      };
      replaceOnce(
        /const cache = new WeakMap\(\);\nfunction memo\(object, key, fn\) \{\n  let memoizedData = cache\.get\(object\);\n  if \(!memoizedData\) \{\n    memoizedData = \{\n      \[key\]: fn\(\)\n    \};\n    cache\.set\(object, memoizedData\);\n  \} else if \(!\(key in memoizedData\)\) \{\n    memoizedData\[key\] = fn\(\);\n  \}\n  return memoizedData\[key\];\n\}/,
        () =>
          "const MEMO = Symbol('memo');\nfunction memo(object, key, fn) {\n  let memoizedData = object[MEMO];\n  if (memoizedData === undefined) {\n    memoizedData = {};\n    Object.defineProperty(object, MEMO, { value: memoizedData });\n  }\n  if (!(key in memoizedData)) {\n    memoizedData[key] = fn();\n  }\n  return memoizedData[key];\n}",
        'memo over a module-wide WeakMap',
      );
      replaceOnce(/\n    this\.events = void 0;\n/, () => '\n', "the machine's `events` field");
      replaceOnce(
        /(    this\.states = this\.root\.states; \/\/ TODO: remove!\n)    this\.events = this\.root\.events;\n  \}\n/,
        (_, head) => `${head}  }\n  get events() {\n    return this.root.events;\n  }\n`,
        "the machine's `events`, computed in the constructor",
      );
      replaceOnce(
        /    const candidates = memo\(this, `candidates-\$\{eventType\}`, \(\) => getCandidates\(this, eventType\)\);\n/,
        () => '    const candidates = candidatesFor(this, eventType);\n',
        'candidates memoised under `candidates-${eventType}`',
      );
      replaceOnce(
        /(  getStateNodeById\(stateId\) \{\n)(    const fullPath = toStatePath\(stateId\);\n)/,
        (_, head, rest) =>
          `${head}    if (typeof stateId === 'string' && stateId.charCodeAt(0) === 35 && !stateId.includes('\\\\')) {\n` +
          "      const dot = stateId.indexOf('.');\n" +
          "      if (dot > 1 && dot + 1 < stateId.length && stateId.indexOf('.', dot + 1) === -1 && stateId.charCodeAt(dot + 1) !== 35) {\n" +
          '        const child = this.idMap.get(stateId.slice(1, dot))?.states?.[stateId.slice(dot + 1)];\n' +
          '        if (child !== undefined) return child;\n' +
          '      }\n' +
          `    }\n${rest}`,
        'getStateNodeById',
      );
      text +=
        "\nconst CANDIDATES = Symbol('candidates');\n" +
        'function candidatesFor(stateNode, eventType) {\n' +
        '  let byType = stateNode[CANDIDATES];\n' +
        '  if (byType === undefined) {\n' +
        '    byType = new Map();\n' +
        '    Object.defineProperty(stateNode, CANDIDATES, { value: byType });\n' +
        '  }\n' +
        '  let candidates = byType.get(eventType);\n' +
        '  if (candidates === undefined) {\n' +
        '    candidates = getCandidates(stateNode, eventType);\n' +
        '    byType.set(eventType, candidates);\n' +
        '  }\n' +
        '  return candidates;\n' +
        '}\n';
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * js-yaml's composeNode copies the parser's state into a new object before it looks for a node's
 * tag or anchor (`!tag`, `&anchor`), once per node, and throws the copy away when there is none
 * (readTagProperty and readAnchorProperty then return false at once, without touching the state).
 * This breaks out of that loop before the copy when the next character starts neither. Likewise
 * readFlowCollection's key table is made only once a flow collection starts. The source is
 * patched only if it holds exactly the text expected, else the build fails.
 */
const yamlPropertySnapshot = {
  name: 'yaml-property-snapshot',
  setup(bundler) {
    // tool's own js-yaml (src/arazzo/parse-fast.ts); other packages' copies are left as they are.
    const own = realpathSync(join(root, 'node_modules', 'js-yaml', 'dist', 'js-yaml.mjs'));
    const patched = requirePatched(bundler, 'yaml-property-snapshot');
    bundler.onLoad({ filter: /[\\/]js-yaml[\\/]dist[\\/]js-yaml\.mjs$/ }, (args) => {
      if (realpathSync(args.path) !== own) return undefined;
      patched.applied = true;
      const text = readFileSync(args.path, 'utf8');
      const loop = /( {4}if \(indentStatus === 1\) \{\n {6}while \(true\) \{\n {8}const ch = state\.input\.charCodeAt\(state\.position\);\n)( {8}const propertyState = snapshotState\(state\);\n)/;
      let contents = patchOnce(args.path, text, loop, (_, head, snapshot) => `${head}        if (ch !== 33 && ch !== 38) break;\n${snapshot}`, 'property loop that snapshots the state first');
      // readFlowCollection makes its duplicate-key table before it knows a flow collection starts
      // here, for every node it is tried on; the table is made once it does.
      const flow = /(function readFlowCollection\(state, nodeIndent\) \{\n(?: {4}.*\n)*?) {4}const overridableKeys = \/\* @__PURE__ \*\/ Object\.create\(null\);\n((?: {4}.*\n)*? {4}\} else \{\n {6}return false;\n {4}\}\n)/;
      contents = patchOnce(args.path, contents, flow, (_, head, check) => `${head}    let overridableKeys;\n${check}    overridableKeys = Object.create(null);\n`, 'readFlowCollection that makes its key table first');
      return { contents, loader: 'js' };
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
    plugins: [commonJsNamedExports, noHttp2, lazyListFormat, lazyYaml, xstateTransitions, xstateStateNodes, yamlPropertySnapshot],
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
