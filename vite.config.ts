/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import MagicString from 'magic-string';
// The build-only guard is shared with the installed explorer's server (geoshard-explorer).
import { onlyTheBuild } from './src/server/staticFiles.ts';

const port = Number(process.env.PORT ?? 5173);

/**
 * Mounts the live-mode API (src/server) on the preview server (`npm start`, the built
 * explorer) and the dev server (`npm run dev`), so the explorer and /api share one origin. The API module is loaded lazily: the
 * explorer works without it (and without OpenSearch).
 */
function liveApi(): Plugin {
  const mount = async (use: (fn: (req: any, res: any, next: () => void) => void) => void) => {
    let handler: ((req: any, res: any, next: () => void) => void) | null = null;
    try {
      const mod = (await import('./src/server/middleware.ts')) as { createApiMiddleware?: () => Promise<typeof handler> };
      handler = (await mod.createApiMiddleware?.()) ?? null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') console.warn(`[geoshard] live API not mounted: ${(e as Error).message}`);
    }
    use((req, res, next) => (handler && req.url?.startsWith('/api/') ? handler(req, res, next) : next()));
  };
  return {
    name: 'geoshard-live-api',
    // Vitest runs a Vite server too; the unit tests do not want the API.
    configureServer: (server) => (process.env.VITEST ? undefined : mount((fn) => server.middlewares.use(fn))),
    configurePreviewServer: (server) => {
      server.middlewares.use(onlyTheBuild(resolve(server.config.root, server.config.build.outDir), resolve(server.config.root, 'data')));
      return mount((fn) => server.middlewares.use(fn));
    },
  };
}

/**
 * Makes s2js's static members tree-shakeable. s2js gives a class a static property after its
 * definition, as a statement of its own (`Rect$1.validRectLatRange = new Interval(...);`, a
 * function over several lines for `RectBounder.expandForSubregions`). A bundler keeps such a
 * write, and with it the class, even when nothing reads the class: s2's `Rect`, kept that way,
 * pulls in `Cap`, `Point` and the exact predicates with bigfloat (about 14 KB gzip in a page that
 * only needs cell ids). Each write becomes a pure expression that defines the name instead:
 * `var Rect$1$s0 = function () {...}();` ... `var Rect$1 = Object.assign(Rect$1$s0, { validRectLatRange: ... });`,
 * dropped with the class when nothing reads it, and the same object when something does (the
 * class's own methods read statics through the name, at call time). Line breaks stay where they
 * were, so s2js's source map still fits. Throws if a write is not of the shapes above.
 */
function pureStatics(code: string): string {
  const lines = code.split('\n');
  const declared = new Set(lines.flatMap((l) => /^var ([A-Za-z_$][\w$]*) = \/\*#__PURE__\*\/function \(\) \{$/.exec(l)?.[1] ?? []));
  const current = new Map<string, string>();
  let n = 0;
  const version = (name: string) => `${name}$s${n++}`;
  for (let i = 0; i < lines.length; i++) {
    const w = /^([A-Za-z_$][\w$]*)\.(\w+) = (.*)$/.exec(lines[i]);
    if (!w || !declared.has(w[1])) continue;
    const [, name, key, rest] = w;
    // The class's declaration (or the previous write's) gets a name of its own.
    const prev = current.get(name) ?? version(name);
    if (!current.has(name)) {
      const d = lines.findIndex((l) => l.startsWith(`var ${name} = /*#__PURE__*/function () {`));
      lines[d] = lines[d].replace(`var ${name} = `, `var ${prev} = `);
    }
    let end = i;
    if (!rest.endsWith(';')) {
      end = lines.findIndex((l, k) => k > i && l === '};');
      if (!rest.endsWith('{') || end < 0) throw new Error(`s2jsNamespaces: ${name}.${key} at line ${i + 1} is neither one line nor a block ending in "};"; update pureStatics`);
    }
    // Later writes to the same class chain on: the last one defines the name itself.
    const later = lines.slice(end + 1).some((l) => l.startsWith(`${name}.`) && /^[A-Za-z_$][\w$]*\.\w+ = /.test(l));
    const next = later ? version(name) : name;
    current.set(name, next);
    const value = end === i ? rest.slice(0, -1) : rest;
    lines[i] = `var ${next} = /*#__PURE__*/Object.assign(${prev}, { ${key}: ${value}${end === i ? ' });' : ''}`;
    if (end > i) lines[end] = '} });';
    i = end;
  }
  return lines.join('\n');
}

/**
 * Lets the build drop the parts of s2js the app does not use. s2js's ES build groups its
 * exports into plain objects (`var _index$4 = { __proto__: null, Cap: Cap, Cell: Cell, ... }`,
 * exported as `s2`), and a bundler keeps every class an object literal names: 140 KB of s2js
 * for a main thread that only turns a point into a cell id. This rewrites the package (build
 * only; the dev server and the tests load it unchanged) into the same exports as real module
 * namespaces (`export * as s2 from <a module re-exporting each class>`), so `s2.Cell` is a
 * static reference and unused classes (all marked pure by s2js's build) are tree-shaken.
 * The code of s2js is not changed: only its export objects become re-export modules.
 */
function s2jsNamespaces(): Plugin {
  const ENTRY = '\0s2js:entry';
  const FLAT = '\0s2js:flat';
  const NS = '\0s2js:ns:';
  // namespaces: each export object's name → its [key, local] pairs.
  let source: { flat: string; map: { mappings: string } | null; namespaces: Map<string, [string, string][]>; exportsLine: string } | null = null;
  const read = (file: string) => {
    if (source) return source;
    const code = readFileSync(file, 'utf8');
    const namespaces = new Map<string, [string, string][]>();
    // Each export object: `var _index$N = {\n  __proto__: null,\n  key: local,\n ...\n};`, and
    // the objects nested in them the same way (`s2.cellid`, `s1.angle`, `s1.chordangle`: a
    // `cellid` object kept whole would keep `cellid.fromPoint` and with it s2's `Point`).
    // Blank lines replace each object, so s2js's own source map still fits the code.
    const flat = code.replace(/^var ([A-Za-z_$][\w$]*) = \{\n\s+__proto__: null,\n([\s\S]*?)\n\};\n/gm, (block: string, name: string, body: string) => {
      namespaces.set(name, body.split(',\n').map((l) => l.trim().split(/:\s*/) as [string, string]));
      return '\n'.repeat(block.split('\n').length - 1);
    });
    const m = /^export \{ (.*) \};$/m.exec(flat);
    const statics = pureStatics(flat);
    if (!m || namespaces.size === 0) throw new Error(`s2jsNamespaces: ${file} no longer has the expected shape; remove the plugin or update it`);
    const locals = [...new Set([...namespaces.values()].flatMap((pairs) => pairs.map(([, local]) => local).filter((l) => !namespaces.has(l))))];
    const map = existsSync(file + '.map') ? (JSON.parse(readFileSync(file + '.map', 'utf8')) as { mappings: string }) : null;
    source = { flat: statics.replace(m[0], `export { ${locals.join(', ')} };`), map, namespaces, exportsLine: m[1] };
    return source;
  };
  let file = '';
  return {
    name: 'geoshard-s2js-namespaces',
    apply: 'build',
    enforce: 'pre',
    async resolveId(id, importer) {
      if (id === 's2js' && importer !== ENTRY && !importer?.startsWith(NS)) {
        file ||= (await this.resolve(id, importer, { skipSelf: true }))!.id;
        return ENTRY;
      }
      if (id === ENTRY || id === FLAT || id.startsWith(NS)) return id;
      // s2js's exact predicates use bigfloat, a UMD bundle: a bundler keeps its wrapper even when
      // no predicate is left (4.7 KB gzip in the page), unless told it has no side effects.
      if (id === 'bigfloat' && importer === FLAT) {
        const r = await this.resolve(id, importer, { skipSelf: true });
        return r && { ...r, moduleSideEffects: false };
      }
      return null;
    },
    load(id) {
      if (id === ENTRY) {
        // `_index$4 as s2, ...` → `export * as s2 from '\0s2js:ns:_index$4';`
        return read(file)
          .exportsLine.split(', ')
          .map((e) => e.split(' as '))
          .map(([name, as]) => `export * as ${as} from ${JSON.stringify(NS + name)};`)
          .join('\n');
      }
      if (id === FLAT) return { code: read(file).flat, map: read(file).map, moduleSideEffects: false };
      if (id.startsWith(NS)) {
        // `key: local` → `export { local as key } from FLAT`, or `export * as key from NS + local` for a nested object.
        const { namespaces } = read(file);
        const pairs = namespaces.get(id.slice(NS.length))!;
        const nested = pairs.filter(([, local]) => namespaces.has(local)).map(([key, local]) => `export * as ${key} from ${JSON.stringify(NS + local)};`);
        const own = pairs.filter(([, local]) => !namespaces.has(local)).map(([key, local]) => (key === local ? key : `${local} as ${key}`));
        return [`export { ${own.join(', ')} } from ${JSON.stringify(FLAT)};`, ...nested].join('\n');
      }
      return null;
    },
  };
}

/**
 * Leaves out the GLSL of three.js's built-in materials. The explorer draws only its own
 * ShaderMaterials (src/app/globe/shaders.ts and the layers' materials, none with an `#include`), yet
 * three's WebGL build carries the source of every built-in material's shaders in one object,
 * `ShaderChunk`, which a bundler keeps whole: 28 KB gzip of the first screen. For a
 * ShaderMaterial three adds exactly two chunks to the fragment shader (WebGLProgram: the tone
 * mapping and colour space functions), so those two keep their text; every other chunk becomes
 * a GLSL `#error` naming it, so a built-in material (or a chunk included by a new shader) fails
 * to compile with a message that points here instead of drawing wrong. The keys stay, so
 * three's own lookups (`ShaderChunk[name]`, ShaderLib) still find a string. Build only; throws
 * if three's build no longer has the expected shape.
 */
function threeShaderChunks(keep: readonly string[] = ['tonemapping_pars_fragment', 'colorspace_pars_fragment']): Plugin {
  return {
    name: 'geoshard-three-shader-chunks',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]three[\\/]build[\\/]three\.module\.js$/.test(id)) return null;
      const block = /^const ShaderChunk = \{\n([\s\S]*?)\n\};$/m.exec(code);
      if (!block) throw new Error('threeShaderChunks: three.module.js has no `const ShaderChunk = { ... };` block; update or remove the plugin');
      const pairs = block[1].split(',\n').map((l) => l.trim().split(/:\s*/));
      for (const k of keep) if (!pairs.some(([key]) => key === k)) throw new Error(`threeShaderChunks: three's ShaderChunk has no ${k}`);
      const out = new MagicString(code);
      for (const [key, local] of pairs) {
        if (keep.includes(key)) continue;
        const decl = new RegExp(`^(?:var|const) ${local.replace(/\$/g, '\\$')} = ("(?:[^"\\\\]|\\\\.)*");$`, 'm').exec(code);
        if (!decl) throw new Error(`threeShaderChunks: three.module.js declares ShaderChunk.${key} (${local}) in an unexpected way; update the plugin`);
        const start = decl.index + decl[0].indexOf(decl[1]);
        out.overwrite(start, start + decl[1].length, JSON.stringify(`#error three.js shader chunk <${key}> is left out of the explorer's build (vite.config.ts, threeShaderChunks)`));
      }
      return { code: out.toString(), map: out.generateMap({ hires: 'boundary', source: id }) };
    },
  };
}

/**
 * Asks the browser for the bundled boundary file while it fetches the scripts: index.html
 * gains `<link rel="preload" as="fetch" crossorigin>` for it (the build's hashed name), so the
 * boot's fetch (src/app/shell/loadData.ts, a plain same-origin fetch, which the preload matches) takes
 * it from the cache instead of starting after the scripts have run. The globe's first frame
 * waits for this file. A link with `?boundaries=` fetches its own file; the preload (2 KB) is
 * then unused.
 */
function preloadBoundaries(): Plugin {
  let base = '/';
  return {
    name: 'geoshard-preload-boundaries',
    apply: 'build',
    configResolved: (config) => void (base = config.base),
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const asset = Object.values(ctx.bundle ?? {}).find((f) => f.type === 'asset' && f.originalFileNames.some((n) => /(^|\/)data\/boundaries\.json$/.test(n)));
        if (!asset) return html;
        return [{ tag: 'link', attrs: { rel: 'preload', href: `${base}${asset.fileName}`, as: 'fetch', crossorigin: '' }, injectTo: 'head-prepend' }];
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), liveApi(), s2jsNamespaces(), threeShaderChunks(), preloadBoundaries()],
  server: { host: '127.0.0.1', port, strictPort: true },
  // npm start serves the build with vite preview: same origin for the page and /api, so no CORS headers at all.
  preview: { host: '127.0.0.1', port, strictPort: true, cors: false },
  // Never inline data files: the explorer shows where its boundary file came from.
  // dist/app: dist/ also holds the package's built core, CLI and server (npm run build:lib).
  build: { outDir: 'dist/app', target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 2000, assetsInlineLimit: 0 },
  worker: { format: 'es', plugins: () => [s2jsNamespaces()] },
  test: {
    testTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'], exclude: ['src/**/*.live.test.ts', 'src/**/*.secure.test.ts', 'node_modules/**'], environment: 'node' },
      },
      {
        // Against a real OpenSearch node (npm run cluster:start, or OPENSEARCH_URL); run by npm test.
        extends: true,
        test: { name: 'live', include: ['src/**/*.live.test.ts'], environment: 'node', fileParallelism: false, testTimeout: 180_000, hookTimeout: 300_000 },
      },
      {
        // Against the secured node (scripts/cluster.mjs start --secure; env from "cluster.mjs env --secure"); run by npm test.
        extends: true,
        test: { name: 'secure', include: ['src/**/*.secure.test.ts'], environment: 'node', fileParallelism: false, testTimeout: 300_000, hookTimeout: 300_000 },
      },
    ],
  },
});
