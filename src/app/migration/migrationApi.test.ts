import { describe, it, expect } from 'vitest';
import { cutoverText, readMigration } from '../api/migration';
import { startMigrationPoller } from './migrationPoller';
import type { MigrationWatch } from './migrationSlice';

const H = (c: string) => c.repeat(64);
const move = { start: '8640c5', end: '8643e7', from: 'bravo', to: 'charlie', fromShard: 3, toShard: 4, step: 'copying', copied: { restaurants: 4, dishes: 30 }, verified: null };
const status = (migration: unknown) => ({ connection: { status: 'up', url: 'http://x' }, drift: { status: 'ok', indexHash: H('a'), fileHash: H('a') }, index: { name: 'dishes' }, migration });
const moving = { epoch: 2, base: H('a'), target: H('b'), targetVersion: 2, startedAt: '2026-12-01T00:00:00.000Z', updatedAt: '2026-12-01T00:00:01.000Z', moves: [move] };

describe('reading the migration from /api/status', () => {
  it('reads a migration in progress with its ranges, steps and counts', () => {
    expect(readMigration(200, status(moving))).toEqual({ kind: 'moving', migration: moving, indexHash: H('a') });
  });

  it('reads a settled index (migration null, or absent from an older server)', () => {
    expect(readMigration(200, status(null))).toEqual({ kind: 'settled', indexHash: H('a'), index: 'dishes' });
    const { migration: _m, ...old } = status(null);
    expect(readMigration(200, old).kind).toBe('settled');
  });

  it('says why when the state is unreadable, the node is down, or the shape is unknown', () => {
    expect(readMigration(200, status({ error: 'migration.epoch: -1 is invalid' }))).toEqual({ kind: 'unknown', message: "The index's migration state cannot be read: migration.epoch: -1 is invalid" });
    expect(readMigration(200, { connection: { status: 'down', message: 'refused' } })).toEqual({ kind: 'unknown', message: 'OpenSearch is down: refused' });
    expect(readMigration(200, status({ ...moving, moves: [{ ...move, step: 'copied' }] })).kind).toBe('unknown');
    expect(readMigration(404, undefined).kind).toBe('unknown');
  });
});

describe('the cutover of a range', () => {
  it('is read with the range and said: blocked now, or each try’s window', () => {
    const blocked = { ...moving, moves: [{ ...move, cutover: { blockedAt: '2026-12-01T21:30:05.120Z', windowsMs: [412] } }] };
    expect(readMigration(200, status(blocked))).toEqual({ kind: 'moving', migration: blocked, indexHash: H('a') });
    expect(cutoverText(blocked.moves[0].cutover)).toBe('writes blocked since 21:30:05 UTC for the exact check (writers retry)');
    expect(cutoverText({ blockedAt: null, windowsMs: [412, 1250] })).toBe('cutover: writes blocked 412 ms, 1,250 ms');
    expect(cutoverText(null)).toBeNull();
    expect(cutoverText(undefined)).toBeNull();
    expect(readMigration(200, status({ ...moving, moves: [{ ...move, cutover: { blockedAt: 5 } }] })).kind).toBe('unknown');
  });
});

describe('the migration poller', () => {
  it('asks again after each answer and stops when told', async () => {
    const answers = [status(moving), status(null)];
    let asked = 0;
    const fetchImpl = (async () => new Response(JSON.stringify(answers[Math.min(asked++, 1)]), { headers: { 'content-type': 'application/json' } })) as typeof fetch;
    const seen: MigrationWatch[] = [];
    let resolveSecond!: () => void;
    const second = new Promise<void>((r) => (resolveSecond = r));
    const stop = startMigrationPoller({ everyMs: 1, fetchImpl, write: (w) => (seen.push(w), seen.length === 3 && resolveSecond()) });
    await second;
    stop();
    expect(seen.map((w) => w.phase)).toEqual(['loading', 'ready', 'ready']);
    expect(seen.map((w) => w.reading?.kind)).toEqual([undefined, 'moving', 'settled']);
  });
});
