import { parse, int } from '../args.ts';
import { loadIndexConfig, writeFileAtomic, resolveTarget, CliError } from '../io.ts';
import type { Command } from '../command.ts';
import type { CellCounter } from '../../core/index.ts';
import { weightColumn } from '../../opensearch/indexConfig.ts';
import { readPointsFile } from '../pointsFile.ts';
import { engineOf, engineUsage } from '../engineFlag.ts';
import { clusterClient } from '../clusterClient.ts';

const n = (x: number) => Math.round(x).toLocaleString('en-US');

export const cells: Command = {
  name: 'cells',
  summary: 'count documents per level-10 cell, from a live index or a points file, into a cells file',
  usage: `geoshard cells --from-index INDEX [--field FIELD] [--config FILE] [--engine E] --out cells.csv
geoshard cells --from-file points.csv|points.ndjson [--lat COL --lng COL | --field KEY] --out cells.csv

Counts every document once, in the level-10 S2 cell of its location, and writes a cells file
(header token,docs, plus a weight column when the config weighs documents by a field), one row
per non-empty cell in key order, atomically. "geoshard balance --cells FILE" reads it.

  --from-index I  read the live index (or alias) I: one point-in-time per shard, every document's
                  location from its doc values (from _source when the doc value's centimetre
                  straddles a cell edge); progress (documents/s) on stderr
  --from-file F   read a points file offline: CSV with a header (the point in the columns --lat and
                  --lng, default lat and lng/lon; or a "lat,lon" column --field), or NDJSON (one
                  object a line; the point in the key --field as a geo_point
                  {lat, lon}, "lat,lon" or [lon, lat]; default the config's location; or numeric
                  keys --lat and --lng)
  --field F       the geo_point field (index), or column/key (file): overrides the config's location
  --lat C --lng C the latitude and longitude columns or keys (--from-file)
  --config FILE   geoshard.config.json: index, location, weight, name, join, facets (default: the
                  bundled sample's: index dishes, location, join restaurant→dish with
                  restaurant_location); --index / --field override its keys, and --field without
                  --config describes a flat index (no join)
  --index I       the config's index (--from-index I sets it too)
  --out FILE      the cells file to write (required)
  --page-size P   documents per page (default 10000; 100..10000)
  --concurrency C shards read at once (client), latitude bands computed at once (cluster)
                  (default 2; 1..64)
${engineUsage(18)}
  --json          print a summary as JSON

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      {
        'from-index': { type: 'string' },
        'from-file': { type: 'string' },
        field: { type: 'string' },
        lat: { type: 'string' },
        lng: { type: 'string' },
        config: { type: 'string' },
        index: { type: 'string' },
        out: { type: 'string' },
        'page-size': { type: 'string' },
        concurrency: { type: 'string' },
        engine: { type: 'string' },
        json: { type: 'boolean' },
      },
      'cells',
    );
    const fromIndex = values['from-index'] as string | undefined;
    const fromFile = values['from-file'] as string | undefined;
    if ((fromIndex === undefined) === (fromFile === undefined)) throw new CliError('geoshard cells: give --from-index INDEX or --from-file FILE (one of them)\nRun "geoshard cells --help" for usage.', 2);
    const out = values.out as string | undefined;
    if (out === undefined) throw new CliError('geoshard cells: --out is required (the cells file to write)\nRun "geoshard cells --help" for usage.', 2);
    if (fromIndex !== undefined && values.index !== undefined && values.index !== fromIndex) throw new CliError(`geoshard cells: --from-index "${fromIndex}" and --index "${values.index}" name two indices: give one`, 2);
    if (fromIndex !== undefined && (values.lat !== undefined || values.lng !== undefined)) throw new CliError('geoshard cells: --lat and --lng are for --from-file; an index is read by its geo_point field (--field)', 2);
    const pageSize = int(values['page-size'], 'page-size', 'cells', 10_000, 100, 10_000);
    const concurrency = int(values.concurrency, 'concurrency', 'cells', 2, 1, 64);
    const engineChoice = engineOf(values.engine, 'cells');
    if (fromFile !== undefined && values.engine !== undefined) throw new CliError('geoshard cells: --engine is for --from-index; a points file is read here', 2);
    const config = loadIndexConfig(values.config as string | undefined, { index: fromIndex ?? (values.index as string | undefined), field: values.field as string | undefined });
    resolveTarget(out, 'cells file');
    const weight = config.weight === 'docs' ? undefined : weightColumn(config);
    const t0 = performance.now();
    let counter: CellCounter;
    let note = '';
    let summary: Record<string, unknown> = {};
    if (fromFile !== undefined) {
      counter = await readPointsFile(fromFile, { lat: values.lat as string | undefined, lng: values.lng as string | undefined, field: values.field as string | undefined, defaultField: config.location, weight });
      summary = { from: { file: fromFile } };
    } else {
      const { OpenSearchError } = await import('../../cluster/clientErrors.ts');
      const { readIndexCells, CellsReadError } = await import('../../ops/cells/cellsReader.ts');
      const { readIndexCellsInCluster } = await import('../../ops/cells/cellsEngine.ts');
      const { chooseEngine } = await import('../../cluster/enginePath.ts');
      const client = await clusterClient('cells');
      let last = -Infinity;
      try {
        const engine = await chooseEngine(client, 'cells', engineChoice);
        const progress = (p: { done: number; total: number; slicesDone: number; slices: number; elapsedMs: number; docsPerSecond: number }) => {
          if (p.elapsedMs - last < 2000 && p.slicesDone < p.slices) return;
          last = p.elapsedMs;
          const pct = p.total > 0 ? Math.min(100, Math.round((100 * p.done) / p.total)) : 100;
          io.err(`geoshard cells: ${n(p.done)}/${n(p.total)} documents (${pct}%), ${p.slicesDone}/${p.slices} shards, ${n(p.docsPerSecond)} documents/s (${engine.engine})\n`);
        };
        const r = engine.engine === 'cluster' ? await readIndexCellsInCluster(client, config, { pageSize, concurrency, progress }) : await readIndexCells(client, config, { pageSize, concurrency, progress });
        counter = r.counter;
        if (r.unlocated > 0) {
          note += `warning: ${n(r.unlocated)} documents have no valid point in "${config.location}"${config.join ? ` or "${config.join.childLocation}"` : ''} (the first: _id ${JSON.stringify(r.firstUnlocated)}): they are not in the cells file\n`;
        }
        if (r.unweighed > 0) note += `warning: ${n(r.unweighed)} documents have no number >= 0 in "${weight}": they weigh 0\n`;
        summary = { from: { index: config.index, indices: r.indices, shards: r.slices }, engine: engine.engine, engineWhy: engine.why, unlocated: r.unlocated, unweighed: r.unweighed, exactReads: r.exactReads, docsPerSecond: Math.round((counter.total * 1000) / r.elapsedMs) };
      } catch (e) {
        if (e instanceof CellsReadError) throw new CliError(`geoshard cells: ${e.message}`);
        if (e instanceof OpenSearchError) throw new CliError(`geoshard cells: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
        throw e;
      } finally {
        await client.close().catch(() => undefined);
      }
    }
    const cellCount = counter.size;
    if (cellCount === 0) throw new CliError(`geoshard cells: ${fromFile ?? config.index} has no located documents: not writing ${out} (a cells file has at least one cell)`);
    writeFileAtomic(out, counter.csv(), 'cells file');
    const seconds = (performance.now() - t0) / 1000;
    if (note) io.err(note);
    if (values.json) {
      io.out(JSON.stringify({ out, documents: counter.total, cells: cellCount, columns: ['token', 'docs', ...counter.weightColumns], seconds: Number(seconds.toFixed(3)), ...summary }, null, 2) + '\n');
      return 0;
    }
    io.out(`wrote ${out}: ${n(counter.total)} documents in ${n(cellCount)} level-10 cells (columns token,docs${weight ? `,${weight}` : ''}) in ${seconds.toFixed(1)} s (${n(counter.total / Math.max(seconds, 1e-9))} documents/s)\n`);
    return 0;
  },
};
