import { describe, it, expect, beforeEach } from 'vitest';
import { createAppStore } from './store';

/** A store of the test's own, made afresh before each test. */
let appStore = createAppStore();
const resetAppStore = () => void (appStore = createAppStore());
import { readKept, restoreKept, hasUnsavedEdits, KEEP_KEY, type KeptCandidate } from './keptWork';
import { fileWithCuts } from '../../core/testutil';
import { formatBoundaryFile } from '../../core/index';

const storageOf = (value: string | null) => ({ getItem: (k: string) => (k === KEEP_KEY ? value : null) });
const base = formatBoundaryFile(fileWithCuts([100, 200]));
const edited = formatBoundaryFile(fileWithCuts([150, 200]));

describe('keeping the review in this browser', () => {
  beforeEach(() => resetAppStore());

  it('reads a kept candidate, and nothing from an empty, garbled or foreign entry', () => {
    const k: KeptCandidate = { url: null, source: 'next.json', base, file: edited, moves: 2, edit: null };
    expect(readKept(storageOf(JSON.stringify(k)))).toEqual(k);
    expect(readKept(storageOf(null))).toBeNull();
    expect(readKept(storageOf('{not json'))).toBeNull();
    expect(readKept(storageOf('{"source":1}'))).toBeNull();
    expect(readKept(undefined)).toBeNull();
  });

  it('brings back the candidate with its edits on top of its base, and says so', () => {
    const why = restoreKept(appStore, { url: null, source: 'next.json', base, file: edited, moves: 2, edit: null });
    expect(why).toBeNull();
    const c = appStore.getState().candidate!;
    expect(c.source).toBe('next.json');
    expect(c.base.hash).toBe(fileWithCuts([100, 200]).hash);
    expect(c.file.hash).toBe(fileWithCuts([150, 200]).hash);
    expect(c.moves).toBe(2);
    expect(hasUnsavedEdits(appStore.getState())).toBe(true);
    expect(appStore.getState().reviewNotice).toBe('restored the unsaved edits kept in this browser');
  });

  it('refuses a kept file the core no longer accepts, and changes nothing', () => {
    const broken = edited.replace(/"version": \d+/, '"version": -1');
    expect(restoreKept(appStore, { url: null, source: 'x.json', base, file: broken, moves: 1, edit: null })).toMatch(/^the edits kept in this browser are no longer valid: /);
    expect(appStore.getState().candidate).toBeNull();
  });

  it('has no unsaved edits without a candidate or with one as loaded', () => {
    expect(hasUnsavedEdits(appStore.getState())).toBe(false);
    restoreKept(appStore, { url: null, source: 'next.json', base, file: base, moves: 0, edit: null });
    expect(hasUnsavedEdits(appStore.getState())).toBe(false);
  });
});
