/**
 * The live API's wire contract, in one place for both sides: what each endpoint takes (query
 * strings, JSON bodies, with the one parser each, throwing ParamError naming the field at fault)
 * and the JSON shape of each answer. One file per endpoint family under src/server/wire/:
 *   search.ts     GET /api/search: the query string (written by the explorer, parsed by the
 *                 server), the answer's sides, hits, facets, asked shards, drift and placement
 *   status.ts     GET /api/status: connection, nodes and shard copies, boundary file, index,
 *                 migration in progress, routing pipeline, limits
 *   measure.ts    POST /api/measure: the body and the measurement's answer
 *   writes.ts     PUT and DELETE under /api/restaurants/: the bodies, their checks, the answer
 *   documents.ts  GET /api/documents/:id: where a document is against where the file puts it
 *   traffic.ts    GET /api/traffic: recorded traffic per range for a window, and its hot ranges
 *   common.ts     ParamError, plain decimals, the filters' vocabulary, statuses, redactUrl
 *
 * This file is the one import point: the server (src/server, src/cli) and the browser bundle
 * (src/app: the live client, the write, migration and nodes views) import from here. No Node
 * imports, no DOM.
 */
export { ParamError, decimalString, FILTER_KINDS, VOCABULARY, redactUrl, type FilterKind, type ApiStatus } from './wire/common.ts';
export * from './wire/search.ts';
export * from './wire/status.ts';
export * from './wire/measure.ts';
export * from './wire/writes.ts';
export * from './wire/documents.ts';
export * from './wire/traffic.ts';
