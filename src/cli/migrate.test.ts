import { describe, it, expect, afterEach } from 'vitest';
import { main } from './main.ts';
import { DEFAULT_BOUNDARIES } from './io.ts';

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

const saved = process.env.GEOSHARD_MIGRATE_PAUSE;
afterEach(() => {
  if (saved === undefined) delete process.env.GEOSHARD_MIGRATE_PAUSE;
  else process.env.GEOSHARD_MIGRATE_PAUSE = saved;
});

describe('geoshard migrate (input checked before any request)', () => {
  it('requires --to and says how to get usage', async () => {
    const r = await run('migrate');
    expect(r.code).toBe(2);
    expect(r.err).toContain('geoshard migrate: --candidate is required');
  });

  it('refuses a batch size out of range, naming the option, the value and the range', async () => {
    const r = await run('migrate', '--candidate', DEFAULT_BOUNDARIES, '--batch', '0');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--batch "0" is invalid: expected an integer in [1, 10000]');
  });

  it('refuses an unknown pause point in GEOSHARD_MIGRATE_PAUSE, listing the points', async () => {
    process.env.GEOSHARD_MIGRATE_PAUSE = 'switching:1';
    const r = await run('migrate', '--candidate', DEFAULT_BOUNDARIES);
    expect(r.code).toBe(2);
    expect(r.err).toContain('GEOSHARD_MIGRATE_PAUSE "switching:1" is invalid: expected <point>[:<range>] with point one of copying, cutover, verified, deleting');
  });

  it('documents the steps, the state in _meta and the lock in --help', async () => {
    const r = await run('migrate', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/dual writes on, copy every document of the range \(a join's\s+parents, then its children\) to the new owner/);
    expect(r.out).toContain('--dry-run');
    expect(r.out).toContain('geoshard-migration-locks');
  });
});
