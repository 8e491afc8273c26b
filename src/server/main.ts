/**
 * The live API as a standalone server (for tests, the benchmark and use
 * without the explorer):
 *
 *   npx tsx src/server/main.ts
 *
 * Environment: API_PORT (default 8787; 0 picks a free port), API_HOST
 * (default 127.0.0.1: the API is not exposed beyond this machine unless asked),
 * GEOSHARD_BOUNDARIES, GEOSHARD_CONFIG (the index config, geoshard.config.json: the index's
 * location, name, join and facet fields; default the bundled sample's), GEOSHARD_SEARCH_TIMEOUT_MS,
 * and the OPENSEARCH_* variables
 * of src/cluster/client.ts. Prints "listening on http://HOST:PORT" when ready.
 */
import { createServer } from 'node:http';
import { LiveApi } from './api.ts';
import { env } from '../cluster/env.ts';

const apiPort = env('API_PORT');
const port = apiPort === undefined || apiPort === '' ? 8787 : Number(apiPort);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`API_PORT ${JSON.stringify(apiPort)} is invalid: expected an integer port in [0, 65535]`);
  process.exit(2);
}
const host = env('API_HOST') || '127.0.0.1';
const api = new LiveApi();
const first = await api.start();
if ('error' in first) console.warn(`[geoshard] ${first.error}`);
else if (first.status !== 'ok') console.warn(`[geoshard] ${first.message}`);
api.traffic.startRecorder();
const server = createServer((req, res) => void api.handle(req, res));
server.listen(port, host, () => {
  const addr = server.address();
  const p = typeof addr === 'object' && addr ? addr.port : port;
  console.log(`[geoshard] live API listening on http://${host}:${p} (OpenSearch ${api.client.url}${api.config ? `, index ${api.config.index}` : ''})`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
