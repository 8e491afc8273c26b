/** `npm run docs:reference`: writes every reference made from the code (see reference.ts). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedReferences } from './reference.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
for (const [path, text] of Object.entries(await generatedReferences())) {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
  console.log(`wrote ${path}`);
}
