// `node scripts/build-plugin-package.mjs`: writes dist/geoshard-opensearch-plugin/, the companion
// package that carries the geoshard OpenSearch plugin's zips for an installed geoshard
// (`npm install geoshard-opensearch-plugin`, then `npx geoshard plugin --opensearch 2.19.6`;
// docs/plugin.md says why it is a package of its own, with its size). `npm pack
// dist/geoshard-opensearch-plugin` makes its tarball; scripts/pack.test.ts packs and installs it.
//
// It holds:
//   zips/geoshard-<pluginVersion>-os<version>.zip   one per supported OpenSearch version, the very
//                                                   zips `node scripts/plugin.mjs build` makes and
//                                                   the tests install (built first when missing);
//   zips.json     each version's file, size and SHA-256 (the CLI checks a zip against it);
//   package.json, README.md.
// No code and no dependency: the `geoshard` CLI reads it. Builds into a fresh folder and swaps it
// in, so a failed build leaves the previous one whole.
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureZip, PLUGIN_VERSION, SUPPORTED } from './plugin.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The companion's package name; src/data/optionalPeer.ts names it to a person who lacks it. */
const NAME = 'geoshard-opensearch-plugin';
const out = join(root, 'dist', NAME);
const next = `${out}.next`;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

rmSync(next, { recursive: true, force: true });
mkdirSync(join(next, 'zips'), { recursive: true });
const zips = {};
for (const version of SUPPORTED) {
  const zip = ensureZip(version);
  const bytes = readFileSync(zip);
  copyFileSync(zip, join(next, 'zips', basename(zip)));
  zips[version] = { file: `zips/${basename(zip)}`, bytes: statSync(zip).size, sha256: createHash('sha256').update(bytes).digest('hex') };
}
writeFileSync(join(next, 'zips.json'), JSON.stringify({ plugin: 'geoshard', pluginVersion: PLUGIN_VERSION, zips }, null, 2) + '\n');
writeFileSync(
  join(next, 'package.json'),
  JSON.stringify(
    {
      name: NAME,
      version: pkg.version,
      description: `The geoshard OpenSearch plugin (geo_routing_search, geo_routing_report, geo_routing) for OpenSearch ${SUPPORTED.join(', ')}: a zip per version, written out by \`npx geoshard plugin\`.`,
      license: pkg.license,
      files: ['zips/', 'zips.json', 'README.md'],
      peerDependencies: { geoshard: pkg.version },
    },
    null,
    2,
  ) + '\n',
);
writeFileSync(
  join(next, 'README.md'),
  `# ${NAME}\n\nThe geoshard OpenSearch plugin, one zip per supported OpenSearch version (${SUPPORTED.join(', ')}), for an installed\ngeoshard ${pkg.version}. Write the zip of your cluster's version and install it on every node:\n\n` +
    '```sh\nnpx geoshard plugin --opensearch 2.19.6 --out geoshard-plugin.zip\nbin/opensearch-plugin install --batch file://$PWD/geoshard-plugin.zip\n```\n\nWhat the plugin does and how to use it: geoshard\'s docs/plugin.md.\n',
);
rmSync(out, { recursive: true, force: true });
renameSync(next, out);
console.log(`build-plugin-package: ${out} (${SUPPORTED.length} zips)`);
