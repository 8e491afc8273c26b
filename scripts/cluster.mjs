#!/usr/bin/env node
// Local OpenSearch cluster (1 node by default, or several on loopback) for geoshard development and tests.
//
//   node scripts/cluster.mjs start [--nodes N]   fetch (first time), install and start N nodes (default: the
//                                                 cluster's recorded node count, else 1), wait for yellow
//   node scripts/cluster.mjs start --node K      start node K of the recorded cluster again (same data dir: it rejoins)
//   node scripts/cluster.mjs stop [--node K]     stop every node (or node K) this script started: SIGTERM, then
//                                                 SIGKILL after 30 s (exit 0 if none runs)
//   node scripts/cluster.mjs status              list the nodes (name, ports, pid, up/down, role) and the health;
//                                                 exit 0 if node 1 (or OPENSEARCH_URL) answers, 1 if not
//   start --reset                                 delete the nodes' data first (needed to change the node count)
//   node scripts/cluster.mjs env                  print `export OPENSEARCH_URL=...` (and, --secure, OPENSEARCH_CA and
//                                                 GEOSHARD_SECURE_STATE) for eval in a shell or a test script
//   --secure (or OPENSEARCH_SECURITY=1)           a secured cluster (docs/security.md): OpenSearch 2.19.4 and the official
//                                                 security plugin from Maven Central, TLS on HTTP and transport with a CA
//                                                 and node certificate made with openssl at the first start (certs/), the
//                                                 security index initialised from our internal_users.yml (the admin:
//                                                 OPENSEARCH_ADMIN_PASSWORD, else generated) and roles_mapping.yml, then on
//                                                 every start the roles of src/server/roles.json, one user per role and one
//                                                 for readall_and_monitor (generated passwords) set through the plugin's
//                                                 REST API; credentials in secure.json (0600). Its own folder
//                                                 opensearch-<version>-secure; give --secure to stop/status/env as well.
//                                                 GEOSHARD_SECURE_INDEXES: the roles' index patterns (default "*").
//
// Node built-ins only. The official OpenSearch distribution (integ-test-zip, no bundled JDK)
// and, for 2.x, the parent-join, lang-painless, ingest-common, reindex and geo modules are fetched from Maven Central with `mvn` into a cache
// folder outside git. OpenSearch 2.x runs on the machine's Java 11..23 (it needs the Security
// Manager, which Java 24+ no longer has; Java 21, then 17, preferred); 3.x on Java 21+ (the
// newest found preferred, e.g. Temurin 25 under /usr/lib/jvm). 3.x zips bundle these modules.
//
// Ports: node 1 answers HTTP on OPENSEARCH_PORT (default 9200), as a single node always did.
// The other nodes' HTTP ports are the first free ports above it; the transport ports the first
// free ports from OPENSEARCH_PORT+100 up, never in 9200..9299 (other clusters' HTTP range, where
// a transport port once made a node fail with BindHttpException). Ports are recorded in
// cluster.json and reused on restart when still free.
//
// Environment:
//   OPENSEARCH_URL           external cluster: `start`/`status` only check it, nothing is started
//   OPENSEARCH_PORT          HTTP port of node 1 (default 9200)
//   OPENSEARCH_VERSION       OpenSearch version to fetch (default 2.19.6; 3.8.0 works too)
//   OPENSEARCH_HEAP          JVM heap per node, e.g. 1g or 512m (default 1g for 1 node, 512m each for more)
//   OPENSEARCH_START_TIMEOUT seconds to wait for the cluster to become yellow (default 180 + 60 per extra node)
//   OPENSEARCH_JAVA_HOME     Java home to run the nodes with (default: found automatically)
//   GEOSHARD_CACHE           cache root (default ~/.cache/geoshard; as root /var/cache/geoshard,
//                            because the nodes run as a system user that cannot enter /root)
//
// Layout of <cache root>/opensearch-<version>/:
//   download/   the zip and module jars as fetched by Maven
//   home/       the unpacked distribution (OPENSEARCH_HOME), the extra modules added to modules/ (2.x)
//   cluster.json       the cluster: version, heap, node count, each node's name and ports
//   data/ logs/ tmp/ opensearch.pid   node 1 (logs/geoshard.log, logs/console.log, logs/gc.log)
//   node-K/{data,logs,tmp,opensearch.pid}   node K >= 2
//   node-K/config/     each node's config (copied from home/config, opensearch.yml written on every start)

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Secure mode (OPENSEARCH_SECURITY=1 or `start --secure`): the official security plugin, TLS on
 * HTTP and transport with a CA and node certificate made here, users and roles from the one
 * table of roles (src/server/roles.json). Defaults to 2.19.4, the last 2.19 the plugin is served for.
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
    // check counts documents per map tile on both indexes (src/server/tileParts.ts). A full
    // distribution ships this module; the integ-test zip does not.
    name: 'geo',
    jars: [mod('org.opensearch.plugin', 'geo')],
    classname: 'org.opensearch.geo.GeoModulePlugin',
    description: 'Plugin for geospatial features in OpenSearch. Registering the geo_shape and aggregations on GeoShape and GeoPoint',
  },
];

// ---------------------------------------------------------------------------------------------
// secure mode: the security plugin, TLS, users and roles

const SECURITY_ARTIFACT = `org.opensearch.plugin:opensearch-security:${VERSION}.0:zip`;
const SECURITY_ZIP = path.join(DOWNLOAD_DIR, `opensearch-security-${VERSION}.0.zip`);
const CERTS = path.join(DIR, 'certs');
/** The CA that signed the node's certificate: what a client must trust (OPENSEARCH_CA). */
const CA_FILE = path.join(CERTS, 'root-ca.pem');
/**
 * The secured cluster's credentials (mode 0600, root only): the admin's and those of one user per
 * role of the table, for tests. `node scripts/cluster.mjs start --secure` prints where it is.
 */
const SECURE_STATE = path.join(DIR, 'secure.json');
const ROLES_TABLE = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'src', 'server', 'roles.json');
const NODE_DN = 'CN=node.geoshard.local,OU=geoshard,O=geoshard';
const ADMIN_DN = 'CN=admin.geoshard.local,OU=geoshard,O=geoshard';

/** A password the plugin's strength check accepts (24 random characters of each class). */
const randomPassword = () => `${crypto.randomBytes(18).toString('base64url')}aA1!`;

function readSecureState() {
  try {
    return JSON.parse(fs.readFileSync(SECURE_STATE, 'utf8'));
  } catch {
    return null;
  }
}

function writeSecureState(st) {
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${SECURE_STATE}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(st, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, SECURE_STATE);
}

/** The admin user: OPENSEARCH_ADMIN_PASSWORD, else the one generated at the first start. */
function adminCredentials() {
  const st = readSecureState();
  return { username: 'admin', password: process.env.OPENSEARCH_ADMIN_PASSWORD || st?.admin?.password || '' };
}

/** Adds the security plugin to home/plugins (once), from Maven Central like the distribution. */
function installSecurityPlugin(javaHome) {
  if (exists(path.join(HOME, 'plugins', 'opensearch-security', 'plugin-descriptor.properties'))) return;
  if (!exists(SECURITY_ZIP)) {
    log(`downloading ${SECURITY_ARTIFACT} from Maven Central with mvn...`);
    mvnCopy(SECURITY_ARTIFACT, DOWNLOAD_DIR);
    if (!exists(SECURITY_ZIP)) fail(`Maven finished but ${SECURITY_ZIP} is missing (the plugin is served for 2.19.4, not every version: set OPENSEARCH_VERSION=2.19.4)`);
  }
  log(`installing the security plugin ${path.basename(SECURITY_ZIP)}...`);
  run(path.join(HOME, 'bin', 'opensearch-plugin'), ['install', '--batch', `file://${SECURITY_ZIP}`], {
    cwd: HOME,
    env: { PATH: process.env.PATH, JAVA_HOME: javaHome, OPENSEARCH_JAVA_HOME: javaHome, OPENSEARCH_PATH_CONF: path.join(HOME, 'config') },
  });
  chmodTools();
}

function chmodTools() {
  const tools = path.join(HOME, 'plugins', 'opensearch-security', 'tools');
  if (exists(tools)) for (const f of fs.readdirSync(tools)) if (f.endsWith('.sh')) fs.chmodSync(path.join(tools, f), 0o755);
}

/**
 * The CA and the node's certificate (SAN localhost and 127.0.0.1, server and client use: it
 * serves HTTP and both ends of the transport), made with openssl at the first start of this
 * folder and kept (a client given the CA keeps trusting the node across restarts; --reset
 * makes new ones). The key is PKCS#8, as the plugin wants.
 */
function makeCerts() {
  if (exists(CA_FILE) && exists(path.join(CERTS, 'node.pem')) && exists(path.join(CERTS, 'node-key.pem'))) return;
  const openssl = which('openssl');
  if (!openssl) fail('openssl is needed to make the secured node\'s certificates: apt-get install openssl');
  fs.rmSync(CERTS, { recursive: true, force: true });
  fs.mkdirSync(CERTS, { recursive: true });
  const o = (args) => run(openssl, args, { cwd: CERTS });
  o(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'root-ca-key.pem', '-out', 'root-ca.pem', '-days', '3650', '-subj', '/O=geoshard/OU=geoshard/CN=geoshard test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  fs.writeFileSync(
    path.join(CERTS, 'node.ext'),
    ['subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:node.geoshard.local', 'extendedKeyUsage=serverAuth,clientAuth', 'keyUsage=critical,digitalSignature,keyEncipherment', 'basicConstraints=CA:FALSE', ''].join('\n'),
  );
  o(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'node-key.rsa.pem', '-out', 'node.csr', '-subj', `/${NODE_DN.split(',').reverse().join('/')}`]);
  o(['x509', '-req', '-in', 'node.csr', '-CA', 'root-ca.pem', '-CAkey', 'root-ca-key.pem', '-CAcreateserial', '-out', 'node.pem', '-days', '3650', '-sha256', '-extfile', 'node.ext']);
  o(['pkcs8', '-topk8', '-nocrypt', '-in', 'node-key.rsa.pem', '-out', 'node-key.pem']);
  for (const f of ['node-key.rsa.pem', 'node.csr', 'node.ext', 'root-ca.srl']) fs.rmSync(path.join(CERTS, f), { force: true });
  fs.chmodSync(path.join(CERTS, 'root-ca-key.pem'), 0o600);
  fs.chmodSync(CERTS, 0o755);
  fs.chmodSync(CA_FILE, 0o644);
  log(`made a CA (${CA_FILE}) and a node certificate for localhost and 127.0.0.1`);
}

/** bcrypt hash of a password with the plugin's own tools/hash.sh (the password passes in the environment, never in argv). */
function bcrypt(password, javaHome) {
  const r = run(path.join(HOME, 'plugins', 'opensearch-security', 'tools', 'hash.sh'), ['-env', 'GEOSHARD_HASH_PASSWORD'], {
    env: { PATH: process.env.PATH, JAVA_HOME: javaHome, OPENSEARCH_JAVA_HOME: javaHome, GEOSHARD_HASH_PASSWORD: password },
  });
  const hash = r.stdout.split('\n').map((l) => l.trim()).find((l) => /^\$2[aby]\$\d\d\$/.test(l));
  if (!hash) fail('tools/hash.sh printed no bcrypt hash');
  return hash;
}

/**
 * The credentials (made once, kept in secure.json): the admin's password is OPENSEARCH_ADMIN_PASSWORD
 * when set, else generated; each role of the table and the built-in readall_and_monitor gets a user
 * "geoshard-<role>" with a generated password.
 */
function ensureSecureState(javaHome) {
  const st = readSecureState() ?? {};
  const adminPassword = process.env.OPENSEARCH_ADMIN_PASSWORD || st.admin?.password || randomPassword();
  if (!st.admin || st.admin.password !== adminPassword || !st.admin.hash) st.admin = { username: 'admin', password: adminPassword, hash: bcrypt(adminPassword, javaHome) };
  st.ca = CA_FILE;
  st.url = LOCAL_URL;
  st.users ??= {};
  for (const role of [...Object.keys(rolesTable().roles), 'readall_and_monitor']) {
    const username = `geoshard-${role.replace(/^geoshard_/, '').replace(/_/g, '-')}`;
    st.users[role] ??= { username, password: randomPassword() };
  }
  writeSecureState(st);
  return st;
}

function rolesTable() {
  return JSON.parse(fs.readFileSync(ROLES_TABLE, 'utf8'));
}

/**
 * The table's roles as the plugin's REST API takes them: <indexes> becomes the index patterns of
 * GEOSHARD_SECURE_INDEXES (comma-separated, default "*"), <lockIndex> the lock index.
 */
function renderedRoles() {
  const t = rolesTable();
  const indexes = (process.env.GEOSHARD_SECURE_INDEXES || '*').split(',').map((x) => x.trim()).filter(Boolean);
  const lock = process.env.GEOSHARD_LOCK_INDEX || t.lockIndex;
  const out = {};
  for (const [name, r] of Object.entries(t.roles)) {
    out[name] = {
      description: r.description,
      cluster_permissions: r.cluster_permissions,
      index_permissions: r.index_permissions.map((ip) => ({
        ...ip,
        index_patterns: ip.index_patterns.flatMap((x) => (x === '<indexes>' ? indexes : x === '<lockIndex>' ? [lock] : [x])),
      })),
    };
  }
  return out;
}

/** Writes node k's security settings (opensearch.yml lines) and the plugin's files into its config folder. */
function writeSecurityConfig(conf, st) {
  for (const f of ['root-ca.pem', 'node.pem', 'node-key.pem']) fs.copyFileSync(path.join(CERTS, f), path.join(conf, f));
  const secDir = path.join(conf, 'opensearch-security');
  fs.mkdirSync(secDir, { recursive: true });
  // The demo files map every user to `own_index` and define demo users: geoshard's replace them.
  fs.writeFileSync(
    path.join(secDir, 'internal_users.yml'),
    ['# Written by geoshard scripts/cluster.mjs (read once, when the security index is created)', '_meta:', '  type: "internalusers"', '  config_version: 2', 'admin:', `  hash: "${st.admin.hash}"`, '  reserved: true', '  backend_roles: ["admin"]', ''].join('\n'),
  );
  fs.writeFileSync(
    path.join(secDir, 'roles_mapping.yml'),
    ['_meta:', '  type: "rolesmapping"', '  config_version: 2', 'all_access:', '  reserved: false', '  backend_roles: ["admin"]', ''].join('\n'),
  );
  fs.writeFileSync(path.join(secDir, 'roles.yml'), ['_meta:', '  type: "roles"', '  config_version: 2', ''].join('\n'));
  return [
    'plugins.security.ssl.transport.pemcert_filepath: node.pem',
    'plugins.security.ssl.transport.pemkey_filepath: node-key.pem',
    'plugins.security.ssl.transport.pemtrustedcas_filepath: root-ca.pem',
    'plugins.security.ssl.transport.enforce_hostname_verification: false',
    'plugins.security.ssl.http.enabled: true',
    'plugins.security.ssl.http.pemcert_filepath: node.pem',
    'plugins.security.ssl.http.pemkey_filepath: node-key.pem',
    'plugins.security.ssl.http.pemtrustedcas_filepath: root-ca.pem',
    'plugins.security.allow_default_init_securityindex: true',
    `plugins.security.authcz.admin_dn: ["${ADMIN_DN}"]`,
    `plugins.security.nodes_dn: ["${NODE_DN}"]`,
    'plugins.security.restapi.roles_enabled: ["all_access"]',
    'plugins.security.system_indices.enabled: true',
  ];
}

/**
 * Creates (or updates) the table's roles, one user per role and its mapping, through the plugin's
 * REST API as admin: the same calls docs/security.md gives a team. Waits for the security index first.
 */
async function applyRolesTable(st) {
  const api = `${LOCAL_URL}/_plugins/_security/api`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    const r = await requestJson(`${LOCAL_URL}/_plugins/_security/authinfo`);
    if (r?.status === 200) break;
    if (r?.status === 401) fail(`the secured node refuses the admin's password (401): its security index keeps the password of its first start. Set OPENSEARCH_ADMIN_PASSWORD to that one, or start with --reset.`);
    if (Date.now() > deadline) fail(`the security plugin did not initialise within 120 s (last answer: ${r ? r.status : 'none'}).\n${logHint(1)}`);
    await sleep(1000);
  }
  const put = async (what, body) => {
    const r = await requestJson(`${api}/${what}`, { method: 'PUT', body, timeoutMs: 30_000 });
    if (!r || r.status >= 300) fail(`PUT _plugins/_security/api/${what} failed: ${r ? `${r.status} ${JSON.stringify(r.body)}` : 'no answer'}`);
  };
  const roles = renderedRoles();
  for (const [name, role] of Object.entries(roles)) await put(`roles/${name}`, role);
  for (const [role, u] of Object.entries(st.users)) {
    await put(`internalusers/${u.username}`, { password: u.password, description: `geoshard test user holding exactly ${role}` });
    await put(`rolesmapping/${role}`, { users: [u.username] });
  }
  log(`roles ${Object.keys(roles).join(', ')} and one user per role (and readall_and_monitor) are set; credentials in ${SECURE_STATE} (root only)`);
}

// ---------------------------------------------------------------------------------------------
// small helpers

class CliError extends Error {}
const log = (msg) => console.log(`[cluster] ${msg}`);
const fail = (msg) => {
  throw new CliError(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const exists = (p) => fs.existsSync(p);
const secondsSince = (t0) => ((Date.now() - t0) / 1000).toFixed(1);

function which(cmd) {
  for (const dir of (process.env.PATH || '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message}`);
  if (r.status !== 0 && !opts.allowFail) {
    const out = `${r.stdout || ''}${r.stderr || ''}`.trim().split('\n').slice(-30).join('\n');
    fail(`${cmd} ${args.join(' ')} exited with ${r.status}${out ? `:\n${out}` : ''}`);
  }
  return r;
}

function tail(file, n = 40) {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    return lines.slice(-n - 1).join('\n');
  } catch {
    return null;
  }
}

function logHint(k) {
  const p = nodePaths(k);
  const parts = [];
  const main = tail(p.mainLog);
  if (main && main.trim()) parts.push(`--- last lines of ${p.mainLog} ---\n${main}`);
  // console.log collects the launcher's output of every start: show only the last start.
  const con = tail(p.consoleLog, 200);
  if (con && con.trim()) {
    const lastRun = con.slice(Math.max(0, con.lastIndexOf('\n==== '))).trim().split('\n').slice(-40).join('\n');
    parts.push(`--- launcher output of this start (${p.consoleLog}) ---\n${lastRun}`);
  }
  if (!parts.length) parts.push(`(no log output yet; logs go to ${p.logs})`);
  return `[node ${k}]\n${parts.join('\n')}`;
}

/**
 * Sends one request and returns { status, body } (body parsed as JSON when it is), or null when
 * nothing answers. In secure mode it trusts only this cluster's CA (certs/root-ca.pem, host name
 * verified) and authenticates as the admin user (secure.json), unless `auth` says otherwise.
 */
function requestJson(url, { method = 'GET', body, timeoutMs = 5000, auth } = {}) {
  return new Promise((resolve) => {
    const u = new URL(url);
    const secureOpts = u.protocol === 'https:' ? { ca: exists(CA_FILE) ? fs.readFileSync(CA_FILE) : undefined } : {};
    const cred = auth ?? (SECURE ? adminCredentials() : null);
    const headers = { accept: 'application/json' };
    if (cred) headers.authorization = `Basic ${Buffer.from(`${cred.username}:${cred.password}`).toString('base64')}`;
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    if (data) headers['content-type'] = 'application/json';
    const mod = u.protocol === 'https:' ? https : http;
    const req = mod.request(u, { method, headers, timeout: timeoutMs, ...secureOpts }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on('error', () => resolve(null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(data);
  });
}

/** GET a JSON document; returns { status, body } or null when nothing answers. */
const getJson = (url, timeoutMs = 5000) => requestJson(url, { timeoutMs });

/** Root document if an OpenSearch (or Elasticsearch-like) node answers at url, else null. */
async function probe(url, timeoutMs = 3000) {
  const r = await getJson(`${url}/`, timeoutMs);
  if (!r || r.status !== 200 || typeof r.body !== 'object' || !r.body?.version?.number) return null;
  return r.body;
}

function portOpen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    const done = (v) => {
      s.destroy();
      resolve(v);
    };
    s.setTimeout(1000, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

function describe(root) {
  const v = root.version || {};
  return `${v.distribution || 'elasticsearch'} ${v.number} (cluster "${root.cluster_name}", node "${root.name}")`;
}

// ---------------------------------------------------------------------------------------------
// pid file

function readPid(k) {
  try {
    const pid = Number(fs.readFileSync(nodePaths(k).pid, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch (e) {
    if (e.code !== 'EPERM') return false;
  }
  // Guard against a recycled pid: it must still be an OpenSearch JVM.
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('org.opensearch.bootstrap.OpenSearch');
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

function runningPid(k) {
  const pid = readPid(k);
  return pid && isAlive(pid) ? pid : null;
}

// ---------------------------------------------------------------------------------------------
// Java

function javaMajor(javaHome) {
  const bin = path.join(javaHome, 'bin', 'java');
  if (!exists(bin)) return null;
  const r = spawnSync(bin, ['-XshowSettings:properties', '-version'], { encoding: 'utf8' });
  const m = /java\.specification\.version = (\d+)(?:\.(\d+))?/.exec(`${r.stderr}${r.stdout}`);
  if (!m) return null;
  return m[1] === '1' ? Number(m[2]) : Number(m[1]);
}

function findJavaHome() {
  // 2.x relies on the Security Manager (gone in Java 24+); 3.x dropped it and needs Java 21+.
  const [lo, hi] = MAJOR >= 3 ? [21, Infinity] : [11, 23];
  const range = hi === Infinity ? `${lo}+` : `${lo}..${hi}`;
  const supported = (v) => v !== null && v >= lo && v <= hi;
  const explicit = process.env.OPENSEARCH_JAVA_HOME;
  if (explicit) {
    const v = javaMajor(explicit);
    if (!supported(v)) {
      fail(
        `OPENSEARCH_JAVA_HOME=${explicit} is ${v === null ? 'not a Java home' : `Java ${v}`}; ` +
          `OpenSearch ${VERSION} needs Java ${range}` +
          (MAJOR >= 3 ? '.' : ' (it relies on the Security Manager, gone in 24+).'),
      );
    }
    return { home: explicit, major: v };
  }
  const candidates = [];
  if (process.env.JAVA_HOME) candidates.push(process.env.JAVA_HOME);
  const onPath = which('java');
  if (onPath) candidates.push(path.dirname(path.dirname(fs.realpathSync(onPath))));
  const jvmDir = '/usr/lib/jvm';
  if (exists(jvmDir)) {
    const feature = (n) => Number(/(?:^|[-.])(\d{2})(?:[-.]|$)/.exec(n)?.[1] ?? 0);
    // 2.x: Java 21, then 17 (the versions its release was tested on); 3.x: the newest.
    const prefer = (n) => (MAJOR >= 3 ? -feature(n) : /-21|21[.-]/.test(n) ? 0 : /-17|17[.-]/.test(n) ? 1 : 2);
    const listed = fs.readdirSync(jvmDir).sort((a, b) => prefer(a) - prefer(b)).map((n) => path.join(jvmDir, n));
    // For 3.x look at /usr/lib/jvm before JAVA_HOME / the java on PATH, which are often a 17.
    if (MAJOR >= 3) candidates.unshift(...listed);
    else candidates.push(...listed);
  }
  const seen = new Set();
  const rejected = [];
  for (const c of candidates) {
    let real;
    try {
      real = fs.realpathSync(c);
    } catch {
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    const v = javaMajor(real);
    if (supported(v)) return { home: real, major: v };
    if (v !== null) rejected.push(`${real} (Java ${v})`);
  }
  fail(
    `no Java ${range} found for OpenSearch ${VERSION}` +
      (rejected.length ? ` (found only: ${rejected.join(', ')})` : '') +
      `. Install one (e.g. apt-get install ${MAJOR >= 3 ? 'temurin-25-jdk' : 'openjdk-17-jdk-headless'}) or set OPENSEARCH_JAVA_HOME.`,
  );
}

// ---------------------------------------------------------------------------------------------
// install

function mvnCopy(artifact, outDir) {
  const mvn = which('mvn');
  if (!mvn) fail('Maven (mvn) is needed to fetch OpenSearch from Maven Central: apt-get install maven');
  fs.mkdirSync(outDir, { recursive: true });
  // Run from the output folder so that no project pom.xml is picked up.
  run(
    mvn,
    ['-q', '-B', 'dependency:copy', `-Dartifact=${artifact}`, `-DoutputDirectory=${outDir}`],
    { cwd: outDir },
  );
}

function unzip(zip, destDir, javaHome) {
  fs.mkdirSync(destDir, { recursive: true });
  const unzipBin = which('unzip');
  if (unzipBin) {
    run(unzipBin, ['-q', '-o', zip, '-d', destDir]);
    return 'unzip';
  }
  const py = which('python3');
  if (py) {
    run(py, ['-c', 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])', zip, destDir]);
    return 'python3 zipfile';
  }
  const jar = [path.join(javaHome, 'bin', 'jar'), which('jar')].find((p) => p && exists(p));
  if (jar) {
    run(jar, ['xf', zip], { cwd: destDir });
    return 'jar xf';
  }
  fail('no unzip tool found (tried unzip, python3, jar): apt-get install unzip');
}

function writeDescriptor(dir, m) {
  const props = [
    '# Written by geoshard scripts/cluster.mjs (fields as read by org.opensearch.plugins.PluginInfo)',
    `description=${m.description}`,
    `version=${VERSION}`,
    `name=${m.name}`,
    `classname=${m.classname}`,
    'java.version=11',
    `opensearch.version=${VERSION}`,
    'custom.foldername=',
    `extended.plugins=${(m.extended ?? []).join(',')}`,
    'has.native.controller=false',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'plugin-descriptor.properties'), props);
}

function install(javaHome) {
  fs.mkdirSync(DIR, { recursive: true });

  if (!exists(DIST_ZIP)) {
    const t0 = Date.now();
    log(`downloading OpenSearch ${VERSION} (${DIST_ARTIFACT}, ~55 MB) from Maven Central with mvn...`);
    mvnCopy(DIST_ARTIFACT, DOWNLOAD_DIR);
    if (!exists(DIST_ZIP)) fail(`Maven finished but ${DIST_ZIP} is missing`);
    log(`downloaded in ${secondsSince(t0)} s -> ${DIST_ZIP}`);
  }

  if (!exists(INSTALLED_MARKER)) {
    const t0 = Date.now();
    const staging = path.join(DIR, `unpack.tmp-${process.pid}`);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(HOME, { recursive: true, force: true });
    log(`unpacking ${path.basename(DIST_ZIP)}...`);
    const tool = unzip(DIST_ZIP, staging, javaHome);
    const inner = path.join(staging, `opensearch-${VERSION}`);
    if (!exists(path.join(inner, 'bin', 'opensearch'))) fail(`unexpected zip layout: no ${inner}/bin/opensearch`);
    fs.renameSync(inner, HOME);
    fs.rmSync(staging, { recursive: true, force: true });
    for (const f of fs.readdirSync(path.join(HOME, 'bin'))) fs.chmodSync(path.join(HOME, 'bin', f), 0o755);
    log(`unpacked with ${tool} in ${secondsSince(t0)} s -> ${HOME}`);
  }

  for (const m of EXTRA_MODULES) {
    const modDir = path.join(HOME, 'modules', m.name);
    if (exists(path.join(modDir, 'plugin-descriptor.properties'))) continue; // added before, or bundled (3.x)
    for (const j of m.jars) {
      if (exists(path.join(DOWNLOAD_DIR, j.jar))) continue;
      log(`downloading ${j.artifact} (module ${m.name}) with mvn...`);
      mvnCopy(j.artifact, DOWNLOAD_DIR);
      if (!exists(path.join(DOWNLOAD_DIR, j.jar))) fail(`Maven finished but ${path.join(DOWNLOAD_DIR, j.jar)} is missing`);
    }
    log(`adding module ${m.name} -> ${modDir}`);
    // Built in a staging folder and renamed, so that an interrupted install never leaves a module
    // folder with a descriptor but missing jars.
    const staging = `${modDir}.tmp-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    for (const j of m.jars) fs.copyFileSync(path.join(DOWNLOAD_DIR, j.jar), path.join(staging, j.jar));
    if (m.policy) fs.writeFileSync(path.join(staging, 'plugin-security.policy'), m.policy);
    writeDescriptor(staging, m);
    fs.rmSync(modDir, { recursive: true, force: true });
    fs.renameSync(staging, modDir);
  }

  if (!exists(INSTALLED_MARKER)) fs.writeFileSync(INSTALLED_MARKER, `${new Date().toISOString()}\n`);
  if (SECURE) installSecurityPlugin(javaHome);
}

function ensureRunUser() {
  const r = spawnSync('id', ['-u', RUN_USER], { encoding: 'utf8' });
  if (r.status === 0) return;
  log(`OpenSearch refuses to run as root: creating system user "${RUN_USER}"...`);
  const useradd = which('useradd') || '/usr/sbin/useradd';
  run(useradd, [
    '--system',
    '--user-group',
    '--no-create-home',
    '--home-dir',
    '/nonexistent',
    '--shell',
    '/usr/sbin/nologin',
    RUN_USER,
  ]);
}

// ---------------------------------------------------------------------------------------------
// arguments and the recorded cluster

function parseArgs(argv) {
  const out = { nodes: null, node: null, reset: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, null];
    if (flag === '--reset') {
      out.reset = true;
      continue;
    }
    if (flag === '--secure') continue; // read at the top (SECURE)
    if (flag !== '--nodes' && flag !== '--node') fail(`unknown argument ${JSON.stringify(a)}: expected --nodes N, --node K or --reset`);
    const v = inline ?? argv[++i];
    const n = Number(v);
    if (v === undefined || !/^\d+$/.test(String(v)) || n < 1 || n > MAX_NODES) {
      fail(`${flag} ${JSON.stringify(v ?? '')} is invalid: expected an integer in [1, ${MAX_NODES}]`);
    }
    out[flag.slice(2)] = n;
  }
  if (out.nodes !== null && out.node !== null) fail('give either --nodes N (the whole cluster) or --node K (one node), not both');
  return out;
}

/** The recorded cluster (cluster.json), or null. Node 1 started by an older script counts as a 1-node cluster. */
function readState() {
  try {
    const s = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
    if (Array.isArray(s.nodes) && s.nodes.length >= 1) return s;
  } catch {
    /* none */
  }
  if (runningPid(1)) {
    let http = PORT;
    try {
      http = Number(fs.readFileSync(PORT_FILE, 'utf8').trim()) || PORT;
    } catch {
      /* older script */
    }
    return { version: VERSION, heap: '1g', nodes: [{ n: 1, name: nodeName(1), http, transport: null }] };
  }
  return null;
}

function writeState(state) {
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${STATE_FILE}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(state, null, 2)}\n`);
  fs.renameSync(tmp, STATE_FILE);
}

/** Whether a TCP port on 127.0.0.1 can be bound now (nothing listens on it). */
function portFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * Ports for nodes 1..n: node 1's HTTP port is PORT; recorded ports are kept when still free (or
 * held by the node itself); new ones are probed. Transport ports never fall in HTTP_RANGE.
 */
async function choosePorts(n, recorded) {
  const taken = new Set([PORT]);
  const ok = async (port, ownerUp) => port > 0 && port < 65536 && !taken.has(port) && (ownerUp || (await portFree(port)));
  const nodes = [];
  for (let k = 1; k <= n; k++) {
    const rec = recorded?.nodes?.find((x) => x.n === k);
    const up = !!runningPid(k);
    let http = k === 1 ? PORT : null;
    if (http === null && rec?.http && (await ok(rec.http, up))) http = rec.http;
    for (let p = PORT + 1; http === null && p < PORT + 100; p++) if (await ok(p, false)) http = p;
    if (http === null) fail(`no free HTTP port in ${PORT + 1}..${PORT + 99} for node ${k}`);
    taken.add(http);
    nodes.push({ n: k, name: nodeName(k), http, transport: rec?.transport ?? null, up });
  }
  for (const node of nodes) {
    const inHttpRange = (p) => p >= HTTP_RANGE[0] && p <= HTTP_RANGE[1];
    let t = node.transport && !inHttpRange(node.transport) && (await ok(node.transport, node.up)) ? node.transport : null;
    for (let p = PORT + 100; t === null && p < PORT + 1000; p++) if (!inHttpRange(p) && (await ok(p, false))) t = p;
    if (t === null) fail(`no free transport port in ${PORT + 100}..${PORT + 999} for node ${node.n}`);
    taken.add(t);
    node.transport = t;
  }
  return nodes.map(({ up: _up, ...rest }) => rest);
}

// ---------------------------------------------------------------------------------------------
// one node

function writeNodeConfig(state, node) {
  const p = nodePaths(node.n);
  // The first start copies home/config (jvm.options, log4j2.properties); opensearch.yml is ours.
  if (!exists(path.join(p.conf, 'jvm.options'))) {
    fs.mkdirSync(p.conf, { recursive: true });
    for (const f of fs.readdirSync(path.join(HOME, 'config'))) {
      if (f === 'opensearch.yml' || f === 'opensearch.keystore') continue;
      fs.cpSync(path.join(HOME, 'config', f), path.join(p.conf, f), { recursive: true });
    }
  }
  const multi = state.nodes.length > 1;
  const lines = [
    '# Written by geoshard scripts/cluster.mjs on every start; edits are overwritten.',
    `cluster.name: ${CLUSTER_NAME}`,
    `node.name: ${node.name}`,
    'network.host: 127.0.0.1',
    `http.port: ${node.http}`,
    `transport.port: ${node.transport}`,
    `path.data: ${p.data}`,
    `path.logs: ${p.logs}`,
    'cluster.routing.allocation.disk.threshold_enabled: false',
  ];
  if (multi) {
    lines.push(
      `discovery.seed_hosts: [${state.nodes.map((x) => `"127.0.0.1:${x.transport}"`).join(', ')}]`,
      `cluster.initial_cluster_manager_nodes: [${state.nodes.map((x) => `"${x.name}"`).join(', ')}]`,
    );
  } else {
    lines.push('discovery.type: single-node');
  }
  if (SECURE) lines.push(...writeSecurityConfig(p.conf, readSecureState()));
  fs.writeFileSync(path.join(p.conf, 'opensearch.yml'), `${lines.join('\n')}\n`);
}

/** Seconds a start of n nodes may take (OPENSEARCH_START_TIMEOUT, default 180 + 60 per extra node). */
const startTimeoutS = (n) => Number(process.env.OPENSEARCH_START_TIMEOUT || 180 + 60 * (n - 1));

/** Spawns node k (daemonised) and returns its pid once the JVM wrote its pid file. */
async function launchNode(state, node, java) {
  const p = nodePaths(node.n);
  writeNodeConfig(state, node);
  for (const d of [p.data, p.logs, p.tmp]) fs.mkdirSync(d, { recursive: true });
  fs.rmSync(p.pid, { force: true });
  if (node.n === 1) fs.writeFileSync(PORT_FILE, `${node.http}\n`);
  chownNode(node.n);
  const jvmOpts = [
    `-Xms${state.heap}`,
    `-Xmx${state.heap}`,
    // jvm.options writes the GC log and crash files relative to home/: give each node its own.
    '-Xlog:disable',
    '-Xlog:all=warning:stderr:uptime,level,tags',
    `-Xlog:gc*,gc+age=trace,safepoint:file=${p.logs}/gc.log:utctime,pid,tags:filecount=4,filesize=16m`,
    `-XX:ErrorFile=${p.logs}/hs_err_pid%p.log`,
    `-XX:HeapDumpPath=${p.data}`,
  ];
  const env = {
    PATH: process.env.PATH || '/usr/local/bin:/usr/bin:/bin',
    LANG: 'C.UTF-8',
    OPENSEARCH_JAVA_HOME: java.home,
    JAVA_HOME: java.home,
    OPENSEARCH_PATH_CONF: p.conf,
    OPENSEARCH_TMPDIR: p.tmp,
    OPENSEARCH_JAVA_OPTS: jvmOpts.join(' '),
  };
  const osArgs = [path.join(HOME, 'bin', 'opensearch'), '-d', '-p', p.pid];
  let cmd;
  let args;
  if (IS_ROOT) {
    cmd = 'runuser';
    args = ['-u', RUN_USER, '--', '/usr/bin/env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`), ...osArgs];
  } else {
    cmd = osArgs[0];
    args = osArgs.slice(1);
  }
  log(`starting node ${node.n} (${node.name}): HTTP ${node.http}, transport ${node.transport}, heap ${state.heap}, log ${p.mainLog}`);
  const out = fs.openSync(p.consoleLog, 'a');
  fs.writeSync(out, `\n==== ${new Date().toISOString()} start: ${cmd} ${args.join(' ')}\n`);
  const child = spawn(cmd, args, {
    cwd: HOME, // bin/opensearch calls bin/opensearch-keystore by a relative path
    env: IS_ROOT ? { PATH: env.PATH } : { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out);
  let code = 'running';
  child.once('exit', (c) => (code = c));
  child.once('error', (e) => (code = e.message));
  child.unref();
  // The launcher forks the JVM (-d) and exits; the JVM writes the pid file once it runs, which
  // on a busy machine can take minutes: wait as long as for the whole start.
  const launchDeadline = Date.now() + startTimeoutS(state.nodes.length) * 1000;
  let pid = null;
  while (!(pid = readPid(node.n)) && Date.now() < launchDeadline) {
    if (code !== 'running' && code !== 0) break;
    await sleep(250);
  }
  if (!pid) fail(`node ${node.n} did not start (launcher exit: ${code}).\n${logHint(node.n)}\nFix the cause above and run start again.`);
  return pid;
}

/** Prepares the shared folders (install, run user, ownership) before any node starts. */
function prepare(java) {
  install(java.home);
  if (SECURE) {
    makeCerts();
    ensureSecureState(java.home);
  }
  if (IS_ROOT) {
    ensureRunUser();
    for (const p of [CACHE_ROOT, DIR]) fs.chmodSync(p, 0o755);
    run('chown', ['-R', `${RUN_USER}:${RUN_USER}`, DIR]);
  }
}

function chownNode(k) {
  if (!IS_ROOT) return;
  const p = nodePaths(k);
  run('chown', ['-R', `${RUN_USER}:${RUN_USER}`, p.data, p.logs, p.tmp, path.dirname(p.conf)]);
  if (k === 1) run('chown', [`${RUN_USER}:${RUN_USER}`, PORT_FILE]);
  const probeAccess = spawnSync('runuser', ['-u', RUN_USER, '--', 'test', '-w', p.data]);
  if (probeAccess.status !== 0) {
    fail(
      `user "${RUN_USER}" cannot write ${p.data} (a parent folder is probably closed to other users). ` +
        `Set GEOSHARD_CACHE to a folder outside /root, e.g. /var/cache/geoshard.`,
    );
  }
}

/** Stops node k: SIGTERM, SIGKILL after STOP_TIMEOUT_S. Returns false if it was not running. */
async function stopNode(k) {
  const p = nodePaths(k);
  const pid = readPid(k);
  if (!pid || !isAlive(pid)) {
    if (pid) fs.rmSync(p.pid, { force: true });
    return false;
  }
  log(`stopping node ${k} (${nodeName(k)}), pid ${pid} (SIGTERM)...`);
  const t0 = Date.now();
  process.kill(pid, 'SIGTERM');
  while (isAlive(pid) && Date.now() - t0 < STOP_TIMEOUT_S * 1000) await sleep(250);
  if (isAlive(pid)) {
    log(`node ${k} still running after ${STOP_TIMEOUT_S} s: SIGKILL`);
    process.kill(pid, 'SIGKILL');
    while (isAlive(pid) && Date.now() - t0 < (STOP_TIMEOUT_S + 10) * 1000) await sleep(250);
    if (isAlive(pid)) fail(`could not kill pid ${pid}; kill it by hand (kill -9 ${pid}).`);
  }
  fs.rmSync(p.pid, { force: true });
  if (k === 1) fs.rmSync(PORT_FILE, { force: true });
  log(`node ${k} stopped in ${secondsSince(t0)} s.`);
  return true;
}

// ---------------------------------------------------------------------------------------------
// commands

/** Waits until `url` reports a cluster with at least `nodes` nodes and status yellow or green. */
async function waitForCluster(url, nodes, pids, t0, timeoutS) {
  const deadline = t0 + timeoutS * 1000;
  let lastNote = 0;
  while (Date.now() < deadline) {
    const r = await getJson(`${url}/_cluster/health?wait_for_status=yellow&wait_for_nodes=>=${nodes}&timeout=5s`, 10000);
    if (r && r.status === 200 && !r.body.timed_out && (r.body.status === 'yellow' || r.body.status === 'green')) return r.body;
    for (const [k, pid] of pids) {
      if (!isAlive(pid) && !runningPid(k)) {
        fail(`node ${k} exited during startup.\n${logHint(k)}\nFix the cause above and run start again.`);
      }
    }
    if (Date.now() - lastNote > 10000) {
      log(`waiting for ${url} to report ${nodes} node(s), yellow... (${secondsSince(t0)} s)`);
      lastNote = Date.now();
    }
    await sleep(1000);
  }
  fail(
    `the cluster did not report ${nodes} node(s), yellow, on ${url} within ${timeoutS} s.\n` +
      [...pids.keys()].map((k) => logHint(k)).join('\n') +
      `\nLook at the logs, run "node scripts/cluster.mjs stop", then start again (OPENSEARCH_START_TIMEOUT raises the limit).`,
  );
}

async function start(opts) {
  if (EXTERNAL_URL) {
    log(`OPENSEARCH_URL is set: using the external cluster ${EXTERNAL_URL}, nothing is started.`);
    const root = await probe(EXTERNAL_URL, 10000);
    if (!root) fail(`nothing answers at OPENSEARCH_URL=${EXTERNAL_URL}. Start that cluster or unset OPENSEARCH_URL.`);
    const h = await getJson(`${EXTERNAL_URL}/_cluster/health`);
    log(`up: ${describe(root)}, health ${h?.body?.status ?? 'unknown'}, nodes ${h?.body?.number_of_nodes ?? '?'}`);
    return 0;
  }
  if (!Number.isInteger(MAJOR) || MAJOR < 1) fail(`OPENSEARCH_VERSION=${VERSION} is not a version such as 2.19.6 or 3.8.0`);
  const recorded = readState();
  if (opts.node !== null) return startOne(opts.node, recorded);

  const rec1 = recorded?.nodes.find((x) => x.n === 1);
  if (runningPid(1) && rec1 && rec1.http !== PORT) {
    fail(
      `the cluster of ${DIR} is already running (node 1 pid ${runningPid(1)}) on port ${rec1.http}, not ${PORT}. ` +
        `Stop it first ("node scripts/cluster.mjs stop") or use OPENSEARCH_PORT=${rec1.http}.`,
    );
  }
  const n = opts.nodes ?? recorded?.nodes.length ?? 1;
  const heap = process.env.OPENSEARCH_HEAP || (n > 1 ? '512m' : '1g');
  if (!/^\d+[kmg]$/i.test(heap)) fail(`OPENSEARCH_HEAP=${heap} is not a JVM size such as 1g or 512m.`);
  const anyUp = [...Array(MAX_NODES).keys()].map((i) => i + 1).filter((k) => runningPid(k));

  if (!anyUp.length && !runningPid(1)) {
    const foreign = await probe(LOCAL_URL);
    if (foreign) {
      if (n === 1) {
        log(`a node already answers on ${LOCAL_URL}: ${describe(foreign)}. Nothing to do.`);
        return 0;
      }
      fail(`${LOCAL_URL} is held by ${describe(foreign)}, not started from ${DIR}. Stop it or set OPENSEARCH_PORT to a free port.`);
    }
    if (await portOpen(PORT)) fail(`port ${PORT} on 127.0.0.1 is in use by something that is not OpenSearch. Free it or set OPENSEARCH_PORT.`);
  }

  if (recorded && recorded.nodes.length !== n) {
    if (anyUp.length) {
      fail(`the cluster of ${DIR} runs with ${recorded.nodes.length} node(s); stop it first ("node scripts/cluster.mjs stop"), then start it with --nodes ${n} --reset.`);
    }
    const hasData = [...Array(MAX_NODES).keys()].some((i) => {
      const d = nodePaths(i + 1).data;
      return exists(d) && fs.readdirSync(d).length > 0;
    });
    if (hasData && !opts.reset) {
      fail(
        `the cluster of ${DIR} was made with ${recorded.nodes.length} node(s) and its data is kept: start it with --nodes ${recorded.nodes.length}, ` +
          `or add --reset to delete its data (indexes included) and start ${n} node(s).`,
      );
    }
  }
  if (opts.reset) {
    if (anyUp.length) fail(`--reset deletes the nodes' data: stop the cluster first ("node scripts/cluster.mjs stop").`);
    for (let k = 1; k <= MAX_NODES; k++) fs.rmSync(nodePaths(k).data, { recursive: true, force: true });
    // A new security index takes the passwords and certificates anew.
    if (SECURE) for (const f of [SECURE_STATE, CERTS]) fs.rmSync(f, { recursive: true, force: true });
    log(`--reset: deleted the data of every node of ${DIR}`);
  }

  const t0 = Date.now();
  const java = findJavaHome();
  log(`OpenSearch ${VERSION}, ${n} node(s), cache ${DIR}, Java ${java.major} at ${java.home}`);
  prepare(java);
  const nodes = await choosePorts(n, recorded && recorded.nodes.length === n ? recorded : null);
  const state = { version: VERSION, heap, java: java.home, nodes };
  writeState(state);
  // The start timeout counts from here: a first start's downloads and installs (minutes, for the
  // secured node's plugin too) are not the cluster's start.
  const tLaunch = Date.now();
  const pids = new Map();
  for (const node of nodes) {
    const pid = runningPid(node.n);
    if (pid) {
      log(`node ${node.n} already runs (pid ${pid})`);
      pids.set(node.n, pid);
      continue;
    }
    pids.set(node.n, await launchNode(state, node, java));
  }
  const timeoutS = startTimeoutS(n);
  const health = await waitForCluster(LOCAL_URL, n, pids, tLaunch, timeoutS);
  if (SECURE) await applyRolesTable(readSecureState());
  const root = await probe(LOCAL_URL);
  log(
    `up in ${secondsSince(t0)} s: ${root ? describe(root) : LOCAL_URL}, ${health.number_of_nodes} node(s), health ${health.status}. ` +
      `Ports (HTTP/transport): ${nodes.map((x) => `node ${x.n} ${x.http}/${x.transport}`).join(', ')}. Stop with "node scripts/cluster.mjs stop".`,
  );
  if (SECURE) {
    log(`secured: TLS with the CA ${CA_FILE} (OPENSEARCH_CA), users and passwords in ${SECURE_STATE}; stop with "OPENSEARCH_SECURITY=1 node scripts/cluster.mjs stop".`);
  }
  return 0;
}

async function startOne(k, state) {
  if (!state || !state.nodes.find((x) => x.n === k)) {
    fail(`node ${k} is not part of the cluster of ${DIR} (${state ? `it has nodes 1..${state.nodes.length}` : 'none was started'}); start the cluster with --nodes N first.`);
  }
  const node = state.nodes.find((x) => x.n === k);
  const pid0 = runningPid(k);
  if (pid0) {
    log(`node ${k} already runs (pid ${pid0}). Nothing to do.`);
    return 0;
  }
  if (!node.transport) fail(`node ${k} was started by an older version of this script: stop it and start the cluster again.`);
  for (const port of [node.http, node.transport]) {
    if (!(await portFree(port))) fail(`port ${port} of node ${k} is in use by another process; stop the whole cluster and start it again (new ports are chosen then).`);
  }
  const t0 = Date.now();
  const java = findJavaHome();
  prepare(java);
  const pid = await launchNode(state, node, java);
  const url = `${SCHEME}://127.0.0.1:${node.http}`;
  const timeoutS = startTimeoutS(1);
  // A node answers _cluster/health only once it has joined a cluster with an elected cluster manager.
  const health = await waitForCluster(url, 1, new Map([[k, pid]]), t0, timeoutS);
  log(`node ${k} up and joined in ${secondsSince(t0)} s (pid ${pid}): cluster has ${health.number_of_nodes} node(s), health ${health.status}.`);
  return 0;
}

async function stop(opts) {
  const state = readState();
  if (opts.node !== null) {
    if (!(await stopNode(opts.node))) log(`node ${opts.node} of ${DIR} is not running. Nothing to do.`);
    return 0;
  }
  const ks = [...Array(MAX_NODES).keys()].map((i) => i + 1).filter((k) => readPid(k));
  const stopped = await Promise.all(ks.map((k) => stopNode(k)));
  if (!stopped.some(Boolean)) {
    const other = await probe(LOCAL_URL);
    log(
      `no node started by this script is running (${DIR}).` +
        (other ? ` Note: ${describe(other)} still answers on ${LOCAL_URL}; it was not started here.` : ''),
    );
  } else {
    log(`stopped ${stopped.filter(Boolean).length} node(s) of ${state ? `the ${state.nodes.length}-node cluster` : 'the cluster'} in ${DIR}.`);
  }
  return 0;
}

async function status() {
  const root = await probe(URL_);
  const state = EXTERNAL_URL ? null : readState();
  // Any node that answers can list the cluster's nodes.
  let catUrl = root ? URL_ : null;
  if (!catUrl && state) {
    for (const x of state.nodes) {
      if (await probe(`${SCHEME}://127.0.0.1:${x.http}`)) {
        catUrl = `${SCHEME}://127.0.0.1:${x.http}`;
        break;
      }
    }
  }
  const cat = catUrl ? await getJson(`${catUrl}/_cat/nodes?format=json&h=name,ip,port,http_address,node.role,cluster_manager,master,heap.max`) : null;
  const catNodes = Array.isArray(cat?.body) ? cat.body : [];
  if (root) {
    const h = await getJson(`${URL_}/_cluster/health`);
    const hb = h?.body || {};
    log(`up: ${URL_} -> ${describe(root)}`);
    log(`health ${hb.status ?? 'unknown'}, nodes ${hb.number_of_nodes ?? '?'}, active shards ${hb.active_shards ?? '?'}, unassigned ${hb.unassigned_shards ?? '?'}`);
  } else {
    const pid = runningPid(1);
    log(
      `down: nothing answers on ${URL_}` +
        (pid ? ` (but node 1 pid ${pid} is running: still starting? see ${nodePaths(1).mainLog})` : '') +
        (EXTERNAL_URL ? '' : '. Start it with "node scripts/cluster.mjs start".'),
    );
  }
  const roleOf = (c) => (c ? `${c['node.role']}${(c.cluster_manager ?? c.master) === '*' ? ' (elected cluster manager)' : ''}` : '-');
  if (state) {
    log(`nodes of ${DIR} (OpenSearch ${state.version}, heap ${state.heap} each):`);
    for (const x of state.nodes) {
      const pid = runningPid(x.n);
      const c = catNodes.find((y) => y.name === x.name);
      const up = pid && (await probe(`${SCHEME}://127.0.0.1:${x.http}`, 2000)) ? 'up' : pid ? 'running, not answering' : 'down';
      log(
        `  node ${x.n}  ${x.name}  http ${x.http}  transport ${x.transport ?? '?'}  pid ${pid ?? '-'}  ${up}  ` +
          `${c ? `in cluster, role ${roleOf(c)}` : 'not in cluster'}  log ${nodePaths(x.n).mainLog}`,
      );
    }
  } else if (catNodes.length) {
    log('nodes:');
    for (const c of catNodes) log(`  ${c.name}  http ${c.http_address}  transport ${c.ip}:${c.port}  role ${roleOf(c)}`);
  }
  return root ? 0 : 1;
}

/**
 * `env`: prints the shell assignments a test (or a user) needs to reach this cluster: OPENSEARCH_URL
 * and, for a secured one, OPENSEARCH_CA and GEOSHARD_SECURE_STATE (the credentials file). No secret
 * is printed: the passwords stay in the file. Use: eval "$(node scripts/cluster.mjs env --secure)".
 */
async function env() {
  const lines = [`export OPENSEARCH_URL=${URL_}`];
  if (SECURE) {
    if (!exists(SECURE_STATE)) fail(`no secured cluster in ${DIR}: start it first ("node scripts/cluster.mjs start --secure")`);
    lines.push(`export OPENSEARCH_CA=${CA_FILE}`, `export GEOSHARD_SECURE_STATE=${SECURE_STATE}`);
  }
  console.log(lines.join('\n'));
  return 0;
}

const commands = { start, stop, status, env };
const name = process.argv[2];
if (!commands[name]) {
  console.error('usage: node scripts/cluster.mjs start [--nodes N | --node K] [--reset] [--secure] | stop [--node K] [--secure] | status [--secure] | env [--secure]');
  process.exit(2);
}
try {
  process.exitCode = await commands[name](parseArgs(process.argv.slice(3)));
} catch (e) {
  console.error(`[cluster] ERROR: ${e instanceof CliError ? e.message : e.stack || e}`);
  process.exitCode = 1;
}
