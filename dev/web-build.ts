// Builds the web app (web/) into the gateway's static assets: workers/gateway/public/assets/
// (git-ignored). The gateway serves /assets/* from there (wrangler.toml [assets]) and renders
// the page shell at / itself.
//
//   node dev/web-build.ts            one build, minified, with source maps
//   node dev/web-build.ts --watch    rebuilds on change (wrangler dev picks the files up)
//
// The browser bundle imports the service declarations (shared/contracts) and the typed HTTP
// client (shared/service/client.ts). Two things keep Workers-only and unused code out of it:
// - `cloudflare:*` modules resolve to an empty stand-in. The declarations import the
//   shared/service barrel, which re-exports rpc.ts (Workers RPC); tree shaking drops that code,
//   and the build fails if any byte of the stand-in is still used by the output.
// - zod's 40-odd message locales are replaced by the English one it configures by default
//   (about 250 KB of the 470 KB bundle); skipped if zod's layout ever changes.
//
// The API reference pages (/docs, /<prefix>/docs) load Swagger UI's prebuilt bundle and
// stylesheet, copied from swagger-ui-dist into assets/swagger-ui/, and web/api-docs/start.ts,
// which starts it (assets/api-docs.js).
import { createRequire } from 'node:module';
import { cp, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
export const WEB_SOURCE_DIR = path.join(root, 'web');
export const WEB_ASSETS_DIR = path.join(root, 'workers/gateway/public/assets');

const SWAGGER_UI_DIR = 'swagger-ui';
/** What the reference pages load from swagger-ui-dist, and its licence texts. */
const SWAGGER_UI_FILES = [
  'swagger-ui-bundle.js',
  'swagger-ui.css',
  'swagger-ui-bundle.js.LICENSE.txt',
  'LICENSE',
  'NOTICE',
];

/**
 * The document viewer's PDF.js parts that are not bundled: its worker (a script of its own,
 * created by web/src/viewer/pdf-engine.ts), the CMaps Chinese PDFs without embedded fonts need,
 * and the standard fonts; under assets/pdfjs/.
 */
const PDFJS_DIR = 'pdfjs';
const PDFJS_FILES = ['build/pdf.worker.min.mjs', 'cmaps', 'standard_fonts', 'LICENSE'];

const WORKERS_STUB = 'workers-only-stub';
const ZOD_LOCALES = 'zod-english-locale';

const workersOnlyStub: esbuild.Plugin = {
  name: 'workers-only-stub',
  setup(build) {
    build.onResolve({ filter: /^cloudflare:/ }, (args) => ({
      path: args.path,
      namespace: WORKERS_STUB,
    }));
    // Side-effect free, so that an unused import drops it entirely; classes that throw when
    // used. A name missing here fails the build, which is the point.
    build.onLoad({ filter: /.*/, namespace: WORKERS_STUB }, (args) => ({
      contents: ['WorkerEntrypoint', 'DurableObject', 'RpcTarget', 'WorkflowEntrypoint']
        .map(
          (name) =>
            `export class ${name} { constructor() { throw new Error(${JSON.stringify(`${args.path} is not available in the browser`)}); } }`,
        )
        .join('\n'),
      loader: 'js',
    }));
  },
};

const zodEnglishOnly: esbuild.Plugin = {
  name: 'zod-english-locale',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, async (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)) return undefined;
      const english = path.resolve(path.dirname(args.importer), '../locales/en.js');
      if (!(await exists(english))) return undefined;
      return { path: english, namespace: ZOD_LOCALES };
    });
    build.onLoad({ filter: /.*/, namespace: ZOD_LOCALES }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

function options(minify: boolean): esbuild.BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [
      { in: 'web/src/main.tsx', out: 'app' },
      { in: 'web/src/styles.css', out: 'app' },
      { in: 'web/api-docs/start.ts', out: 'api-docs' },
    ],
    outdir: WEB_ASSETS_DIR,
    bundle: true,
    // The viewer loads PDF.js (as large as the rest of the app) the first time it shows a PDF.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    // The app's views are Preact components in .tsx files: JSX becomes Preact's createElement
    // calls, which make DOM nodes directly (no markup strings, so the CSP's Trusted Types
    // policy stays the Markdown renderer's alone).
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify,
    sourcemap: 'linked',
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
    plugins: [workersOnlyStub, zodEnglishOnly],
  };
}

/** Throws when Workers-only code reached the browser bundle. */
function checkBundle(metafile: esbuild.Metafile): void {
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (input.startsWith(`${WORKERS_STUB}:`) && bytesInOutput > 0) {
        throw new Error(
          `${file} uses ${input.slice(WORKERS_STUB.length + 1)}: Workers-only code reached the browser bundle (import from the specific shared/ files instead of a barrel that brings it in)`,
        );
      }
    }
  }
}

/** Copies web/static/ and Swagger UI into the assets; returns the names it wrote. */
async function copyStatic(): Promise<string[]> {
  const from = path.join(WEB_SOURCE_DIR, 'static');
  await cp(from, WEB_ASSETS_DIR, { recursive: true });
  const swaggerUi = path.dirname(
    createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
  );
  await mkdir(path.join(WEB_ASSETS_DIR, SWAGGER_UI_DIR), { recursive: true });
  for (const file of SWAGGER_UI_FILES) {
    await cp(path.join(swaggerUi, file), path.join(WEB_ASSETS_DIR, SWAGGER_UI_DIR, file));
  }
  const pdfjs = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  for (const file of PDFJS_FILES) {
    await cp(path.join(pdfjs, file), path.join(WEB_ASSETS_DIR, PDFJS_DIR, path.basename(file)), {
      recursive: true,
    });
  }
  return [...(await readdir(from)), SWAGGER_UI_DIR, PDFJS_DIR];
}

/**
 * Removes files an earlier build left that this one did not write. The folder itself stays:
 * `wrangler dev` watches it, and stops seeing changes once it is deleted and made again.
 */
async function prune(keep: Iterable<string>): Promise<void> {
  const wanted = new Set(keep);
  for (const name of await readdir(WEB_ASSETS_DIR)) {
    if (!wanted.has(name))
      await rm(path.join(WEB_ASSETS_DIR, name), { recursive: true, force: true });
  }
}

/** The top-level names under the assets folder that a build wrote (files, or `chunks/`). */
const outputNames = (metafile: esbuild.Metafile) =>
  Object.keys(metafile.outputs).map(
    (file) => path.relative(WEB_ASSETS_DIR, path.join(root, file)).split(path.sep)[0]!,
  );

export interface WebBuild {
  /** Stops watching (no-op for a one-off build). */
  dispose(): Promise<void>;
}

/**
 * Builds the web app into {@link WEB_ASSETS_DIR}. With `watch`, keeps rebuilding on change
 * until `dispose()`; a failed rebuild is reported and the previous files stay.
 */
export async function buildWeb(opts: { watch?: boolean; quiet?: boolean } = {}): Promise<WebBuild> {
  await mkdir(WEB_ASSETS_DIR, { recursive: true });
  const statics = await copyStatic();
  if (!opts.watch) {
    const result = await esbuild.build(options(true));
    checkBundle(result.metafile!);
    await prune([...statics, ...outputNames(result.metafile!)]);
    if (!opts.quiet) await report(result.metafile!);
    return { dispose: async () => undefined };
  }
  const context = await esbuild.context({
    ...options(false),
    plugins: [
      ...options(false).plugins!,
      {
        // Rebuilds are silent when they work; esbuild reports compile errors itself.
        name: 'check-rebuild',
        setup(build) {
          build.onEnd(async (result) => {
            if (result.errors.length > 0 || !result.metafile) return;
            try {
              checkBundle(result.metafile);
              await prune([...statics, ...outputNames(result.metafile)]);
            } catch (err) {
              console.error(`web: ${(err as Error).message}`);
            }
          });
        },
      },
    ],
  });
  try {
    checkBundle((await context.rebuild()).metafile!);
    await context.watch();
  } catch (err) {
    await context.dispose();
    throw err;
  }
  if (!opts.quiet) console.log('web: built workers/gateway/public/assets/, watching web/');
  return { dispose: () => context.dispose() };
}

async function report(metafile: esbuild.Metafile): Promise<void> {
  const rows: string[] = [];
  for (const file of Object.keys(metafile.outputs)) {
    if (file.endsWith('.map') || file.endsWith('.txt')) continue;
    const bytes = await readFile(path.join(root, file));
    rows.push(
      `  ${path.relative(root, path.join(root, file))}  ${kib(bytes.length)} (${kib(gzipSync(bytes).length)} gzip)`,
    );
  }
  for (const file of SWAGGER_UI_FILES.filter((name) => /\.(js|css)$/.test(name))) {
    const at = path.join(WEB_ASSETS_DIR, SWAGGER_UI_DIR, file);
    const bytes = await readFile(at);
    rows.push(
      `  ${path.relative(root, at)}  ${kib(bytes.length)} (${kib(gzipSync(bytes).length)} gzip, copied)`,
    );
  }
  console.log(`web: built\n${rows.join('\n')}`);
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { watch: { type: 'boolean', default: false } } });
  try {
    await buildWeb({ watch: values.watch });
  } catch (err) {
    console.error(`web: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
