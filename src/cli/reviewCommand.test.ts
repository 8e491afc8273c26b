import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from './main.ts';
import { runReview, reviewLink, type ReviewDeps } from './commands/review.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, cellFromOrdinal, cellToken } from '../core/index.ts';

let dir: string;
const p = (name: string) => join(dir, name);
const tok = (o: number) => cellToken(cellFromOrdinal(o));

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-review-cmd-'));
  writeFileSync(p('next.json'), formatBoundaryFile(fileWithCuts([150, 200])));
  writeFileSync(p('now.json'), formatBoundaryFile(fileWithCuts([100, 200])));
  // Boundaries out of order, not re-hashed: the core must refuse it before anything starts.
  writeFileSync(p('bad.json'), formatBoundaryFile({ ...fileWithCuts([150, 200]), boundaries: [tok(200), tok(150)] }));
});

/** A stand-in world: records what the command started and opened, and stops at once. */
function fakeWorld() {
  const seen: { started: Parameters<ReviewDeps['start']>[0][]; opened: string[]; closed: number } = { started: [], opened: [], closed: 0 };
  const deps: ReviewDeps = {
    start: async (opts) => {
      seen.started.push(opts);
      return { url: 'http://127.0.0.1:5999/', close: () => void seen.closed++ };
    },
    untilStopped: async () => {},
    open: (url) => void seen.opened.push(url),
  };
  return { seen, deps };
}

async function run(argv: string[], deps: ReviewDeps) {
  let out = '';
  let err = '';
  const code = await runReview(argv, { out: (t) => (out += t), err: (t) => (err += t) }, deps);
  return { code, out, err };
}

describe('geoshard review', () => {
  it('serves the candidate and the current file and prints the link that opens the Review tab on them', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run([p('next.json'), p('now.json'), '--port', '5999', '--open'], deps);
    expect(r.code).toBe(0);
    expect(seen.started).toHaveLength(1);
    expect(seen.started[0].port).toBe(5999);
    expect(seen.started[0].files).toEqual({ '/review/next.json': resolve(p('next.json')), '/review/current/now.json': resolve(p('now.json')) });
    const link = 'http://127.0.0.1:5999/?candidate=/review/next.json&boundaries=/review/current/now.json&tab=review';
    expect(r.out).toContain(link);
    expect(seen.opened).toEqual([link]);
    expect(seen.closed).toBe(1);
  });

  it('reviews against the bundled file when no CURRENT is given, and opens no browser unless asked', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run([p('next.json')], deps);
    expect(r.code).toBe(0);
    expect(seen.started[0].files).toEqual({ '/review/next.json': resolve(p('next.json')) });
    expect(r.out).toContain('http://127.0.0.1:5999/?candidate=/review/next.json&tab=review');
    expect(seen.opened).toEqual([]);
  });

  it('refuses an invalid candidate with the core\'s problems before starting anything', async () => {
    let started = false;
    const deps: ReviewDeps = { ...fakeWorld().deps, start: async () => ((started = true), { url: '', close: () => {} }) };
    let err = '';
    // Through main, as the person runs it: the core's BoundaryFileError becomes exit 1 naming the file.
    const code = await main(['review', '--candidate', p('bad.json')], { out: () => {}, err: (t) => (err += t) });
    expect(code).toBe(1);
    expect(err).toMatch(/^geoshard review: .*bad\.json/);
    expect(err).toMatch(/boundaries\[1\]/);
    await expect(runReview([p('bad.json')], { out: () => {}, err: () => {} }, deps)).rejects.toThrow();
    expect(started).toBe(false);
  });

  it('names a missing file and a bad port, with exit codes 1 and 2', async () => {
    let err = '';
    const io = { out: () => {}, err: (t: string) => (err += t) };
    expect(await main(['review', '--candidate', p('missing.json')], io)).toBe(1);
    expect(err).toMatch(/cannot read boundary file .*missing\.json/);
    err = '';
    expect(await main(['review', '--candidate', p('next.json'), '--port', '70000'], io)).toBe(2);
    expect(err).toContain('--port 70000 is not a port: expected an integer from 1 to 65535');
    err = '';
    expect(await main(['review'], io)).toBe(2);
    expect(err).toContain('--candidate FILE is required');
  });

  it('serves a file whose name is not a plain file name under a fixed name', () => {
    expect(Object.keys(reviewLink('/tmp/my proposal.json', null).files)).toEqual(['/review/candidate.json']);
  });
});
