import { cellToken, cellFromOrdinal } from '../../core/index.ts';
import { parse, degrees, radius as radiusOption } from '../args.ts';
import { loadRouter, DEFAULT_BOUNDARIES } from '../io.ts';
import type { Command } from '../command.ts';

export const cover: Command = {
  name: 'cover',
  summary: 'cover a search circle with level-10 cells and list the shards to ask',
  usage: `geoshard cover --lat D --lng D --radius R [--boundaries FILE] [--json]

Covers the circle with level-10 S2 cells (exactly S2's RegionCoverer covering at min = max
level 10, no cell limit, found by the core's linear walk) and prints the cell count, the cells
per shard and the routing string.

  --lat D            centre latitude in degrees, [-90, 90]
  --lng D            centre longitude in degrees, [-180, 180]
  --radius R         radius with unit: 15mi, 25km (a bare number is miles); at most 1000 km
  --boundaries FILE  boundary file (default data/boundaries.json)
  --json             print { "cells": [tokens in key order], "shards": [{ "name", "shard", "cells" }], "routing" }`,
  run(argv, io) {
    const { values } = parse(argv, { lat: { type: 'string' }, lng: { type: 'string' }, radius: { type: 'string' }, boundaries: { type: 'string' }, json: { type: 'boolean' } }, 'cover');
    const lat = degrees(values.lat, 'lat', 'cover');
    const lng = degrees(values.lng, 'lng', 'cover');
    const radius = radiusOption(values.radius, 'radius', 'cover');
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const r = router.cover(lat, lng, radius.km);
    if (values.json) {
      const shards = r.shards.map((s) => ({ name: s.name, shard: s.shard, cells: s.cells }));
      io.out(JSON.stringify({ cells: Array.from(r.ordinals, (o) => cellToken(cellFromOrdinal(o))), shards, routing: r.routing }) + '\n');
      return 0;
    }
    io.out(`${r.ordinals.length} cells, ${r.shards.length} / ${router.numberOfShards} shards\n`);
    for (const s of r.shards) io.out(`  ${s.name.padEnd(12)} shard ${String(s.shard).padStart(3)}  ${String(s.cells).padStart(6)} cells\n`);
    io.out(`routing=${r.routing}\n`);
    return 0;
  },
};
