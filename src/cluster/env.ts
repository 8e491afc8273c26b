/**
 * Every environment variable geoshard reads, in one list: the code reads them through env(),
 * which only accepts a listed name, and docs/reference/environment.md is generated from the
 * whole list, the tests' variables included (src/docs/environment.ts, by npm run docs:reference;
 * src/docs/reference.test.ts fails when they differ). The
 * scripts (scripts/*.mjs, plain Node) cannot import TypeScript; their variables are listed
 * here with `scope: 'scripts'`, and the same test fails when a script reads one that is not.
 */

/** Who reads a variable: the CLI, the live API server (npm start, src/server/main.ts), or the scripts. */
export type EnvScope = 'cli' | 'server' | 'opensearch' | 'scripts' | 'tests';

export interface EnvVar {
  name: string;
  /** The value used when the variable is unset or empty, in words ('' when there is none). */
  default: string;
  /** What it does, the unit and what is valid. */
  description: string;
  scope: EnvScope[];
}

/** The list. Order: connection first, then the server, the CLI, the scripts. */
export const ENV_VARS = [
  { name: 'OPENSEARCH_URL', default: 'http://127.0.0.1:$OPENSEARCH_PORT', description: 'Base URL of the OpenSearch cluster (http or https). user:password@ in the URL becomes basic authentication and is removed from the URL. For scripts/cluster.mjs: an external cluster, which start/status only check.', scope: ['opensearch', 'cli', 'server', 'scripts'] },
  { name: 'OPENSEARCH_PORT', default: '9200', description: 'HTTP port of the local node when OPENSEARCH_URL is unset; scripts/cluster.mjs starts node 1 on it.', scope: ['opensearch', 'scripts'] },
  { name: 'OPENSEARCH_USERNAME', default: '', description: 'Basic-authentication user (overrides the URL\'s).', scope: ['opensearch'] },
  { name: 'OPENSEARCH_PASSWORD', default: '', description: 'Basic-authentication password (overrides the URL\'s). Never printed.', scope: ['opensearch'] },
  { name: 'OPENSEARCH_API_KEY', default: '', description: '"ApiKey" authentication, instead of basic. Never printed.', scope: ['opensearch'] },
  { name: 'OPENSEARCH_CA', default: "the system's CAs", description: 'A PEM file of the CA(s) that signed the cluster\'s certificate (a private CA, or a self-signed node certificate). The host name is always verified. See docs/security.md.', scope: ['opensearch'] },
  { name: 'OPENSEARCH_INSECURE', default: 'off', description: '"1" turns certificate verification off (warned on every run; never the default): for a throwaway cluster only.', scope: ['opensearch'] },
  { name: 'OPENSEARCH_TIMEOUT_MS', default: '10000', description: 'Deadline of one request to OpenSearch, in milliseconds (a positive number).', scope: ['opensearch'] },
  { name: 'API_HOST', default: '127.0.0.1', description: 'Interface the standalone live API (src/server/main.ts) listens on; the API is not exposed beyond this machine unless asked.', scope: ['server'] },
  { name: 'API_PORT', default: '8787', description: 'Port of the standalone live API, an integer in [0, 65535] (0 picks a free port).', scope: ['server'] },
  { name: 'PORT', default: '5173', description: 'Port `npm start`, `npm run dev`, `geoshard explore` and `geoshard review` serve the explorer on.', scope: ['server', 'scripts'] },
  { name: 'GEOSHARD_BOUNDARIES', default: 'data/boundaries.json', description: 'Boundary file the live API routes with.', scope: ['server'] },
  { name: 'GEOSHARD_CONFIG', default: 'the bundled sample\'s config', description: 'Index config (geoshard.config.json) the live API searches: index, location, name, join and facet fields.', scope: ['server'] },
  { name: 'GEOSHARD_SEARCH_TIMEOUT_MS', default: '5000', description: 'Deadline of one live search, in milliseconds (a positive number).', scope: ['server'] },
  { name: 'GEOSHARD_WRITES', default: 'off', description: '"1" enables the live API\'s write endpoints (PUT/DELETE of restaurants and dishes).', scope: ['server'] },
  { name: 'GEOSHARD_TRAFFIC_INTERVAL_S', default: '60', description: 'Seconds between two samples of the index\'s per-shard counters by the traffic recorder (the explorer\'s server, `geoshard traffic --record`): an integer in [1, 3600]; 0 turns the server\'s recorder off. See docs/traffic.md.', scope: ['server', 'cli'] },
  { name: 'GEOSHARD_TRAFFIC_INDEX', default: 'geoshard-traffic', description: 'Index holding the traffic history (one document per index and sampling interval), written by the recorders and read by `geoshard traffic`, `workload --from-cluster`, `hotspots --from-cluster` and /api/traffic.', scope: ['server', 'cli'] },
  { name: 'GEOSHARD_TRAFFIC_RETENTION_DAYS', default: '7', description: 'Days the traffic history keeps a sample; the recorders delete older ones once an hour. An integer in [1, 365].', scope: ['server', 'cli'] },
  { name: 'GEOSHARD_DEBUG', default: 'off', description: '"1" prints the stack of an internal error (the CLI prints one line otherwise).', scope: ['cli'] },
  { name: 'GEOSHARD_LOCK_INDEX', default: 'geoshard-migration-locks', description: 'Index holding the locks migrate and reindex take, so that two never run on one index at once.', scope: ['cli'] },
  { name: 'GEOSHARD_SPILL_DIR', default: 'the system temporary directory', description: 'Folder where reindex and migrate spill the id sets they compare (SpillJoin).', scope: ['cli'] },
  { name: 'GEOSHARD_MIGRATE_PAUSE', default: '', description: 'Testing only: <point>[:<range>] (copying, verified, deleting) makes migrate stop and wait there, so a test can kill it.', scope: ['cli', 'tests'] },
  { name: 'GEOSHARD_REINDEX_PAUSE', default: '', description: 'Testing only: the same for reindex.', scope: ['cli', 'tests'] },
  { name: 'OPENSEARCH_VERSION', default: '2.19.6', description: 'Version scripts/cluster.mjs fetches and starts (3.8.0 works too).', scope: ['scripts'] },
  { name: 'OPENSEARCH_HEAP', default: '1g for 1 node, 512m each for more', description: 'JVM heap per node for scripts/cluster.mjs, e.g. 1g or 512m.', scope: ['scripts'] },
  { name: 'OPENSEARCH_START_TIMEOUT', default: '180 + 60 per extra node', description: 'Seconds scripts/cluster.mjs waits for the cluster to become yellow.', scope: ['scripts'] },
  { name: 'GEOSHARD_PLUGIN', default: 'off', description: '"1": scripts/cluster.mjs start installs the geoshard OpenSearch plugin built for the node\'s version (plugin/, docs/plugin.md), building it when missing; the same as `start --plugin`. A start without it removes the plugin.', scope: ['scripts'] },
  { name: 'GEOSHARD_JAVA21_HOME', default: 'the newest JDK 21+ under /usr/lib/jvm', description: 'A JDK 21 or later for scripts/plugin.mjs to build the plugin for OpenSearch 3.x (2.19 builds on any JDK 17+).', scope: ['scripts'] },
  { name: 'OPENSEARCH_JAVA_HOME', default: 'found automatically', description: 'Java home scripts/cluster.mjs runs the nodes with (2.x: Java 11 to 23, 17 or 21 preferred; 3.x: Java 21 or later).', scope: ['scripts'] },
  { name: 'JAVA_HOME', default: '', description: 'Considered by scripts/cluster.mjs when looking for a Java home.', scope: ['scripts'] },
  { name: 'GEOSHARD_CACHE', default: '~/.cache/geoshard (as root /var/cache/geoshard)', description: 'Cache root of scripts/cluster.mjs: distributions, node data and logs.', scope: ['scripts'] },
  { name: 'BASE_URL', default: 'http://127.0.0.1:5173', description: 'The explorer scripts/screenshots.mjs photographs (a running `npm start`).', scope: ['scripts'] },
  { name: 'OUT_DIR', default: 'docs/screenshots', description: 'Folder scripts/screenshots.mjs writes to.', scope: ['scripts'] },
  { name: 'SHOTS', default: 'the README\'s screenshots', description: 'JSON list of the shots scripts/screenshots.mjs takes.', scope: ['scripts'] },
  { name: 'GEOSHARD_SKIP_OS3', default: 'off', description: '"1" makes `npm test` (scripts/test.sh) skip its OpenSearch 3.8 step.', scope: ['scripts', 'tests'] },
  { name: 'OPENSEARCH_SECURITY', default: 'off', description: '"1": scripts/cluster.mjs starts the secured 2.19.4 node (the security plugin, TLS, one user per documented role), as `start --secure` does.', scope: ['scripts'] },
  { name: 'OPENSEARCH_ADMIN_PASSWORD', default: 'generated', description: 'The secured test node\'s admin password (scripts/cluster.mjs --secure); generated and kept in its 0600 state file when unset. Never printed.', scope: ['scripts'] },
  { name: 'GEOSHARD_SECURE_STATE', default: 'set by scripts/cluster.mjs env --secure', description: 'Testing only: the secured test node\'s state file (URL, CA, the users of each documented role; mode 0600).', scope: ['tests'] },
  { name: 'GEOSHARD_SECURE_INDEXES', default: '*', description: 'Testing only: the index patterns the secured test node\'s roles cover (comma-separated).', scope: ['scripts', 'tests'] },
  { name: 'CHROMIUM_PATH', default: '/usr/bin/chromium', description: 'Chromium the browser tests and scripts/screenshots.mjs drive.', scope: ['scripts', 'tests'] },
] as const satisfies readonly EnvVar[];

export type EnvName = (typeof ENV_VARS)[number]['name'];

/**
 * env reads a listed variable from `source` (default the process's environment). Returns
 * undefined when it is unset; the caller applies the listed default and validates the value.
 */
export function env(name: EnvName, source: NodeJS.ProcessEnv = process.env): string | undefined {
  return source[name];
}
