// `npm run build:explorer`: writes dist/geoshard-explorer/, the companion package that carries the
// explorer for an installed geoshard (`npm install geoshard geoshard-explorer`, then
// `npx geoshard explore`; docs/packages.md says why it is a package of its own, with its sizes).
// `npm pack dist/geoshard-explorer` makes its tarball; scripts/pack.test.ts packs and installs it.
//
// It holds:
//   app/        the Vite build of the explorer (dist/app, built first when missing or older than
//               its sources, as `npm start` does), without its source maps;
//   server.js   src/server/explorerServer.ts bundled by esbuild: a node:http server for the app,
//               the person's files and the live API (src/server), which the CLI imports;
//   package.json, README.md.
// Its runtime dependencies are geoshard's: s2js (a dependency, deduplicated with geoshard's) and
// the OpenSearch client (an optional peer, for live mode); geoshard itself is a peer at the same
// version, so the two always come from one build.
// Builds into a fresh folder and swaps it in, so a failed build leaves the previous one whole.
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { staleReason } from './start.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'geoshard-explorer');
const next = `${out}.next`;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The companion's package name; src/data/optionalPeer.ts names it to a person who lacks it. */
const NAME = 'geoshard-explorer';
const CLIENT = '@opensearch-project/opensearch';

try {
  const why = staleReason();
  if (why) {
    console.log(`build:explorer: building the explorer into dist/app (${why})...`);
    process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true';
    const { build } = await import('vite');
    await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', clearScreen: false });
  }
  rmSync(next, { recursive: true, force: true });
  mkdirSync(next, { recursive: true });
  // The app without its source maps (about half of dist/app) and without the README's screenshots
  // (public/screenshot-*.png: the page never loads them).
  cpSync(join(root, 'dist', 'app'), join(next, 'app'), { recursive: true, filter: (src) => !src.endsWith('.map') && !/[\\/]screenshot-[\w-]+\.png$/.test(src) });
  const { build } = await import('esbuild');
  await build({
    entryPoints: [join(root, 'src', 'server', 'explorerServer.ts')],
    outfile: join(next, 'server.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    // geoshard's runtime dependency and its optional peers stay package imports (loaded only by
    // what needs them: the client by live mode, src/data/optionalPeer.ts).
    external: Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }),
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const manifest = {
    name: NAME,
    version: pkg.version,
    description: `The explorer of geoshard (${pkg.description.replace(/\.$/, '')}): the built app and its server, for \`npx geoshard explore\` from an installed geoshard.`,
    license: pkg.license,
    type: 'module',
    exports: { '.': './server.js', './package.json': './package.json' },
    engines: pkg.engines,
    dependencies: { s2js: pkg.dependencies.s2js },
    peerDependencies: { geoshard: pkg.version, [CLIENT]: pkg.peerDependencies[CLIENT] },
    peerDependenciesMeta: { [CLIENT]: { optional: true } },
  };
  writeFileSync(join(next, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(
    join(next, 'README.md'),
    `# ${NAME}\n\nThe explorer of [geoshard](https://www.npmjs.com/package/geoshard), for an installed geoshard:\n\n` +
      '```sh\nnpm install geoshard geoshard-explorer\nnpx geoshard explore --boundaries boundaries.json --cells cells.csv\n```\n\n' +
      `It holds the built app and the server \`geoshard explore\` starts; geoshard without it routes, balances\nand writes as before (docs/packages.md in geoshard's repository gives the sizes). Its version is\ngeoshard's: install the same version of both. Live mode needs the OpenSearch client beside them\n(\`npm install ${CLIENT}@${pkg.peerDependencies[CLIENT]}\`).\n`,
  );
} catch (e) {
  rmSync(next, { recursive: true, force: true });
  console.error(`build:explorer failed: ${e.message}\n${out} left as it was`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
renameSync(next, out);
if (!existsSync(join(out, 'server.js'))) process.exit(1);
console.log(`build:explorer: wrote ${out}`);
