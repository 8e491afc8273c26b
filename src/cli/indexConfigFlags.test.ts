/**
 * --config FILE and the flags that override its keys on every command that touches an index
 * (seed, verify-routing, migrate, pipeline, audit): one loader (src/cli/io.ts loadIndexConfig),
 * so a bad file or flag is refused the same way everywhere, naming the key, the value and what is
 * valid, before any request is sent (OPENSEARCH_URL points at a closed port: nothing may need it).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from './main.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const ROOT = resolve(import.meta.dirname, '..', '..');
const PLACES = join(ROOT, 'data', 'places.config.json');
const BUNDLED = join(ROOT, 'data', 'boundaries.json');
let dir: string;
let savedUrl: string | undefined;
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-config-flags-'));
  savedUrl = process.env.OPENSEARCH_URL;
  // Port 9 (discard): nothing answers; a command that got as far as a request would fail differently.
  process.env.OPENSEARCH_URL = 'http://127.0.0.1:9';
});
afterAll(() => {
  if (savedUrl === undefined) delete process.env.OPENSEARCH_URL;
  else process.env.OPENSEARCH_URL = savedUrl;
  rmSync(dir, { recursive: true, force: true });
});

/** Each command with the arguments it needs besides the config (a migrate needs its candidate). */
const COMMANDS: [string, string[]][] = [
  ['seed', []],
  ['verify-routing', []],
  ['migrate', ['--candidate', BUNDLED]],
  ['pipeline', ['--install']],
  ['audit', []],
];

describe('--config on every command that touches an index', () => {
  it.each(COMMANDS)('%s refuses a config with bad values, naming each key, its value and what is valid (exit 1)', async (cmd, extra) => {
    const bad = file(`bad-${cmd}.json`, JSON.stringify({ index: 'Has Space', location: 'a..b', weight: 'rows', facets: 'country' }));
    const r = await run(cmd, ...extra, '--config', bad);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`geoshard ${cmd}: ${bad} is invalid (4 problems)`);
    expect(r.err).toMatch(/index: "Has Space" is not a valid OpenSearch index name/);
    expect(r.err).toMatch(/location: "a\.\.b" is not a field path/);
    expect(r.err).toMatch(/weight: "rows" is invalid: expected "docs" \(every document weighs 1\) or \{ "field": "<numeric field>" \}/);
    expect(r.err).toMatch(/facets: "country" is invalid: expected an array of at most 16 field paths/);
    expect(r.err).not.toMatch(/unreachable|127\.0\.0\.1:9/);
  });

  it.each(COMMANDS)('%s refuses a config file that is not JSON, and one that does not exist', async (cmd, extra) => {
    const r = await run(cmd, ...extra, '--config', file(`nojson-${cmd}.json`, '{ "index": '));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is invalid \(1 problem\):\n {2}not JSON/);
    const missing = await run(cmd, ...extra, '--config', join(dir, 'missing.json'));
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('missing.json');
  });

  it.each(COMMANDS)('%s refuses a bad --index or --field as a usage error (exit 2), naming the flag and the value', async (cmd, extra) => {
    const i = await run(cmd, ...extra, '--index', 'Has Space');
    expect(i.code).toBe(2);
    expect(i.err).toMatch(new RegExp(`^geoshard ${cmd}: --index "Has Space" is not a valid OpenSearch index name`));
    const f = await run(cmd, ...extra, '--config', PLACES, '--field', 'geo..point');
    expect(f.code).toBe(2);
    expect(f.err).toMatch(new RegExp(`^geoshard ${cmd}: --field "geo\\.\\.point" is not a field path`));
  });

  it('audit refuses a joined config of another shape than the sample (a flat one is audited by its field), naming the keys and the valid values', async () => {
    const other = file('joined-audit.json', JSON.stringify({ index: 'dishes', location: 'location', join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'shop_location' } }));
    const r = await run('audit', '--config', other);
    expect(r.code).toBe(1);
    expect(r.err).toContain('geoshard audit: the index config key is invalid for this command');
    expect(r.err).toContain('join { field "rel", parent "shop", child "item", childLocation "shop_location" } is not valid here');
  });

  it.each([['seed'], ['verify-routing'], ['migrate']])('%s refuses a config whose index is not the boundary file\'s, naming both', async (cmd) => {
    const other = file(`other-${cmd}.json`, JSON.stringify({ index: 'shops', location: 'location', join: { field: 'join', parent: 'restaurant', child: 'dish', childLocation: 'restaurant_location' } }));
    const r = await run(cmd, ...(cmd === 'migrate' ? ['--candidate', BUNDLED] : []), '--config', other);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`^geoshard ${cmd}: index "shops" \\(the config's, or --index\\) is not valid with .*boundaries\\.json: expected its index "dishes"`));
  });

  it('seed --sample places takes the places config and refuses one whose documents are not the gazetteer\'s shape', async () => {
    const wrong = file('places-wrong.json', JSON.stringify({ index: 'places', location: 'pos' }));
    const r = await run('seed', '--sample', 'places', '--config', wrong);
    expect(r.code).toBe(1);
    expect(r.err).toContain('location "pos" is not valid here: expected "geo"');
    const f = await run('seed', '--sample', 'places', '--field', 'location');
    expect(f.code).toBe(1);
    expect(f.err).toContain('location "location" is not valid here: expected "geo"');
    // A good config gets as far as the cluster (nothing answers on port 9).
    const ok = await run('seed', '--sample', 'places', '--config', PLACES, '--index', 'places-copy');
    expect(ok.code).toBe(1);
    expect(ok.err).toMatch(/unreachable/);
  });
});
