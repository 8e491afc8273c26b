import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse, str } from '../args.ts';
import { CliError, ROOT, version, writeFileAtomic } from '../io.ts';
import type { Command } from '../command.ts';

const USAGE_HINT = 'Run "geoshard plugin --help" for usage.';

/** Where the zips come from: a checkout's build (plugin/dist) or the companion package installed beside geoshard. */
interface ZipSource {
  /** For messages: where the zips were found. */
  from: string;
  /** Each OpenSearch version's zip: its path, and its SHA-256 when the source records one. */
  zips: Map<string, { path: string; sha256: string | null }>;
}

/** The checkout's plugin build: plugin/dist/geoshard-<pluginVersion>-os<version>.zip (node scripts/plugin.mjs build). */
function checkoutZips(root: string): ZipSource | null {
  if (!existsSync(join(root, 'plugin', 'pom.xml'))) return null;
  const dist = join(root, 'plugin', 'dist');
  const zips = new Map<string, { path: string; sha256: string | null }>();
  if (existsSync(dist)) {
    for (const f of readdirSync(dist)) {
      const m = /^geoshard-[\d.]+-os(\d+\.\d+\.\d+)\.zip$/.exec(f);
      if (m) zips.set(m[1], { path: join(dist, f), sha256: null });
    }
  }
  return { from: `this checkout's plugin/dist (built by "node scripts/plugin.mjs build")`, zips };
}

/** The companion package geoshard-opensearch-plugin, at geoshard's version. */
async function companionZips(): Promise<ZipSource> {
  const { pluginPackage, MissingPluginPackageError, PLUGIN_PACKAGE } = await import('../../data/optionalPeer.ts');
  try {
    const { dir, zips } = pluginPackage(version());
    return { from: `${PLUGIN_PACKAGE} ${version()}`, zips: new Map(Object.entries(zips.zips).map(([v, z]) => [v, { path: join(dir, z.file), sha256: z.sha256 }])) };
  } catch (e) {
    if (e instanceof MissingPluginPackageError) throw new CliError(`geoshard plugin: ${e.message}`);
    throw e;
  }
}

export const plugin: Command = {
  name: 'plugin',
  summary: "write the geoshard OpenSearch plugin's zip for an OpenSearch version, to install on a self-managed cluster",
  usage: `geoshard plugin --opensearch VERSION [--out FILE]
geoshard plugin --list

The geoshard OpenSearch plugin routes inside the engine: a search request processor
(geo_routing_search) narrows any client's geo query to its shards, a response processor
(geo_routing_report) says what it did, and an ingest processor (geo_routing) places writes as the
Painless routing pipeline does. A plugin's zip names the exact OpenSearch version it runs on, so
there is one zip per supported version. They come from the companion package
geoshard-opensearch-plugin (npm install geoshard-opensearch-plugin, at geoshard's version), or,
in a checkout of geoshard, from plugin/dist (node scripts/plugin.mjs build). Install the zip on
every node, then restart each:

  bin/opensearch-plugin install --batch file:///path/to/geoshard-plugin.zip

then "geoshard pipeline --install --search" sets the index's search pipeline (docs/plugin.md).

  --opensearch VERSION  the cluster's OpenSearch version, exactly (GET / says version.number)
  --out FILE            where to write the zip (default geoshard-<pluginVersion>-os<VERSION>.zip
                        in the current folder); written whole or not at all
  --list                print the versions there is a zip for, and where they come from
  --json                print the result as JSON: { versions, from } with --list, else
                        { out, bytes, opensearch, from }`,
  async run(argv, io) {
    const { values } = parse(argv, { opensearch: { type: 'string' }, out: { type: 'string' }, list: { type: 'boolean' }, json: { type: 'boolean' } }, 'plugin');
    if (!values.list && values.opensearch === undefined) throw new CliError(`geoshard plugin: give --opensearch VERSION (the cluster's OpenSearch version), or --list\n${USAGE_HINT}`, 2);
    if (values.list && (values.opensearch !== undefined || values.out !== undefined)) throw new CliError(`geoshard plugin: --list takes no other option\n${USAGE_HINT}`, 2);
    const source = checkoutZips(ROOT) ?? (await companionZips());
    const versions = [...source.zips.keys()].sort();
    if (values.list) {
      if (values.json) {
        io.out(JSON.stringify({ versions, from: source.from }) + '\n');
        return 0;
      }
      io.out(versions.length > 0 ? `${versions.map((v) => `OpenSearch ${v}`).join('\n')}\n(from ${source.from})\n` : `no zip yet in ${source.from}: build them with "node scripts/plugin.mjs build"\n`);
      return 0;
    }
    const wanted = str(values.opensearch, 'opensearch', 'plugin');
    if (!/^\d+\.\d+\.\d+$/.test(wanted)) throw new CliError(`geoshard plugin: --opensearch ${JSON.stringify(wanted)} is not a version: expected the cluster's exact version, such as 2.19.6 (GET / on the cluster says version.number)`, 2);
    const zip = source.zips.get(wanted);
    if (!zip) {
      const checkout = source.from.startsWith('this checkout');
      throw new CliError(
        `geoshard plugin: there is no zip for OpenSearch ${wanted} in ${source.from}: ${versions.length > 0 ? `there is one for ${versions.join(', ')}` : 'there is none yet'}. ` +
          (checkout
            ? `Build it with "node scripts/plugin.mjs build --version ${wanted}" (a version scripts/plugin.mjs lists as supported).`
            : `A plugin runs only on the exact version its zip names; for another version, build it from a checkout of geoshard ("node scripts/plugin.mjs build", after adding the version to SUPPORTED).`),
      );
    }
    const bytes = readFileSync(zip.path);
    if (zip.sha256 !== null) {
      const got = createHash('sha256').update(bytes).digest('hex');
      if (got !== zip.sha256) throw new CliError(`geoshard plugin: ${zip.path} has SHA-256 ${got}, but ${source.from} records ${zip.sha256}: the package is damaged; install it again`);
    }
    const out = (values.out as string | undefined) ?? zip.path.split('/').pop()!;
    writeFileAtomic(out, bytes, 'zip');
    if (values.json) {
      io.out(JSON.stringify({ out, bytes: bytes.length, opensearch: wanted, from: source.from }) + '\n');
      return 0;
    }
    io.out(`wrote ${out} (${bytes.length.toLocaleString('en-US')} bytes): the geoshard plugin for OpenSearch ${wanted}, from ${source.from}.\nInstall it on every node, then restart each: bin/opensearch-plugin install --batch file://${out.startsWith('/') ? out : `$PWD/${out}`}\n`);
    return 0;
  },
};
