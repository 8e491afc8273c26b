/**
 * The OpenSearch security roles geoshard's commands need (the one table, roles.json, shown in
 * docs/security.md and created by `scripts/cluster.mjs start --secure`), and the refusal a
 * missing privilege turns into: which privilege, which user, which command and its role.
 *
 * Pure data and strings: the checks that probe a cluster are in privilegeChecks.ts.
 */
import table from './roles.json' with { type: 'json' };

/** A command (or part of the HTTP API) with a documented role. */
export type PrivilegedCommand = keyof typeof table.commands;

/** The commands of the table, in its order. */
export const PRIVILEGED_COMMANDS = Object.keys(table.commands) as PrivilegedCommand[];

/** One role as the security plugin's REST API takes it (`PUT _plugins/_security/api/roles/<name>`). */
export interface SecurityRole {
  description: string;
  cluster_permissions: string[];
  index_permissions: { index_patterns: string[]; allowed_actions: string[] }[];
}

/** The index that holds geoshard's migration and reindex locks (GEOSHARD_LOCK_INDEX overrides it). */
export const LOCK_INDEX_OF_TABLE = table.lockIndex;

/** The role `command` needs (a role of the table, or the plugin's built-in `readall_and_monitor`). */
export function roleOf(command: PrivilegedCommand): string {
  return table.commands[command].role;
}

/**
 * The table's roles with `<indexes>` replaced by the team's index patterns (its indexes and the
 * aliases clients use, e.g. ["restaurants*"]) and `<lockIndex>` by the lock index: what a team pastes.
 */
export function renderRoles(indexPatterns: readonly string[], lockIndex: string = LOCK_INDEX_OF_TABLE): Record<string, SecurityRole> {
  const out: Record<string, SecurityRole> = {};
  for (const [name, r] of Object.entries(table.roles)) {
    out[name] = {
      description: r.description,
      cluster_permissions: [...r.cluster_permissions],
      index_permissions: r.index_permissions.map((ip) => ({
        index_patterns: ip.index_patterns.flatMap((x) => (x === '<indexes>' ? [...indexPatterns] : x === '<lockIndex>' ? [lockIndex] : [x])),
        allowed_actions: [...ip.allowed_actions],
      })),
    };
  }
  return out;
}

let current: PrivilegedCommand | null = null;

/** Names the command this process runs, so a refusal names its role (the CLI sets it before a command runs). */
export function setPrivilegedCommand(command: PrivilegedCommand | null): void {
  current = command;
}

/** The command set by setPrivilegedCommand, or null. */
export function privilegedCommand(): PrivilegedCommand | null {
  return current;
}

/** The privilege and user of a security plugin refusal ("no permissions for [X] and User [name=Y, ...]"), or null. */
export function missingPrivilege(reason: string): { privilege: string; user: string | null } | null {
  const m = /no permissions for \[([^\]]*)\](?: and User \[name=([^,\]]*))?/.exec(reason);
  if (!m) return null;
  return { privilege: m[1], user: m[2] ?? null };
}

/** What to tell the user about the role of the command running (or of every command). */
export function roleAdvice(command: PrivilegedCommand | null = current): string {
  if (command) return `${command === 'search' || command === 'write' ? `the HTTP API's ${command}` : `geoshard ${command}`} needs the role "${roleOf(command)}" (docs/security.md lists its privileges)`;
  return 'docs/security.md lists the role each geoshard command needs';
}

/**
 * privilegeMessage turns a 403 of the security plugin into a sentence naming the missing
 * privilege, the user, the request and the role to grant; null when `reason` is not one.
 */
export function privilegeMessage(reason: string, where: string, command: PrivilegedCommand | null = current): string | null {
  const m = missingPrivilege(reason);
  if (!m) return null;
  return `OpenSearch refused ${where}: ${m.user ? `user "${m.user}"` : 'the user'} lacks the privilege [${m.privilege}]: ${roleAdvice(command)}; grant it, or run as a user who holds it.`;
}

/**
 * The table's roles in the security plugin's roles.yml form (for `securityadmin.sh`, or a
 * managed service's console), for the team's index patterns; docs/security.md shows it for "team-*".
 */
export function rolesYaml(indexPatterns: readonly string[], lockIndex: string = LOCK_INDEX_OF_TABLE): string {
  const q = (x: string) => JSON.stringify(x);
  return Object.entries(renderRoles(indexPatterns, lockIndex))
    .map(([name, r]) =>
      [
        `${name}:`,
        `  description: ${q(r.description)}`,
        '  cluster_permissions:',
        ...r.cluster_permissions.map((p) => `    - ${q(p)}`),
        '  index_permissions:',
        ...r.index_permissions.flatMap((ip) => [`    - index_patterns: [${ip.index_patterns.map(q).join(', ')}]`, '      allowed_actions:', ...ip.allowed_actions.map((a) => `        - ${q(a)}`)]),
      ].join('\n'),
    )
    .join('\n');
}

/** The role mapping a team adds per role (roles_mapping.yml form): the role to the users or backend roles that run the command. */
export function commandTable(): { command: PrivilegedCommand; role: string; what: string }[] {
  return PRIVILEGED_COMMANDS.map((command) => ({ command, role: roleOf(command), what: table.commands[command].what }));
}
