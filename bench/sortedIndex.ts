/**
 * `npx tsx bench/sortedIndex.ts [--from geoshard-bench-large] [--to geoshard-bench-sorted]`:
 * makes a copy of a bench index whose segments are sorted by the Hilbert
 * position (`index.sort.field: cell`, the level-10 token: at level 10 every
 * token has 6 hex digits, so its string order is the cell id's order, the S2
 * Hilbert curve's), for bench/settings.bench.ts to compare against the
 * unsorted one.
 *
 * Dishes do not carry `cell` (it is a restaurant field), so the copy adds it:
 * `_reindex` with a script that sets each dish's `cell` to its restaurant's,
 * from a map restaurant id → cell built from the sample (src/server/sample.ts),
 * the same restaurants the source index was seeded with. Routing is kept
 * (`_reindex` copies `_routing`), so every document stays on its shard. The
 * copy's `_meta` is the source's sample under the copy's name (the bundled
 * boundaries under that name, as bench:live's large index). Deletes the copy
 * first if it exists.
 */
import { Router } from '../src/core/index.ts';
import { OpenSearchClient, configFromEnv } from '../src/server/opensearch.ts';
import { getIndexMeta } from '../src/server/seeder.ts';
import { indexBody, indexMeta } from '../src/server/indexSpec.ts';
import { sampleOf } from '../src/server/sample.ts';
import { derivedFile } from '../src/server/testkit.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const FROM = opt('from', 'geoshard-bench-large');
const TO = opt('to', 'geoshard-bench-sorted');

async function main() {
  const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 120_000 });
  const meta = await getIndexMeta(client, FROM);
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
  const { body: task } = await client.request<{ task: string }>('POST', '/_reindex', {
    query: { wait_for_completion: 'false', slices: '2', refresh: 'false' },
    body: {
      source: { index: FROM, size: 2000 },
      dest: { index: TO, pipeline: '_none' },
      script: { lang: 'painless', source: "if (ctx._source.cell == null && ctx._source.restaurant_id != null) { ctx._source.cell = params.cells[ctx._source.restaurant_id]; }", params: { cells } },
    },
  });
  for (;;) {
    await new Promise((r) => setTimeout(r, 5000));
    const t = await client.get<{ completed: boolean; task: { status: { created: number; total: number } }; response?: { failures?: unknown[] } }>(`/_tasks/${task.task}`);
    console.log(`  ${t.task.status.created.toLocaleString('en-US')} / ${t.task.status.total.toLocaleString('en-US')} (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
    if (t.completed) {
      if (t.response?.failures?.length) throw new Error(`reindex failures: ${JSON.stringify(t.response.failures.slice(0, 3))}`);
      break;
    }
  }
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
