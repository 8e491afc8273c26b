// Secure mode: the security plugin, TLS, users and roles. Part of scripts/cluster.mjs (its header says what it does).

import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { LOCAL_URL, DIR, HOME, CERTS, CA_FILE, SECURE_STATE, readSecureState } from './settings.mjs';
import { log, fail, sleep, exists, which, run, logHint, requestJson } from './util.mjs';

const ROLES_TABLE = path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', 'src', 'cluster', 'roles.json');
const NODE_DN = 'CN=node.geoshard.local,OU=geoshard,O=geoshard';
const ADMIN_DN = 'CN=admin.geoshard.local,OU=geoshard,O=geoshard';

/** A password the plugin's strength check accepts (24 random characters of each class). */
const randomPassword = () => `${crypto.randomBytes(18).toString('base64url')}aA1!`;

function writeSecureState(st) {
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${SECURE_STATE}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, `${JSON.stringify(st, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, SECURE_STATE);
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


export { ROLES_TABLE, NODE_DN, ADMIN_DN, randomPassword, writeSecureState, makeCerts, bcrypt, ensureSecureState, rolesTable, renderedRoles, writeSecurityConfig, applyRolesTable };
