import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { main } from './main.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, cellOrdinal, cellToken, cellFromOrdinal, parseToken } from '../core/index.ts';
import { parseWorkload } from '../core/workload.ts';
import { junitXml, xmlEscape } from './junit.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** Parses XML with Python's standard library (an independent parser) and returns its tree as JSON. */
function parseXml(path: string): { tag: string; attrib: Record<string, string>; text: string | null; children: unknown[] } {
  const py = `import json,sys,xml.etree.ElementTree as ET
def walk(e): return {"tag": e.tag, "attrib": e.attrib, "text": e.text, "children": [walk(c) for c in e]}
print(json.dumps(walk(ET.parse(sys.argv[1]).getroot())))`;
  return JSON.parse(execFileSync('python3', ['-c', py, path], { encoding: 'utf8' }));
}

let dir: string;
let current: string;
let candidate: string;
let cells: string;
let workload: string;
const sf = cellOrdinal(parseToken('808581'));
const tok = (o: number) => cellToken(cellFromOrdinal(o));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-workload-'));
  current = join(dir, 'current.json');
  candidate = join(dir, 'candidate.json');
  cells = join(dir, 'cells.csv');
  workload = join(dir, 'w.csv');
  // Five shards each; the candidate moves the boundary at sf + 2 to sf + 50.
  writeFileSync(current, formatBoundaryFile(fileWithCuts([sf - 3, sf + 2, 3_000_000, 5_000_000])));
  writeFileSync(candidate, formatBoundaryFile(fileWithCuts([sf - 3, sf + 50, 3_000_000, 5_000_000])));
  // 100 documents: sf − 2 (10), sf (10), sf + 5 (20), sf + 60 (60). The move takes sf + 5: 20% of documents.
  // Candidate documents per shard: 0, 40, 60, 0, 0 → heaviest / mean = 60 / 20 = 3.
  writeFileSync(cells, `token,restaurants,dishes\n${tok(sf - 2)},1,9\n${tok(sf)},2,8\n${tok(sf + 5)},4,16\n${tok(sf + 60)},10,50\n`);
  writeFileSync(workload, '# two searches in San Francisco\nlat,lng,radius,timestamp,weight\n37.7749,-122.4194,15mi,2026-11-24T12:00:00Z,1\n37.7749,-122.4194,2mi,2026-11-24T12:01:00Z,2\n');
});

describe('geoshard check', () => {
  const base = () => [current, candidate, '--cells', cells, '--workload', workload];

  it('exits 0 when every threshold holds, at its limit included', async () => {
    const r = await run('check', ...base(), '--max-moved', '20%', '--max-mean-shards', '15', '--max-heaviest', '3');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('check passed');
  });

  it('exits 1 naming each threshold broken with its value', async () => {
    const moved = await run('check', ...base(), '--max-moved', '19%');
    expect(moved.code).toBe(1);
    expect(moved.err).toContain('FAIL  --max-moved 0.19: moved documents 20.00% > 19.00%');
    const both = await run('check', ...base(), '--max-mean-shards', '0.5', '--max-heaviest', '2.9', '--max-moved', '0.5');
    expect(both.code).toBe(1);
    expect(both.err).toContain('heaviest shard / mean (documents) 3.0000 > 2.9000');
    expect(both.err).toMatch(/mean shards asked \d\.\d{4} > 0\.5000/);
    expect(both.err).toContain('check failed: --max-mean-shards, --max-heaviest');
  });

  it('rejects a threshold that is not a number, naming it (exit 2)', async () => {
    const r = await run('check', ...base(), '--max-heaviest', 'lots');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--max-heaviest "lots" is invalid');
  });

  it('writes JUnit XML with one testcase per threshold and per golden search, failures carrying their messages', async () => {
    const csv = join(dir, 'team.csv');
    writeFileSync(csv, 'name,state,lat,lng\nSan Francisco,CA,37.7749,-122.4194\n"Washington, D.C.",DC,38.8951,-77.0364\n');
    const g = await run('golden', '--cities', csv, '--radii', '15,50km', '--boundaries', current);
    expect(g.code, g.err).toBe(0);
    const goldenPath = join(dir, 'team.golden.json');
    const golden = JSON.parse(readFileSync(goldenPath, 'utf8'));
    expect(golden.cities.map((c: { name: string; radius: string }) => `${c.name}@${c.radius}`)).toEqual(['San Francisco@15mi', 'San Francisco@50km', 'Washington, D.C.@15mi', 'Washington, D.C.@50km']);
    expect(golden.cities[0]).toMatchObject({ state: 'CA', cells: 40, shardCount: '3 / 5' });

    // This candidate also moves the first boundary from sf − 3 down to 1,000: SF's cells below sf − 3 change shard, so its routing changes.
    const candidate2 = join(dir, 'candidate2.json');
    writeFileSync(candidate2, formatBoundaryFile(fileWithCuts([1_000, sf + 50, 3_000_000, 5_000_000])));
    const xml = join(dir, 'out.xml');
    const r = await run('check', '--boundaries', current, '--candidate', candidate2, '--cells', cells, '--workload', workload, '--max-moved', '5%', '--max-heaviest', '3', '--cities', goldenPath, '--junit', xml);
    expect(r.code).toBe(1);
    const tree = parseXml(xml);
    expect(tree.tag).toBe('testsuites');
    const suite = tree.children[0] as typeof tree;
    expect(suite.tag).toBe('testsuite');
    const cases = suite.children as (typeof tree)[];
    expect(cases.map((c) => [c.attrib.classname, c.attrib.name])).toEqual([
      ['geoshard.check.thresholds', 'max-moved 0.05'],
      ['geoshard.check.thresholds', 'max-heaviest 3'],
      ['geoshard.check.golden', 'San Francisco (CA) @ 15mi'],
      ['geoshard.check.golden', 'San Francisco (CA) @ 50km'],
      ['geoshard.check.golden', 'Washington, D.C. (DC) @ 15mi'],
      ['geoshard.check.golden', 'Washington, D.C. (DC) @ 50km'],
    ]);
    const failed = cases.filter((c) => c.children.length > 0);
    expect(failed[0].attrib.name).toBe('max-moved 0.05');
    expect((failed[0].children[0] as typeof tree).attrib.message).toBe('moved documents 20.00% > 5.00%');
    // Washington (ordinal about 4.5 million) is far from every cut.
    expect(failed.map((c) => c.attrib.name)).toContain('San Francisco (CA) @ 15mi');
    expect(failed.map((c) => c.attrib.name)).not.toContain('Washington, D.C. (DC) @ 15mi');
    expect(Number(suite.attrib.failures)).toBe(failed.length);
    expect(Number(suite.attrib.tests)).toBe(6);
    expect(r.err).toMatch(/San Francisco \(CA\) @ 15mi: .*routing/);
  });

  it('passes the golden searches of the file it was written from', async () => {
    const csv = join(dir, 'same.csv');
    writeFileSync(csv, 'name,lat,lng\nSF,37.7749,-122.4194\n');
    expect((await run('golden', '--cities', csv, '--boundaries', current)).code).toBe(0);
    const r = await run('check', '--boundaries', current, '--candidate', current, '--cells', cells, '--cities', join(dir, 'same.golden.json'), '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ pass: true, golden: { searches: 3, changed: [] } });
  });
});

describe('junitXml', () => {
  it('escapes markup and quotes so an independent parser reads the text back', () => {
    const path = join(dir, 'escape.xml');
    const nasty = `a <b> & "c" 'd' ]]> \u0001end`;
    writeFileSync(path, junitXml('suite & co', [{ name: nasty, classname: 'x', failure: nasty }]));
    const tree = parseXml(path);
    const tc = (tree.children[0] as typeof tree).children[0] as typeof tree;
    expect(tc.attrib.name).toBe(`a <b> & "c" 'd' ]]> end`);
    expect((tc.children[0] as typeof tree).text).toBe(`a <b> & "c" 'd' ]]> end`);
    expect(xmlEscape('<&>')).toBe('&lt;&amp;&gt;');
  });
});

describe('geoshard golden --cities CSV', () => {
  it('names the line, field and value of a bad row', async () => {
    const csv = join(dir, 'bad.csv');
    writeFileSync(csv, 'name,state,lat,lng\nNowhere,XX,95,0\n');
    const r = await run('golden', '--cities', csv);
    expect(r.code).toBe(1);
    expect(r.err).toContain('bad.csv line 2: lat "95" is invalid: expected degrees in [-90, 90]');
    expect(existsSync(join(dir, 'bad.golden.json'))).toBe(false);
  });
});

describe('geoshard workload, hotspots, cache, balance and diff with a workload', () => {
  it('rejects a bad workload file naming its line, exit 1', async () => {
    const bad = join(dir, 'bad-w.csv');
    writeFileSync(bad, '37.7,-122.4,15\n');
    const r = await run('hotspots', '--workload', bad, '--boundaries', current, '--cells', cells);
    expect(r.code).toBe(1);
    expect(r.err).toContain('line 1: radius "15" is invalid');
  });

  it('simulates the cache: the second search at the same centre hits every cell it shares with the first', async () => {
    const r = await run('cache', '--workload', workload, '--size', '1000', '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    // 15 mi: 40 cells, all misses; 2 mi: its cells all lie in the 15 mi covering: all hits, weight 2.
    const small = j.runs[0].lookups - 40;
    expect(j.runs[0].hits).toBe(small);
    expect(j.runs[0].lookups).toBe(40 + small);
    expect(j.runs[0].fullHitShare).toBeCloseTo(2 / 3, 12);
  });

  it('balances on load with --weight requests and records the weight in the file', async () => {
    const out = join(dir, 'by-load.json');
    const r = await run('balance', '--cells', cells, '--workload', workload, '--weight', 'requests', '--min', '2', '--max', '2', '--out', out, '--created-at', '2026-11-30T00:00:00.000Z');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).balance.weight).toMatch(/^load \(searches × documents scanned\)/);
    const noWorkload = await run('balance', '--cells', cells, '--weight', 'mix:0.5', '--min', '2', '--max', '2');
    expect(noWorkload.code).toBe(2);
    expect(noWorkload.err).toContain('--weight mix:0.5 needs --workload FILE');
  });

  it('adds load per shard, the hottest shards and fan-out over the workload to diff', async () => {
    const r = await run('diff', '--boundaries', current, '--candidate', candidate, '--cells', cells, '--workload', workload, '--centres', '10', '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out).workload;
    expect(j.searches).toBe(2);
    expect(j.weight).toBe(3);
    expect(j.shards.reduce((a: number, s: { before: { share: number } }) => a + s.before.share, 0)).toBeCloseTo(1, 9);
    expect(j.hottest.after).toHaveLength(3);
    expect(j.fanout.current.meanShards).toBeGreaterThanOrEqual(1);
  });

  it('writes a generated workload the parser reads back, the same for the same seed', async () => {
    const a = join(dir, 'gen-a.csv');
    const b = join(dir, 'gen-b.csv');
    expect((await run('workload', '--searches', '50', '--seed', '4', '--out', a)).code).toBe(0);
    expect((await run('workload', '--searches', '50', '--seed', '4', '--out', b)).code).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
    expect(parseWorkload(readFileSync(a, 'utf8'))).toHaveLength(50);
    expect((await run('workload', '--searches', '0', '--out', a)).code).toBe(2);
  });
});
