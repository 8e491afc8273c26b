import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, validateBoundaryFile, parseBoundaryFile, cellFromOrdinal, cellToken, shardForRouting } from '../core/index.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const tok = (o: number) => cellToken(cellFromOrdinal(o));
// Hand-checkable: cells at ordinals 50, 120, 160, 250 with 11, 22, 33, 44 documents (110 in all);
// current shards [0,100) [100,200) [200,end); the candidate moves the first boundary to 150.
const current = fileWithCuts([100, 200]);
const [s0, s1, s2] = current.shards.map((s) => s.name);
let dir: string;
const p = (name: string) => join(dir, name);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-review-'));
  writeFileSync(p('cells.csv'), `token,restaurants,dishes\n${tok(50)},1,10\n${tok(120)},2,20\n${tok(160)},3,30\n${tok(250)},4,40\n`);
  writeFileSync(p('current.json'), formatBoundaryFile(current));
  writeFileSync(p('candidate.json'), formatBoundaryFile(fileWithCuts([150, 200])));
  writeFileSync(p('four.json'), formatBoundaryFile(fileWithCuts([100, 150, 200])));
  // Edited by hand without re-hashing, and with boundaries out of order.
  writeFileSync(p('invalid.json'), formatBoundaryFile({ ...fileWithCuts([150, 200]), boundaries: [tok(200), tok(150)] }));
});

describe('geoshard diff', () => {
  it('prints moves and totals as JSON with tokens as in the boundary file', async () => {
    const r = await run('diff', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--cells', p('cells.csv'), '--json', '--centres', '20');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.moves).toEqual([expect.objectContaining({ from: s1, to: s0, start: tok(100), end: tok(150), restaurants: 2, dishes: 20 })]);
    expect(j.totals).toMatchObject({ restaurants: 2, dishes: 20, share: 22 / 110 });
    expect(j.sameLayout).toBe(true);
    expect(j.shards.map((s: { name: string; before: { documents: number }; after: { documents: number } }) => [s.name, s.before.documents, s.after.documents])).toEqual([
      [s0, 11, 33],
      [s1, 55, 33],
      [s2, 44, 44],
    ]);
    expect(j.evenness.before.heaviestOverMean).toBeCloseTo(55 / (110 / 3), 12);
    expect(j.fanout.workload).toMatchObject({ seed: 1, centres: 20, searches: 80 });
    expect(j.fanout.hash.current.meanShards).toBe(3);
    expect(j.fanout.current.shardQueriesPerSecond).toBeCloseTo(1000 * j.fanout.current.meanShards, 9);
  });

  it('reports no change for a file diffed with itself', async () => {
    const r = await run('diff', '--boundaries', p('current.json'), '--candidate', p('current.json'), '--cells', p('cells.csv'), '--centres', '10');
    expect(r.code).toBe(0);
    expect(r.out).toContain('(the same file)');
    expect(r.out).toContain('no key range changes owner');
    expect(r.out).toMatch(/moved: 0 restaurants and 0 dishes = 0\.00% of the index's 110 documents/);
    const j = JSON.parse((await run('diff', '--boundaries', p('current.json'), '--candidate', p('current.json'), '--cells', p('cells.csv'), '--json', '--centres', '10')).out);
    expect(j.moves).toEqual([]);
    expect(j.totals).toMatchObject({ restaurants: 0, dishes: 0, share: 0 });
  });

  it('rejects an invalid candidate with every message of the validator, exiting 1', async () => {
    const r = await run('diff', '--boundaries', p('current.json'), '--candidate', p('invalid.json'), '--cells', p('cells.csv'));
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    const errors = validateBoundaryFile(JSON.parse(readFileSync(p('invalid.json'), 'utf8')));
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(r.err).toContain('invalid.json is invalid');
    for (const e of errors) expect(r.err).toContain(e.message);
  });

  it('prints the moves table, evenness and fan-out beside the hash baseline, and warns when the shard count changes', async () => {
    const r = await run('diff', '--boundaries', p('current.json'), '--candidate', p('four.json'), '--cells', p('cells.csv'), '--centres', '10', '--qps', '500');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/! reindex: numberOfShards changes \(3 → 4\)/);
    expect(r.out).toMatch(/paired by range overlap instead of name/);
    expect(r.out).toMatch(/heaviest \/ mean\s+1\.5000/);
    expect(r.out).toMatch(/hash-sharded, 3 shards\s+3\.000\s+0\.0%\s+1,500/);
    expect(r.out).toMatch(/hash-sharded, 4 shards\s+4\.000\s+0\.0%\s+2,000/);
  });

  it('takes a radius mix with weights and rejects bad options', async () => {
    const r = await run('diff', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--cells', p('cells.csv'), '--json', '--centres', '5', '--radii', '10km:3,20km');
    expect(JSON.parse(r.out).fanout.workload.radii.map((x: { weight: number }) => x.weight)).toEqual([0.75, 0.25]);
    expect(await run('diff', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--qps', 'lots')).toMatchObject({ code: 2, err: expect.stringMatching(/--qps "lots" is invalid/) });
    expect(await run('diff', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--radii', '10km:0')).toMatchObject({ code: 2, err: expect.stringMatching(/--radii weight "0"/) });
    expect(await run('diff', '--boundaries', p('current.json'))).toMatchObject({ code: 2, err: expect.stringMatching(/--candidate FILE is required/) });
    expect(await run('diff', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--match', 'best')).toMatchObject({ code: 2, err: expect.stringMatching(/--match "best" is invalid/) });
  });
});

describe('geoshard plan', () => {
  it('prints the ordered steps as JSON and writes the file in force at each published step', async () => {
    const out = join(dir, 'steps');
    const r = await run('plan', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--cells', p('cells.csv'), '--json', '--out-dir', out);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.kind).toBe('in-place');
    expect(j.steps.map((s: { action: string }) => s.action)).toEqual(['dual-write', 'copy', 'verify', 'switch', 'stop-dual-write', 'delete', 'publish']);
    expect(j.steps.map((s: { epoch: number }) => s.epoch)).toEqual([1, 2, 3, 4, 5, 5, 6]);
    const files = readdirSync(out).sort();
    expect(files).toEqual(['step-001-epoch-1.json', 'step-002-epoch-2.json', 'step-003-epoch-3.json', 'step-004-epoch-4.json', 'step-005-epoch-5.json', 'step-007-epoch-6.json']);
    const phases = files.slice(0, 5).map((f) => parseBoundaryFile(readFileSync(join(out, f), 'utf8')).migration!.moves[0].phase);
    expect(phases).toEqual(['dual-write', 'copying', 'verified', 'switched', 'done']);
    // The last file is the candidate itself.
    expect(readFileSync(join(out, files[5]), 'utf8')).toBe(readFileSync(p('candidate.json'), 'utf8'));
  });

  it('says what writers and searches do at every step', async () => {
    const r = await run('plan', '--boundaries', p('current.json'), '--candidate', p('candidate.json'), '--cells', p('cells.csv'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/1 range move between shards of the index: 2 restaurants and 20 dishes \(20\.00% of documents\)/);
    expect(r.out).toMatch(/4\. \[epoch 4, published\] Switch reads of range/);
    expect(r.out.match(/searches: /g)).toHaveLength(7);
    const re = await run('plan', '--boundaries', p('current.json'), '--candidate', p('four.json'), '--cells', p('cells.csv'));
    expect(re.out).toMatch(/A new index: numberOfShards changes \(3 → 4\)/);
    expect(re.out).toMatch(/Create the new index with 4 primary shards/);
  });
});

describe('geoshard split and merge', () => {
  it('splits a shard at its weighted median into a valid file and states the reindex', async () => {
    const r = await run('split', '--boundaries', p('current.json'), s1, '--cells', p('cells.csv'), '--out', p('split.json'), '--created-at', '2026-12-01T00:00:00.000Z');
    expect(r.code).toBe(0);
    // s1 holds 22 | 33: the only cut is at 160, and the heavier right half keeps the name.
    expect(r.out).toMatch(new RegExp(`split "${s1}" at ${tok(160)}: \\w+ \\(22 documents\\) \\| ${s1} \\(33 documents\\)`));
    expect(r.out).toMatch(/! numberOfShards changes 3 → 4: .*reindexing every document/);
    const f = parseBoundaryFile(readFileSync(p('split.json'), 'utf8'));
    expect(f).toMatchObject({ numberOfShards: 4, version: 2, parent: current.hash, boundaries: [tok(100), tok(160), tok(200)] });
    for (const s of f.shards) expect(shardForRouting(s.name, 4)).toBe(s.shard);
  });

  it('merges two neighbours, and refuses shards that are not neighbours', async () => {
    const r = await run('merge', '--boundaries', p('current.json'), s1, s2, '--cells', p('cells.csv'), '--json');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ name: s1, removed: tok(200), restaurants: 9, dishes: 90, shardsBefore: 3, shardsAfter: 2 });
    expect(validateBoundaryFile(j.file)).toEqual([]);
    const bad = await run('merge', '--boundaries', p('current.json'), s0, s2, '--cells', p('cells.csv'));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/are not neighbours/);
  });
});
