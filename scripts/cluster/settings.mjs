// What the cluster script works on: the version, ports, folders and modules, from the environment and the command line. Part of scripts/cluster.mjs (its header says what it does).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Secure mode (OPENSEARCH_SECURITY=1 or `start --secure`): the official security plugin, TLS on
 * HTTP and transport with a CA and node certificate made here, users and roles from the one
 * table of roles (src/cluster/roles.json). Defaults to 2.19.4, the last 2.19 the plugin is served for.
 */
const SECURE = process.env.OPENSEARCH_SECURITY === '1' || process.argv.slice(3).includes('--secure');
const VERSION = process.env.OPENSEARCH_VERSION || (SECURE ? '2.19.4' : '2.19.6');
const MAJOR = Number(VERSION.split('.')[0]);
const PORT = Number(process.env.OPENSEARCH_PORT || 9200);
const EXTERNAL_URL = (process.env.OPENSEARCH_URL || '').replace(/\/+$/, '');
const SCHEME = SECURE ? 'https' : 'http';
const LOCAL_URL = `${SCHEME}://127.0.0.1:${PORT}`;
const URL_ = EXTERNAL_URL || LOCAL_URL;
const STOP_TIMEOUT_S = 30;
const RUN_USER = 'opensearch';
const CLUSTER_NAME = 'geoshard';
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;
/** Ports a transport address must never take: the HTTP range other clusters' nodes use. */
const HTTP_RANGE = [9200, 9299];
const MAX_NODES = 9;

const CACHE_ROOT = process.env.GEOSHARD_CACHE
  ? path.resolve(process.env.GEOSHARD_CACHE)
  : IS_ROOT
    ? '/var/cache/geoshard'
    : path.join(os.homedir(), '.cache', 'geoshard');
// A secured cluster has its own folder (its home holds the security plugin, its data the security
// index); it shares the downloads of the plain cluster of the same version.
const DIR = path.join(CACHE_ROOT, `opensearch-${VERSION}${SECURE ? '-secure' : ''}`);
const DOWNLOAD_DIR = path.join(CACHE_ROOT, `opensearch-${VERSION}`, 'download');
const HOME = path.join(DIR, 'home');
const STATE_FILE = path.join(DIR, 'cluster.json');
const PORT_FILE = path.join(DIR, 'opensearch.port'); // HTTP port of the running node 1
const INSTALLED_MARKER = path.join(HOME, '.geoshard-installed');

/** The folders and files of node k (node 1 keeps the layout of the single-node days). */
function nodePaths(k) {
  const base = k === 1 ? DIR : path.join(DIR, `node-${k}`);
  const logs = path.join(base, 'logs');
  return {
    base,
    data: path.join(base, 'data'),
    logs,
    tmp: path.join(base, 'tmp'),
    pid: path.join(base, 'opensearch.pid'),
    conf: path.join(DIR, `node-${k}`, 'config'),
    mainLog: path.join(logs, `${CLUSTER_NAME}.log`),
    consoleLog: path.join(logs, 'console.log'),
  };
}
const nodeName = (k) => `${CLUSTER_NAME}-node-${k}`;

const DIST_ARTIFACT = `org.opensearch.distribution.integ-test-zip:opensearch:${VERSION}:zip`;
const DIST_ZIP = path.join(DOWNLOAD_DIR, `opensearch-${VERSION}.zip`);
// Modules geoshard needs that a 2.x integ-test-zip lacks (3.x zips bundle them: a module already
// in home/modules is never added). Each module is its jar plus its runtime dependencies, as its
// pom on Maven Central lists them. parent-join: the *-client jar is the whole module.
// lang-painless and ingest-common: the `script` ingest processor, which the geoshard routing
// pipeline (`geoshard pipeline --install`) runs; ingest-common extends lang-painless.
const mod = (group, artifact, version = VERSION) => ({
  artifact: `${group}:${artifact}:${version}`,
  jar: `${artifact}-${version}.jar`,
});
const EXTRA_MODULES = [
  {
    name: 'parent-join',
    jars: [mod('org.opensearch.plugin', 'parent-join-client')],
    classname: 'org.opensearch.join.ParentJoinPlugin',
    description: 'This module adds the support parent-child queries and aggregations',
  },
  {
    name: 'lang-painless',
    jars: [
      mod('org.opensearch.plugin', 'lang-painless'),
      mod('org.opensearch.plugin', 'opensearch-scripting-painless-spi'),
      mod('org.antlr', 'antlr4-runtime', '4.13.1'),
      ...['asm', 'asm-analysis', 'asm-commons', 'asm-tree', 'asm-util'].map((a) => mod('org.ow2.asm', a, '9.7')),
    ],
    classname: 'org.opensearch.painless.PainlessPlugin',
    description: 'An easy, safe and fast scripting language for OpenSearch',
    // As in OpenSearch's modules/lang-painless: Painless compiles scripts to classes at run time.
    policy: [
      'grant {',
      '  permission java.lang.RuntimePermission "createClassLoader";',
      '  permission java.lang.RuntimePermission "getClassLoader";',
      '};',
      '',
    ].join('\n'),
  },
  {
    name: 'ingest-common',
    jars: [
      mod('org.opensearch.plugin', 'ingest-common'),
      mod('org.opensearch', 'opensearch-grok'),
      mod('org.opensearch', 'opensearch-dissect'),
      mod('org.jruby.joni', 'joni', '2.2.1'),
      mod('org.jruby.jcodings', 'jcodings', '1.0.61'),
    ],
    classname: 'org.opensearch.ingest.common.IngestCommonPlugin',
    description: 'Module for ingest processors that do not require additional security permissions or have large dependencies and resources',
    extended: ['lang-painless'],
  },
  {
    // `_reindex` (sliced, throttled, followed through the tasks API): `geoshard reindex --copy engine`.
    // The module's jar is reindex-client; the rest client and its HTTP stack are there for reindex
    // from a remote cluster (reactor-core and reactive-streams are already in lib/).
    name: 'reindex',
    jars: [
      mod('org.opensearch.plugin', 'reindex-client'),
      mod('org.opensearch.client', 'opensearch-rest-client'),
      mod('org.opensearch', 'opensearch-ssl-config'),
      mod('org.apache.httpcomponents', 'httpclient', '4.5.14'),
      mod('org.apache.httpcomponents', 'httpcore', '4.4.16'),
      mod('org.apache.httpcomponents', 'httpasyncclient', '4.1.5'),
      mod('org.apache.httpcomponents', 'httpcore-nio', '4.4.16'),
      mod('commons-codec', 'commons-codec', '1.18.0'),
      mod('commons-logging', 'commons-logging', '1.2'),
    ],
    classname: 'org.opensearch.index.reindex.ReindexPlugin',
    description: 'The Reindex module adds APIs to reindex from one index to another or update documents in place.',
    policy: ['grant {', '  // reindex from a remote cluster opens sockets with the rest client', '  permission java.net.SocketPermission "*", "connect";', '};', ''].join('\n'),
  },
  {
    // The geo aggregations (geotile_grid, geohash_grid, geo_bounds): the reindex switch's exact
    // check counts documents per map tile on both indexes (src/ops/compare/tileParts.ts). A full
    // distribution ships this module; the integ-test zip does not.
    name: 'geo',
    jars: [mod('org.opensearch.plugin', 'geo')],
    classname: 'org.opensearch.geo.GeoModulePlugin',
    description: 'Plugin for geospatial features in OpenSearch. Registering the geo_shape and aggregations on GeoShape and GeoPoint',
  },
];


// The secured cluster's certificates and credentials (secure mode).
const CERTS = path.join(DIR, 'certs');
/** The CA that signed the node's certificate: what a client must trust (OPENSEARCH_CA). */
const CA_FILE = path.join(CERTS, 'root-ca.pem');
/**
 * The secured cluster's credentials (mode 0600, root only): the admin's and those of one user per
 * role of the table, for tests. `node scripts/cluster.mjs start --secure` prints where it is.
 */
const SECURE_STATE = path.join(DIR, 'secure.json');
function readSecureState() {
  try {
    return JSON.parse(fs.readFileSync(SECURE_STATE, 'utf8'));
  } catch {
    return null;
  }
}

/** The admin user: OPENSEARCH_ADMIN_PASSWORD, else the one generated at the first start. */
function adminCredentials() {
  const st = readSecureState();
  return { username: 'admin', password: process.env.OPENSEARCH_ADMIN_PASSWORD || st?.admin?.password || '' };
}


export { SECURE, VERSION, MAJOR, PORT, EXTERNAL_URL, SCHEME, LOCAL_URL, URL_, STOP_TIMEOUT_S, RUN_USER, CLUSTER_NAME, IS_ROOT, HTTP_RANGE, MAX_NODES, CACHE_ROOT, DIR, DOWNLOAD_DIR, HOME, STATE_FILE, PORT_FILE, INSTALLED_MARKER, nodePaths, nodeName, DIST_ARTIFACT, DIST_ZIP, mod, EXTRA_MODULES, CERTS, CA_FILE, SECURE_STATE, readSecureState, adminCredentials };
