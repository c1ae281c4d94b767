// Builds the extension's bundles.
//   node esbuild.js               extension host (CommonJS, Node) + webview (browser IIFE) into dist/:
//                                   extension.js  what activation loads: registers commands and views
//                                   services.js   the code behind them, required on first use
//                                   undici.js     the HTTP client, required on the first request
//                                   chunkWorker.js the thread that parses source files for search
//                                   webview.js    the chat view
//                                   katex/        KaTeX's stylesheet and WOFF2 fonts, for the formulas in the chat view
//                                   tree-sitter/  the parser (web-tree-sitter's runtime and the grammars' wasm) that cuts
//                                                 source files into syntax chunks for search, loaded when an index opens
//   node esbuild.js --production  the same, minified, without source maps (what `npm run package` ships),
//                                 and dist/THIRD-PARTY-NOTICES.txt: the licenses of the bundled packages
//   node esbuild.js --watch       rebuild on every change
//   node esbuild.js --tests       test suites, the emulator and benchmarks into out/ (run by mocha and node);
//                                 nothing when GIGACHAT_TESTS_BUILT is set: `npm test` builds them once, then
//                                 sets it for its steps, each of which builds them when run alone
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** Node >= 20.18.1 is what undici 7 needs, and what VS Code >= 1.101 ships. */
const nodeTarget = 'node20.18';

const common = {
  bundle: true,
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  // The licenses go to THIRD-PARTY-NOTICES.txt whole, rather than as scattered comments.
  legalComments: production ? 'none' : 'inline',
  metafile: production,
};

/**
 * Keeps a `require` of another bundle in dist/ as it is, rather than bundling that code again:
 * `./services.js` stays `./services.js`, and `undici` becomes `./undici.js`.
 * @type {esbuild.Plugin}
 */
const separateBundles = {
  name: 'separate-bundles',
  setup(build) {
    build.onResolve({ filter: /^\.\/services\.js$/ }, (args) => ({ path: args.path, external: true }));
    build.onResolve({ filter: /^undici$/ }, () => ({ path: './undici.js', external: true }));
  },
};

/** @type {esbuild.BuildOptions} */
const extensionHost = {
  ...common,
  platform: 'node',
  format: 'cjs',
  target: nodeTarget,
  external: ['vscode'],
  plugins: [separateBundles],
};

/**
 * The chat view, a script for the browser. The webview tests build it with these options too
 * (test/webview/harness.ts), so they test what ships.
 * @type {esbuild.BuildOptions}
 */
const webview = { entryPoints: ['src/webview/main.ts'], platform: 'browser', format: 'iife', target: 'chrome120' };

/**
 * KaTeX's stylesheet for the chat view, with its fonts as WOFF2 only (every VS Code's Chromium reads
 * it; the WOFF and TTF copies would triple the fonts' size in the package), and the font files it
 * names. Written to dist/katex/ by the build; the webview tests serve the same (test/webview/harness.ts).
 */
function katexStyles() {
  const folder = path.join(path.dirname(require.resolve('katex/package.json')), 'dist');
  const original = fs.readFileSync(path.join(folder, 'katex.min.css'), 'utf8');
  const css = original.replace(/,url\(fonts\/[\w-]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)/g, '');
  const fonts = [...css.matchAll(/url\(fonts\/([\w-]+\.woff2)\)/g)].map((match) => match[1]);
  // A new KaTeX that writes its stylesheet otherwise must not ship fonts the page cannot load.
  if (/\.(?:woff|ttf)\)/.test(css) || fonts.length === 0) throw new Error('katex.min.css: unexpected @font-face sources');
  return { css, fonts: fonts.map((name) => ({ name, file: path.join(folder, 'fonts', name) })) };
}

function writeKatexStyles() {
  const { css, fonts } = katexStyles();
  fs.mkdirSync('dist/katex/fonts', { recursive: true });
  fs.writeFileSync('dist/katex/katex.css', css);
  for (const font of fonts) fs.copyFileSync(font.file, path.join('dist/katex/fonts', font.name));
}

/**
 * The grammars search parses with (src/core/search/syntax/grammars.ts names the same; a unit test
 * checks), by the package each comes from: VS Code's own build of tree-sitter (@vscode/tree-sitter-wasm,
 * which also gives the runtime) for the common programming languages, without the shell, CSS, INI,
 * regex and PowerShell ones it also has; Kotlin, which it lacks, from tree-sitter-wasms.
 */
const TREE_SITTER_GRAMMARS = {
  'c-sharp': '@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm',
  cpp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm',
  go: '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm',
  java: '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm',
  javascript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm',
  kotlin: 'tree-sitter-wasms/out/tree-sitter-kotlin.wasm',
  php: '@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm',
  python: '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
  ruby: '@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm',
  rust: '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm',
  tsx: '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm',
  typescript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm',
};

/**
 * The parser as SyntaxChunker.load reads it, into `folder` (dist/tree-sitter for the product; the
 * unit tests and the bench write their own): web-tree-sitter's runtime, which finds its wasm beside
 * itself, copied rather than bundled (the host requires it from there when an index opens, so no
 * bundle loaded earlier carries it; minified for a release), and the grammars as tree-sitter-NAME.wasm.
 * Returns the packages it took files from, for the notices.
 */
function writeTreeSitter(folder = 'dist/tree-sitter', minify = production) {
  const runtime = path.dirname(require.resolve('@vscode/tree-sitter-wasm'));
  fs.mkdirSync(folder, { recursive: true });
  const code = fs.readFileSync(path.join(runtime, 'tree-sitter.js'), 'utf8');
  fs.writeFileSync(path.join(folder, 'tree-sitter.js'), minify ? esbuild.transformSync(code, { minify: true, legalComments: 'none' }).code : code);
  fs.copyFileSync(path.join(runtime, 'tree-sitter.wasm'), path.join(folder, 'tree-sitter.wasm'));
  for (const [grammar, file] of Object.entries(TREE_SITTER_GRAMMARS)) fs.copyFileSync(require.resolve(file), path.join(folder, `tree-sitter-${grammar}.wasm`));
  return [require.resolve('@vscode/tree-sitter-wasm'), ...Object.values(TREE_SITTER_GRAMMARS).map((file) => require.resolve(file))];
}

/** @type {esbuild.BuildOptions[]} */
const productBuilds = [
  { ...extensionHost, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js' },
  { ...extensionHost, entryPoints: ['src/host/services.ts'], outfile: 'dist/services.js' },
  { ...extensionHost, entryPoints: [require.resolve('undici')], outfile: 'dist/undici.js', plugins: [] },
  // The thread that parses source files for search (WorkerChunker), started from services.js.
  { ...extensionHost, entryPoints: ['src/core/search/syntax/chunkWorker.ts'], outfile: 'dist/chunkWorker.js', plugins: [] },
  { ...common, ...webview, outfile: 'dist/webview.js' },
];

/**
 * Leaves npm packages to Node's `require`, but for those published only as ES modules, which
 * Node 20's `require` cannot load: those are bundled.
 * @type {esbuild.Plugin}
 */
const packagesExternal = {
  name: 'packages-external',
  setup(build) {
    const esModulesOnly = new Set(['remend']);
    build.onResolve({ filter: /^[^./]/ }, (args) => (esModulesOnly.has(args.path) ? undefined : { path: args.path, external: true }));
  },
};

/**
 * The unit tests' `vscode`: a thin stand-in (test/unit/support/vscodeStandIn.ts) with just enough of
 * VS Code for host code to run under Node. The integration tests, which run in VS Code, are built
 * elsewhere (test/harness/build.js) and get the real one.
 * @type {esbuild.Plugin}
 */
const vscodeStandIn = {
  name: 'vscode-stand-in',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, () => ({ path: path.resolve(__dirname, 'test/unit/support/vscodeStandIn.ts') }));
  },
};

/** Tests, the emulator and the benchmarks run under plain Node; their npm packages stay external (`vscode` is the stand-in). */
const testBuilds = [
  {
    ...common,
    entryPoints: [
      'test/unit/**/*.test.ts',
      'test/unit/support/*.child.ts',
      'test/webview/**/*.test.ts',
      'test/emulator/index.ts',
      'test/emulator/cli.ts',
      'test/bench/*.ts',
      // The parsing thread, for the tests and benchmarks that start one (out/src/core/search/syntax/chunkWorker.js).
      'src/core/search/syntax/chunkWorker.ts',
    ],
    outdir: 'out',
    outbase: '.',
    platform: 'node',
    format: 'cjs',
    target: nodeTarget,
    plugins: [vscodeStandIn, packagesExternal],
    sourcemap: 'inline',
  },
];

async function main() {
  if (tests && process.env.GIGACHAT_TESTS_BUILT) return;
  const builds = tests ? testBuilds : productBuilds;
  // A release build starts from an empty dist/, so no source map of a development build is shipped.
  if (production) fs.rmSync('dist', { recursive: true, force: true });
  const parserFiles = tests ? [] : writeTreeSitter();
  if (!tests) writeKatexStyles();
  if (watch) {
    for (const options of builds) {
      const ctx = await esbuild.context(options);
      await ctx.watch();
    }
    console.log('[esbuild] watching for changes…');
    return;
  }
  const results = await Promise.all(builds.map((options) => esbuild.build(options)));
  if (production)
    writeNotices(
      [...results.flatMap((result) => Object.keys(result.metafile.inputs)), ...parserFiles.map((file) => path.relative('.', file))],
      'dist/THIRD-PARTY-NOTICES.txt',
    );
}

/**
 * The license of every npm package whose code is in the bundles (their licenses ask that the notice
 * travels with the code), found from the files esbuild read.
 */
function writeNotices(inputs, outfile) {
  const packages = new Set();
  for (const input of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [...packages].sort().map((folder) => {
    const { name, version, license } = JSON.parse(fs.readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const file = fs.readdirSync(folder).find((entry) => /^(licen[cs]e|copying)([.-][\w.-]+)?$/i.test(entry));
    const text = file ? fs.readFileSync(path.join(folder, file), 'utf8').trim() : `License: ${license} (no license file in the package)`;
    return `${name} ${version} (${license})\n\n${text}\n`;
  });
  const header = 'GigaChat for VS Code includes the following third-party packages, under these licenses.\n';
  fs.writeFileSync(outfile, [header, ...sections].join(`\n${'-'.repeat(72)}\n\n`));
}

module.exports = { webview, katexStyles, TREE_SITTER_GRAMMARS, writeTreeSitter };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
