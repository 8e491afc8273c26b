/**
 * The explorer's house rule (issue 21): the rendering kit, src/app/globe/ (materials, uniforms,
 * shaders, view, frame, line geometry, the canvas and its controls), imports no feature. It may
 * import itself, the host (shell/: the store, the URL codec, the palette, formats; ui/) and
 * src/core; a feature's parts of the scene, its overlays, controls and legends reach the globe
 * through the one list of features (src/app/featureViews.ts, handed over by shell/App.tsx), its
 * slice, drivers and link parameters through src/app/features.ts. scripts/app-imports.mjs prints
 * the whole house. Also here: no feature imports another (outside tests), each query key has one
 * owner, one way to the store (handed in: shell/store.ts) and one way drivers start (shell/drivers.ts).
 */
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { house, crossings, specifiers, KIT, HOST } from '../../scripts/app-imports.mjs';
import { FEATURES } from './features';
import { FEATURE_VIEWS } from './featureViews';
import { HOST_KEYS } from './shell/url';

/**
 * Features talk through the host, never by importing each other (issue 31; 40 such imports
 * before issue 21, 25 after it, 0 now): the live API's client is the host's (api/), shared
 * geometry is the kit's (globe/coveringWorker.ts) or the host's (shell/searchAsked.ts, shell/format.ts,
 * shell/ShardBar.tsx), the workload's protocol is the host's (shell/workload.ts), and what one
 * feature shows inside another's view is registered in featureViews.ts as a slot part
 * (shell/Slot.tsx). A test may import the feature it needs to drive the one it tests.
 */
const isTest = (file: string) => /\.test\.tsx?$|\.testing\.ts$/.test(file);

/** Every source file of src/app (relative to it), tests excluded. */
function sources(dir = APP, rel = ''): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return sources(p, `${rel}${n}/`);
    return /\.tsx?$/.test(n) && !/\.test\.tsx?$|\.testing\.ts$/.test(n) ? [`${rel}${n}`] : [];
  });
}

const APP = resolve(import.meta.dirname);

describe('the rendering kit', () => {
  it('is src/app/globe', () => {
    expect(KIT).toBe('globe');
    expect(statSync(join(APP, KIT)).isDirectory()).toBe(true);
  });

  it('imports no feature folder', () => {
    const offenders = crossings(house(), 'kit', 'feature').map((i) => `${i.file} imports ${i.spec}`);
    expect(offenders).toEqual([]);
  });

  it('every other folder of src/app is the host or a feature of the list', () => {
    // Listed by hand here, not read from the measuring script: a new folder must be placed.
    const folders = readdirSync(APP).filter((n) => statSync(join(APP, n)).isDirectory());
    const features = FEATURES.map((f) => f.id);
    expect(folders.filter((n) => n !== KIT && !HOST.includes(n)).sort()).toEqual([...features].sort());
    const kinds = house();
    for (const f of features) expect(kinds[f].kind).toBe('feature');
    for (const v of FEATURE_VIEWS) expect(features).toContain(v.id);
  });
});

describe('the measuring script', () => {
  it('finds static, type-only, re-exported, dynamic and side-effect imports, and none in a line comment or a string', () => {
    const text = [
      "import { a } from '../search/a';",
      "import type { B } from '../requests/b';",
      "export { c } from './c';",
      "const d = () => import('../live/d');",
      "import '../ui/e.css';",
      "import {\n  f,\n  g,\n} from '../nodes/f';",
      'const s = "not an import from \'../x\'";',
      "// import { h } from '../write/h';",
    ].join('\n');
    expect(specifiers(text)).toEqual(['../search/a', '../requests/b', './c', '../live/d', '../ui/e.css', '../nodes/f']);
  });
});

describe('the feature list', () => {
  it('loads before the store (it holds no component), and the store is built from its slices', async () => {
    // This file imports features.ts before anything imports shell/store.ts.
    const { createAppStore } = await import('./shell/store');
    const st = createAppStore().getState();
    // A field of the host's data slice, and one of each feature's that has a slice.
    expect(Object.keys(st)).toEqual(expect.arrayContaining(['data', 'searchRadius', 'candidate', 'writeMode', 'nodesStatus']));
  });
});

describe('the scene layers', () => {
  it('draw in the order the canvas drew them before the list: requests, the search veil, fan-out, covering, circle, picker, pasted cell, then the review overlay and Write mode', async () => {
    const { SCENE_LAYERS } = await import('./shell/panels');
    const { RequestsLayer } = await import('./requests/RequestsLayer');
    const { SearchVeil } = await import('./search/SearchVeil');
    const { FanoutMap } = await import('./fanout/FanoutMap');
    const { CoveringCells } = await import('./search/CoveringCells');
    const { SearchCircle } = await import('./search/SearchCircle');
    const { SearchPicker } = await import('./search/SearchPicker');
    const { PastedCell } = await import('./search/PastedCell');
    expect(SCENE_LAYERS.slice(0, 7)).toEqual([RequestsLayer, SearchVeil, FanoutMap, CoveringCells, SearchCircle, SearchPicker, PastedCell]);
    // The last two load on demand (the review's diff while a candidate is open, Write mode's pins while it is on).
    expect(SCENE_LAYERS.slice(7).map((c) => c.name)).toEqual(['WhileCandidate', 'WhileWriteMode']);
  });
});

describe('between features', () => {
  it('no feature imports another outside tests', () => {
    const found = crossings(house(), 'feature', 'feature')
      .filter((i) => !isTest(i.file))
      .map((i) => `${i.file} imports ${i.spec}`);
    expect(found).toEqual([]);
  });
});

describe('the link', () => {
  it('each query key is read and written by one owner: the host or one feature of the list', () => {
    const owners = new Map<string, string>(HOST_KEYS.map((k) => [k, 'host']));
    for (const f of FEATURES) {
      for (const part of [f.url?.search, f.url?.panel]) {
        for (const k of part?.keys ?? []) {
          expect(owners.get(k), `${f.id} declares ${k}`).toBeUndefined();
          owners.set(k, f.id);
        }
        for (const k of part?.still ?? []) expect(part?.keys, `${f.id}'s still key ${k}`).toContain(k);
      }
    }
    // The host's codec (shell/url.ts) names no feature's key; features' keys are theirs alone.
    expect([...owners.keys()].length).toBe(new Set(owners.keys()).size);
  });
});

describe('one way to the store and one way to start drivers', () => {
  it('only the entry (main.tsx) makes the store, and hands it to React and to boot (tests make their own)', () => {
    const makers = sources().filter((f) => f !== 'main.tsx' && f !== 'shell/store.ts' && /\bcreateAppStore\s*\(/.test(readFileSync(join(APP, f), 'utf8')));
    expect(makers).toEqual([]);
    const main = readFileSync(join(APP, 'main.tsx'), 'utf8');
    expect(main).toMatch(/const store = createAppStore\(\)/);
    expect(main).toMatch(/<StoreContext\.Provider value=\{store\}>/);
    expect(main).toMatch(/boot\(store\)/);
  });

  it('the store is handed in: React code takes it from the context (useApp, useAppStore), other code as an argument; no module holds one', () => {
    // No module-level store (the singleton `appStore` is gone) and no import of one.
    const singleton = /import\s*\{[^}]*\bappStore\b[^}]*\}\s*from|export\s+const\s+appStore\b/;
    expect(sources().filter((f) => singleton.test(readFileSync(join(APP, f), 'utf8')))).toEqual([]);
    // A component that acts on the store takes it from the context: every `appStore` it names is the hook's.
    const offenders = sources()
      .filter((f) => f.endsWith('.tsx'))
      .filter((f) => {
        const text = readFileSync(join(APP, f), 'utf8');
        return /\bappStore\b/.test(text) && !/const appStore = useAppStore\(\)|appStore: AppStore/.test(text);
      });
    expect(offenders).toEqual([]);
  });

  it('no component starts a driver: every driver of the list is started by boot (shell/drivers.ts)', () => {
    const drivers = FEATURES.flatMap((f) => (f.drivers ?? []).map((d) => d.name));
    expect(drivers).toEqual(expect.arrayContaining(['startSearch', 'startFanout', 'startLiveRunner', 'startReview', 'startRequests', 'startNodesView', 'startMigrationWatch', 'startRegionPaint', 'startMovingPaint']));
    expect(new Set(drivers).size).toBe(drivers.length);
    const starters = [...drivers, 'startNodesPoller', 'startMigrationPoller'];
    const offenders = sources()
      .filter((f) => f.endsWith('.tsx'))
      .flatMap((f) => {
        const text = readFileSync(join(APP, f), 'utf8');
        return starters.filter((name) => new RegExp(`\\b${name}\\s*\\(`).test(text)).map((name) => `${f} calls ${name}`);
      });
    expect(offenders).toEqual([]);
  });
});
