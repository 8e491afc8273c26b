/**
 * The plugin's golden fixtures (plugin/src/test/resources/fixtures, and the Painless range script
 * under plugin/src/main/resources) are what the TypeScript core gives now: regenerate them with
 * `npx tsx scripts/plugin-fixtures.ts` after a change to the core's coverings, cells or routing.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFixtures } from './pluginFixtures.ts';

const root = new URL('..', import.meta.url).pathname;

describe('plugin fixtures', () => {
  const files = buildFixtures(root);
  for (const [path, text] of Object.entries(files)) {
    it(`${path} is up to date with the core (npx tsx scripts/plugin-fixtures.ts)`, () => {
      let onDisk = '';
      try {
        onDisk = readFileSync(join(root, path), 'utf8');
      } catch {
        throw new Error(`${path} is missing: run npx tsx scripts/plugin-fixtures.ts`);
      }
      // Compared whole: a difference means the core changed and the Java tests would check old answers.
      expect(onDisk === text, `${path} differs from what the core gives now: run npx tsx scripts/plugin-fixtures.ts`).toBe(true);
    });
  }
}, 120_000);
