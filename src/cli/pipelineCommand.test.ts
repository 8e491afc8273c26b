import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { main } from './main.ts';
import { ROOT, loadBoundaryFile } from './io.ts';
import { closedPortUrl } from '../testing/testkit.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const bundled = join(ROOT, 'data', 'boundaries.json');

describe('geoshard pipeline', () => {
  it('asks for exactly one action (usage error, exit 2)', async () => {
    const none = await run('pipeline');
    expect(none.code).toBe(2);
    expect(none.err).toContain('give one of --install, --print or --uninstall');
    const two = await run('pipeline', '--install', '--uninstall');
    expect(two.code).toBe(2);
    expect(two.err).toContain('--install and --uninstall cannot be combined');
  });

  it('takes --boundaries only with --print, and not with --index', async () => {
    const r = await run('pipeline', '--install', '--boundaries', bundled);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--boundaries is read only with --print');
    const both = await run('pipeline', '--print', '--boundaries', bundled, '--index', 'x');
    expect(both.code).toBe(2);
    expect(both.err).toContain('--print takes --index or --boundaries, not both');
  });

  it('refuses an index name OpenSearch would refuse, naming it', async () => {
    const r = await run('pipeline', '--uninstall', '--index', 'Has Space');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--index "Has Space" is not a valid OpenSearch index name/);
  });

  it('prints the pipeline of a boundary file without a cluster', async () => {
    const r = await run('pipeline', '--print', '--boundaries', bundled);
    expect(r.code).toBe(0);
    const file = loadBoundaryFile(bundled);
    const { id, pipeline } = JSON.parse(r.out);
    expect(id).toBe(`geoshard-${file.index}`);
    const script = pipeline.processors[0].script;
    expect(script.lang).toBe('painless');
    expect(script.params.identity).toMatchObject({ hash: file.hash, epoch: 0 });
    expect(script.params.read).toEqual(file.shards.map((s) => s.name));
  });

  it('says how to start a node when the cluster does not answer (exit 1)', async () => {
    const saved = process.env.OPENSEARCH_URL;
    process.env.OPENSEARCH_URL = await closedPortUrl();
    try {
      const r = await run('pipeline', '--install', '--index', 'gs-pipe-nowhere');
      expect(r.code).toBe(1);
      expect(r.err).toContain('Start a local node with "npm run cluster:start"');
    } finally {
      if (saved === undefined) delete process.env.OPENSEARCH_URL;
      else process.env.OPENSEARCH_URL = saved;
    }
  });
});
