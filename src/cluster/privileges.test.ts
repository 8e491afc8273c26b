import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { commandTable, missingPrivilege, privilegeMessage, renderRoles, roleOf, rolesYaml, PRIVILEGED_COMMANDS } from './privileges.ts';
import { ROOT } from '../testing/testkit.ts';

// The reason the security plugin 2.19 sends with a 403 (copied from a refusal of the secured test node).
const REASON = 'no permissions for [indices:admin/create] and User [name=geoshard-pipeline, backend_roles=[], requestedTenant=null]';

describe('privileges', () => {
  it('reads the missing privilege and the user out of the security plugin refusal', () => {
    expect(missingPrivilege(REASON)).toEqual({ privilege: 'indices:admin/create', user: 'geoshard-pipeline' });
    expect(missingPrivilege('no permissions for [cluster:admin/ingest/pipeline/put]')).toEqual({ privilege: 'cluster:admin/ingest/pipeline/put', user: null });
    expect(missingPrivilege('index [x] blocked by: [FORBIDDEN/8/index write (api)]')).toBeNull();
  });

  it('turns a refusal into a sentence naming privilege, user, request and the command role', () => {
    const m = privilegeMessage(REASON, 'PUT /x on https://h:9200', 'reindex')!;
    expect(m).toBe('OpenSearch refused PUT /x on https://h:9200: user "geoshard-pipeline" lacks the privilege [indices:admin/create]: geoshard reindex needs the role "geoshard_reindex" (docs/security.md lists its privileges); grant it, or run as a user who holds it.');
    expect(privilegeMessage(REASON, 'GET /', null)).toContain('docs/security.md lists the role each geoshard command needs');
    expect(privilegeMessage('something else', 'GET /', 'cells')).toBeNull();
  });

  it('gives the read-only commands the built-in readall_and_monitor and the others a role of the table', () => {
    for (const c of ['cells', 'audit', 'search', 'explore'] as const) expect(roleOf(c)).toBe('readall_and_monitor');
    const roles = renderRoles(['team-*']);
    for (const c of PRIVILEGED_COMMANDS) if (roleOf(c) !== 'readall_and_monitor') expect(Object.keys(roles)).toContain(roleOf(c));
    expect(PRIVILEGED_COMMANDS).toEqual(['cells', 'audit', 'search', 'explore', 'write', 'pipeline', 'migrate', 'reindex', 'traffic']);
  });

  it('puts the team patterns and the lock index in place of the placeholders', () => {
    const r = renderRoles(['a-*', 'b'], 'locks')['geoshard_reindex'];
    expect(r.index_permissions.map((ip) => ip.index_patterns)).toEqual([['a-*', 'b'], ['locks']]);
    expect(JSON.stringify(renderRoles(['x']))).not.toMatch(/<indexes>|<lockIndex>/);
  });

  it('docs/security.md shows the table and the roles exactly as roles.json makes them', () => {
    const doc = readFileSync(resolve(ROOT, 'docs', 'security.md'), 'utf8');
    for (const c of commandTable()) expect(doc).toContain(`| ${c.command} | \`${c.role}\` | ${c.what} |`);
    expect(doc).toContain(rolesYaml(['team-*']));
  });
});
