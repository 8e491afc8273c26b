/**
 * `geoshard reindex`'s input checks: every one runs before any request (the
 * OpenSearch URL below answers nothing, so a check that ran late would fail
 * as "unreachable" instead), names the flag, the value and what is valid,
 * and exits 2. The command itself runs in src/ops/reindex/reindex.live.test.ts.
 */
import { describe, it, expect, afterEach, beforeEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main.ts';
import { DEFAULT_BOUNDARIES } from './io.ts';
import { fieldsOf, typeAt } from '../ops/reindex/reindex.ts';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

const saved = { pause: process.env.GEOSHARD_REINDEX_PAUSE, url: process.env.OPENSEARCH_URL };
let dir: string;
beforeEach(() => {
  // Nothing listens here: a check made after a request would surface as "unreachable".
  process.env.OPENSEARCH_URL = 'http://127.0.0.1:9';
  dir = mkdtempSync(join(tmpdir(), 'reindex-args-'));
});
afterEach(() => {
  for (const [k, v] of [['GEOSHARD_REINDEX_PAUSE', saved.pause], ['OPENSEARCH_URL', saved.url]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  rmSync(dir, { recursive: true, force: true });
});

const ok = ['--from', 'places', '--to', 'places-geo', '--boundaries', DEFAULT_BOUNDARIES, '--alias', 'places-live'];
const without = (flag: string) => {
  const i = ok.indexOf(flag);
  return [...ok.slice(0, i), ...ok.slice(i + 2)];
};

describe('geoshard reindex (input checked before any request)', () => {
  it.each([
    ['--to', without('--to'), 'geoshard reindex: --to is required'],
    ['--from', without('--from'), 'geoshard reindex: --from is required'],
    ['--boundaries', without('--boundaries'), 'geoshard reindex: --boundaries is required'],
  ])('requires %s and says how to get usage', async (_flag, argv, message) => {
    const r = await run('reindex', ...argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('Run "geoshard reindex --help" for usage.');
  });

  it.each([
    ['--to', 'Places', /--to "Places" is not a valid OpenSearch index name: lower-case letters/],
    ['--from', 'a b', /--from .*"a b"/],
    ['--alias', '_x', /--alias .*"_x"/],
  ])('refuses an index name %s %s that OpenSearch would refuse, with the boundary file\'s rule', async (flag, value, message) => {
    const argv = [...ok];
    argv[argv.indexOf(flag) + 1] = value;
    const r = await run('reindex', ...argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
  });

  it('refuses --to equal to --from, and --alias equal to --to', async () => {
    const a = await run('reindex', '--from', 'places', '--to', 'places', '--boundaries', DEFAULT_BOUNDARIES, '--alias', 'x');
    expect(a.code).toBe(2);
    expect(a.err).toContain('--to "places" is --from as well: the copy goes into a new index');
    const b = await run('reindex', '--from', 'places', '--to', 'places-geo', '--boundaries', DEFAULT_BOUNDARIES, '--alias', 'places-geo');
    expect(b.code).toBe(2);
    expect(b.err).toContain('--alias "places-geo" is --to as well');
  });

  it.each([
    ['--batch', '50', '--batch "50" is invalid: expected an integer in [100, 10000]'],
    ['--concurrency', '0', '--concurrency "0" is invalid: expected an integer in [1, 16]'],
    ['--lock-stale-ms', 'soon', '--lock-stale-ms "soon" is invalid: expected an integer in [1000, 3600000]'],
  ])('refuses %s %s, naming the range', async (flag, value, message) => {
    const r = await run('reindex', ...ok, flag, value);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
  });

  it('refuses --finalize with --rollback, and the copy flags with either', async () => {
    const a = await run('reindex', '--to', 'places-geo', '--finalize', '--rollback');
    expect(a.code).toBe(2);
    expect(a.err).toContain('--finalize and --rollback are exclusive');
    const b = await run('reindex', '--to', 'places-geo', '--rollback', '--from', 'places');
    expect(b.code).toBe(2);
    expect(b.err).toContain('--from is not taken with --rollback');
  });

  it('refuses a boundary file that does not exist or is not one, naming the file', async () => {
    const missing = await run('reindex', ...without('--boundaries'), '--boundaries', join(dir, 'nope.json'));
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('nope.json');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version": 1}');
    const r = await run('reindex', ...without('--boundaries'), '--boundaries', bad);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('bad.json');
  });

  it('refuses a --field that is not a field path, naming the flag', async () => {
    const r = await run('reindex', ...ok, '--field', 'a..b');
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/--field "a\.\.b" is not a field path/);
  });

  it('refuses an unknown pause point in GEOSHARD_REINDEX_PAUSE, listing the points', async () => {
    process.env.GEOSHARD_REINDEX_PAUSE = 'cutover';
    const r = await run('reindex', ...ok);
    expect(r.code).toBe(2);
    expect(r.err).toContain('GEOSHARD_REINDEX_PAUSE "cutover" is invalid: expected one of copying, verifying, switching');
  });

  it('documents the phases, the write block, the alias and the one-time rename in --help', async () => {
    const r = await run('reindex', '--help');
    expect(r.code).toBe(0);
    for (const s of ['point-in-time', '_seq_no', 'index.blocks.write', 'one _aliases call', 'remove_index + add', 'kill -9', '--finalize', '--rollback']) expect(r.out + r.err).toContain(s);
  });
});

describe('reindex helpers', () => {
  const mappings = { properties: { geo: { type: 'geo_point' }, place: { properties: { pos: { type: 'geo_point' }, name: { type: 'text' } } }, cell: { type: 'keyword' }, shard: { type: 'keyword' } } };
  it('typeAt reads a dotted path of a mapping, undefined for a field it does not have', () => {
    expect(typeAt(mappings, 'geo')).toBe('geo_point');
    expect(typeAt(mappings, 'place.pos')).toBe('geo_point');
    expect(typeAt(mappings, 'place')).toBe('object');
    expect(typeAt(mappings, 'place.nope')).toBeUndefined();
    expect(typeAt(mappings, 'nope.geo')).toBeUndefined();
  });
  it('fieldsOf stamps cell and shard only when the mapping has both', () => {
    expect(fieldsOf(mappings, 'geo', null)).toEqual({ location: 'geo', childLocation: null, stamp: true });
    expect(fieldsOf({ properties: { geo: { type: 'geo_point' } } }, 'geo', null).stamp).toBe(false);
  });
});
