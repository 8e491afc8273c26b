/**
 * Memory flat in the index's size: the reindex verify's tally, the presence
 * check of the reindex catch-up and of migrate's cutover, migrate's range
 * diff and the audit's bookkeeping, each over a synthetic stream of 20,000,000 ids with about 100 planted
 * differences of every kind (src/testing/flatMemoryChild.ts; no OpenSearch). Each runs in a
 * child process whose V8 heap is capped at 256 MB: a design that keeps a
 * record per document (a Map of 20 M ids is over 1.5 GB) dies there instead
 * of passing. The planted differences are computed by the driver from how it
 * built the two streams, not by the code under test.
 */
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const N = 20_000_000;
/** The heap a check may use at most (after a full collection), MB; the cap is 256. */
const HEAP_BOUND_MB = 160;

function run(check: string): Promise<Record<string, unknown>> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=256', '--import', 'tsx', resolve(import.meta.dirname, '..', '..', 'testing', 'flatMemoryChild.ts'), String(N), check], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('exit', (code) => (code === 0 ? res(JSON.parse(out)) : rej(new Error(`flatMemoryChild.ts ${check} exited ${code}:\n${err.slice(-2000)}`))));
  });
}

type Check = { want: Record<string, string[]>; got: Record<string, string[]>; seconds: number };

describe('bookkeeping over 20 M ids in bounded memory', () => {
  // Two at a time (the machine has two cores); each takes about a minute on a quiet one.
  const results = (async () => {
    const [verify, presence] = await Promise.all([run('verify'), run('presence')]);
    const [rangeDiff, audit] = await Promise.all([run('rangeDiff'), run('audit')]);
    return { verify, presence, rangeDiff, audit };
  })();
  for (const check of ['verify', 'presence', 'rangeDiff', 'audit'] as const) {
    it(`${check}: every planted difference is reported, heap under ${HEAP_BOUND_MB} MB`, async () => {
      const r = (await results)[check];
      const c = r[check] as Check;
      for (const k of Object.keys(c.want)) expect(c.want[k].length, k).toBeGreaterThan(0);
      if (check === 'audit') expect(Number(c.want.found[0])).toBe(N / 1000);
      expect(c.got).toEqual(c.want);
      expect(r.peakHeapMB as number).toBeLessThan(HEAP_BOUND_MB);
      console.log(`${check}: ${N.toLocaleString('en-US')} ids in ${c.seconds} s, peak heap ${r.peakHeapMB} MB, peak RSS ${r.peakRssMB} MB`);
    }, 900_000);
  }
});
