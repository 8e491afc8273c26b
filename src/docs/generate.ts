/**
 * `npm run docs:reference`: writes every reference made from the code (see reference.ts), then
 * every fact mark of the docs from its source (see facts.ts: the bundled files, the API reports,
 * bench/results.json). Exits 1 naming a fact mark whose key has no source.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { generatedReferences } from './reference.ts';
import { factValues, fillFacts } from './facts.ts';
import { docFiles, rel, ROOT } from './markdown.ts';

for (const [path, text] of Object.entries(await generatedReferences())) {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
  console.log(`wrote ${path}`);
}

const values = factValues();
let unknown = 0;
for (const file of docFiles()) {
  const before = readFileSync(file, 'utf8');
  const { text, unknown: keys } = fillFacts(before, values);
  for (const k of keys) console.error(`${rel(file)}: fact "${k}" has no source (bench/results.json or src/docs/facts.ts bundledFacts)`);
  unknown += keys.length;
  if (text !== before) {
    writeFileSync(file, text);
    console.log(`wrote the facts of ${rel(file)}`);
  }
}
if (unknown > 0) process.exit(1);
