#!/usr/bin/env node
// `npm start`: serves the explorer on http://127.0.0.1:5173 (PORT overrides) with the bundled
// data, plus the live-mode API on /api when an OpenSearch node answers (OPENSEARCH_URL, or a
// local node started with `npm run cluster:start`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(join(root, 'node_modules', 'vite'))) {
  console.error('geoshard: dependencies are missing: run `npm ci` first.');
  process.exit(1);
}
if (!existsSync(join(root, 'data', 'boundaries.json'))) {
  console.error('geoshard: data/boundaries.json is missing: run `npm run data:generate` to rebuild the bundled data.');
  process.exit(1);
}
// vite.config.ts imports the core's extensionless TypeScript; Vite's native config loader notice is noise here.
process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING ??= 'true';
const { createServer } = await import('vite');
const server = await createServer({ root, configFile: join(root, 'vite.config.ts'), clearScreen: false });
await server.listen();
const port = server.config.server.port;
console.log(`geoshard explorer: http://127.0.0.1:${port}/`);
const stop = async () => {
  await server.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
