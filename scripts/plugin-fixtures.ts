/**
 * Writes the plugin's golden fixtures (scripts/pluginFixtures.ts says what each file holds):
 *   npx tsx scripts/plugin-fixtures.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildFixtures } from './pluginFixtures.ts';

const root = new URL('..', import.meta.url).pathname;
const t = Date.now();
for (const [path, text] of Object.entries(buildFixtures(root))) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  console.log(`${path}: ${(text.length / 1024).toFixed(0)} KiB`);
}
console.log(`plugin fixtures written in ${((Date.now() - t) / 1000).toFixed(1)} s`);
