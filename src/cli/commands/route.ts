import { parse, degrees } from '../args.ts';
import { loadRouter, DEFAULT_BOUNDARIES } from '../io.ts';
import type { Command } from '../command.ts';

export const route: Command = {
  name: 'route',
  summary: "print a point's level-10 token and the shard that holds it",
  usage: `geoshard route --lat D --lng D [--boundaries FILE] [--json]

Prints the level-10 S2 token of the point and its shard's name and OpenSearch shard
number: the routing a restaurant at that point (and every one of its dishes) is written with.

  --lat D            latitude in degrees, [-90, 90]
  --lng D            longitude in degrees, [-180, 180]
  --boundaries FILE  boundary file (default data/boundaries.json)
  --json             print { "token", "name", "shard" }`,
  run(argv, io) {
    const { values } = parse(argv, { lat: { type: 'string' }, lng: { type: 'string' }, boundaries: { type: 'string' }, json: { type: 'boolean' } }, 'route');
    const lat = degrees(values.lat, 'lat', 'route');
    const lng = degrees(values.lng, 'lng', 'route');
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const r = router.route(lat, lng);
    io.out(values.json ? JSON.stringify({ token: r.token, name: r.name, shard: r.shard }) + '\n' : `${r.token}\t${r.name}\t${r.shard}\n`);
    return 0;
  },
};
