/**
 * Helpers for the secured live tests (*.secure.test.ts): the secured node that
 * `scripts/cluster.mjs start --secure` runs (TLS from its own CA, the security plugin, the roles
 * of roles.json and one user per role), reached through the environment that
 * `node scripts/cluster.mjs env --secure` prints (OPENSEARCH_URL, OPENSEARCH_CA,
 * GEOSHARD_SECURE_STATE: the credentials file), and the `geoshard` CLI run as one of its users.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { OpenSearchClient } from '../cluster/client.ts';
import { renderRoles, type SecurityRole } from '../cluster/privileges.ts';
import { ROOT } from './testkit.ts';
import { env } from '../cluster/env.ts';
import { configFromEnv } from '../cluster/clientConfig.ts';

/** The secured node's credentials file (written by cluster.mjs, root only). */
export interface SecureState {
  url: string;
  ca: string;
  admin: { username: string; password: string };
  /** One user per role of the table, and one for the built-in readall_and_monitor, by role name. */
  users: Record<string, { username: string; password: string }>;
}

/** The secured node of GEOSHARD_SECURE_STATE; throws naming the command that starts it when it is not set. */
export function secureNode(): SecureState {
  const file = env('GEOSHARD_SECURE_STATE');
  if (!file) throw new Error('GEOSHARD_SECURE_STATE is not set: start the secured node (node scripts/cluster.mjs start --secure) and eval "$(node scripts/cluster.mjs env --secure)"');
  return JSON.parse(readFileSync(file, 'utf8')) as SecureState;
}

/** Every password of the secured node: none may appear in any output. */
export function secrets(st: SecureState = secureNode()): string[] {
  return [st.admin.password, ...Object.values(st.users).map((u) => u.password)];
}

/** The environment of a process that reaches the secured node as `user` (CA given, no other OpenSearch variable). */
export function userEnv(user: { username: string; password: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('OPENSEARCH_') && k !== 'NODE_EXTRA_CA_CERTS') env[k] = v;
  const st = secureNode();
  return { ...env, OPENSEARCH_URL: st.url, OPENSEARCH_CA: st.ca, OPENSEARCH_USERNAME: user.username, OPENSEARCH_PASSWORD: user.password, ...extra };
}

/** A client of the secured node as `user` (admin by default). */
export function secureClient(user: { username: string; password: string } = secureNode().admin): OpenSearchClient {
  return new OpenSearchClient(configFromEnv(userEnv(user)));
}

/** The result of one CLI run. */
export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** runCli runs the built `geoshard` CLI (dist/cli/bin.js) with `env` in `cwd`. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd = ROOT): CliRun {
  const r = spawnSync(process.execPath, [resolve(ROOT, 'dist', 'cli', 'bin.js'), ...args], { env, cwd, encoding: 'utf8', timeout: 300_000 });
  return { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

/**
 * userWithout creates (as admin) a role that is `role` of the table less one privilege — an
 * action removed from its cluster or index permissions — and a user holding exactly it; returns
 * the user. Patterns as the node's roles (GEOSHARD_SECURE_INDEXES, default "*").
 */
export async function userWithout(role: string, privilege: string, admin: OpenSearchClient): Promise<{ username: string; password: string }> {
  const patterns = (env('GEOSHARD_SECURE_INDEXES') || '*').split(',').map((x) => x.trim());
  const base: SecurityRole = renderRoles(patterns)[role];
  if (!base) throw new Error(`no role ${role} in roles.json`);
  const inCluster = base.cluster_permissions.includes(privilege);
  const inIndex = base.index_permissions.some((ip) => ip.allowed_actions.includes(privilege));
  if (!inCluster && !inIndex) throw new Error(`role ${role} has no privilege ${privilege} to remove`);
  const less: SecurityRole = {
    description: `${base.description}, without ${privilege} (a test)`,
    cluster_permissions: base.cluster_permissions.filter((p) => p !== privilege),
    index_permissions: base.index_permissions.map((ip) => ({ ...ip, allowed_actions: ip.allowed_actions.filter((p) => p !== privilege) })),
  };
  const name = `${role}_without_${privilege.replace(/[^a-z0-9]+/gi, '_')}`.toLowerCase();
  const username = name.replace(/_/g, '-');
  const password = `${Math.random().toString(36).slice(2)}Aa1!${Math.random().toString(36).slice(2)}`;
  const api = '/_plugins/_security/api';
  await admin.request('PUT', `${api}/roles/${name}`, { body: less });
  await admin.request('PUT', `${api}/internalusers/${username}`, { body: { password } });
  await admin.request('PUT', `${api}/rolesmapping/${name}`, { body: { users: [username] } });
  return { username, password };
}
