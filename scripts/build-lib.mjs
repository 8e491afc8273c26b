// `npm run build:lib` (and `prepare`, so `npx geoshard` works right after `npm ci`): builds the
// package's JavaScript into dist/ with tsc — src/core with its .d.ts (the import), src/cli (the
// `geoshard` bin) and src/server — as Node ESM. Builds into a fresh folder and swaps it in, so a
// failed build leaves the previous dist/ whole.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const next = join(root, 'dist.next');
const old = join(root, 'dist.old');

rmSync(next, { recursive: true, force: true });
try {
  for (const config of ['tsconfig.build.json', 'tsconfig.build.types.json']) {
    execFileSync(process.execPath, [tsc, '-p', join(root, config), '--outDir', next], { cwd: root, stdio: 'inherit' });
  }
} catch {
  rmSync(next, { recursive: true, force: true });
  console.error('build:lib failed: dist/ left as it was');
  process.exit(1);
}
chmodSync(join(next, 'cli', 'bin.js'), 0o755);
rmSync(old, { recursive: true, force: true });
if (existsSync(join(root, 'dist'))) renameSync(join(root, 'dist'), old);
// The explorer's build (dist/app, by vite) is not this build's: keep it, so a library build
// never pulls the app out from under a running `npm start` or browser test.
if (existsSync(join(old, 'app'))) renameSync(join(old, 'app'), join(next, 'app'));
renameSync(next, join(root, 'dist'));
rmSync(old, { recursive: true, force: true });
