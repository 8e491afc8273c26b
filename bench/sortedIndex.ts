/**
 * `npx tsx bench/sortedIndex.ts [--from geoshard-bench-large] [--to geoshard-bench-sorted]`:
 * makes a copy of a bench index whose segments are sorted by the Hilbert
 * position (`index.sort.field: cell`, the level-10 token: at level 10 every
 * token has 6 hex digits, so its string order is the cell id's order, the S2
 * Hilbert curve's), for bench/settings.bench.ts to compare against the
 * unsorted one.
 *
 * Dishes do not carry `cell` (it is a restaurant field), so the copy adds it:
 * each dish gets its restaurant's, from a map restaurant id → cell built from
 * the sample (src/data/sample.ts), the same restaurants the source index was
 * seeded with. The documents are scrolled out of the source and bulk-written
 * with their `_routing` (the test distribution has no reindex module), so
 * every document stays on its shard. The
 * copy's `_meta` is the source's sample under the copy's name (the bundled
 * boundaries under that name, as bench:live's large index). Deletes the copy
 * first if it exists.
 */
import { Router } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { indexMeta } from '../src/opensearch/indexSpec.ts';
import { sampleOf } from '../src/data/sample.ts';
import { derivedFile } from '../src/testing/testkit.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { indexBody } from '../src/opensearch/sampleIndex.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const FROM = opt('from', 'geoshard-bench-large');
const TO = opt('to', 'geoshard-bench-sorted');

interface Page {
  _scroll_id: string;
  hits: { hits: { _id: string; _routing: string; _source: Record<string, unknown> }[] };
}

async function main() {
  const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 120_000 });
  const meta = await fetchIndexMeta(client, FROM);
  const s = meta?.sample;
  if (!s?.complete) throw new Error(`index "${FROM}" holds no complete sample`);
  const file = derivedFile(TO);
  new Router(file); // the file must be valid
  const cells: Record<string, string> = {};
  for (const r of sampleOf(s.restaurants)) cells[r.id] = r.cell;
  console.log(`${Object.keys(cells).length.toLocaleString('en-US')} restaurants' cells from the sample`);
  await client.request('DELETE', `/${TO}`, { okStatuses: [404] });
  const body = indexBody(file, s) as { settings: { index: Record<string, unknown> } };
  body.settings.index = { ...body.settings.index, sort: { field: 'cell', order: 'asc' }, refresh_interval: '-1', 'translog.durability': 'async' };
  await client.admin('PUT', `/${TO}`, { body });
  const t0 = performance.now();
  // The test distribution has no reindex module: scroll the source and bulk-write the copy here.
  let { body: page } = await client.request<Page>('POST', `/${FROM}/_search`, { query: { scroll: '5m' }, body: { size: 5000, sort: ['_doc'] } });
  let copied = 0;
  const inflight: Promise<unknown>[] = [];
  while (page.hits.hits.length > 0) {
    const lines: string[] = [];
    for (const h of page.hits.hits) {
      const src = h._source;
      if (src.cell === undefined && typeof src.restaurant_id === 'string') src.cell = cells[src.restaurant_id];
      lines.push(JSON.stringify({ index: { _index: TO, _id: h._id, routing: h._routing } }), JSON.stringify(src));
    }
    const write = client.request<{ errors: boolean }>('POST', '/_bulk', { body: lines.join('\n') + '\n', query: { pipeline: '_none' }, timeoutMs: 120_000 }).then(({ body }) => {
      if (body.errors) throw new Error('bulk errors in the copy');
    });
    inflight.push(write);
    if (inflight.length >= 2) await inflight.shift();
    copied += page.hits.hits.length;
    if (copied % 250_000 < 5000) console.log(`  ${copied.toLocaleString('en-US')} copied (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    ({ body: page } = await client.request<Page>('POST', '/_search/scroll', { body: { scroll: '5m', scroll_id: page._scroll_id } }));
  }
  await Promise.all(inflight);
  await client.request('DELETE', '/_search/scroll', { body: { scroll_id: page._scroll_id }, okStatuses: [404] });
  await client.admin('PUT', `/${TO}/_settings`, { body: { index: { refresh_interval: null, 'translog.durability': null } } });
  await client.request('POST', `/${TO}/_refresh`, { timeoutMs: 120_000 });
  await client.admin('PUT', `/${TO}/_mapping`, { body: { _meta: indexMeta(file, s) } });
  const count = (await client.get<{ count: number }>(`/${TO}/_count`)).count;
  const src = (await client.get<{ count: number }>(`/${FROM}/_count`)).count;
  if (count !== src) throw new Error(`the copy counts ${count} documents, the source ${src}`);
  const noCell = (await client.request<{ count: number }>('POST', `/${TO}/_count`, { body: { query: { bool: { must_not: { exists: { field: 'cell' } } } } } })).body.count;
  console.log(`"${TO}": ${count.toLocaleString('en-US')} documents sorted by cell (${noCell} without one) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  await client.close();
}

main().catch((e) => {
  console.error(`sortedIndex: ${(e as Error).message}`);
  process.exit(1);
});
