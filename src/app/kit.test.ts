/**
 * The explorer's house rule (issue 21): the rendering kit, src/app/globe/ (materials, uniforms,
 * shaders, view, frame, line geometry, the canvas and its controls), imports no feature. It may
 * import itself, the host (shell/: the store, the URL codec, the palette, formats; ui/) and
 * src/core; a feature's parts of the scene, its overlays, controls and legends reach the globe
 * through the one list of features (src/app/featureViews.ts, handed over by shell/App.tsx), its
 * slice and driver through src/app/features.ts. scripts/app-imports.mjs prints the whole house.
 */
import { describe, it, expect } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { house, crossings, specifiers, KIT } from '../../scripts/app-imports.mjs';
import { FEATURES } from './features';
import { FEATURE_VIEWS } from './featureViews';

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
    expect(folders.filter((n) => n !== KIT && n !== 'shell' && n !== 'ui').sort()).toEqual([...features].sort());
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
