/**
 * docs/reference/environment.md, made from the one list of environment variables
 * (src/cluster/env.ts ENV_VARS): a section per reader, each variable under the first reader
 * its `scope` names.
 */
import { ENV_VARS, type EnvScope } from '../cluster/env.ts';

/** envReference returns the Markdown of docs/reference/environment.md, made from ENV_VARS. */
export function envReference(): string {
  const scopes: [EnvScope, string][] = [
    ['opensearch', 'Connection to OpenSearch (the CLI, the live API, the benches)'],
    ['server', 'The live API and the explorer (`npm start`, `src/server/main.ts`)'],
    ['cli', 'The CLI'],
    ['scripts', 'Scripts (`scripts/cluster.mjs`, `scripts/start.mjs`, `scripts/test.sh`)'],
    ['tests', 'The tests (`npm test`)'],
  ];
  let md = `# Environment variables

<!-- Generated from ENV_VARS in src/cluster/env.ts by \`npm run docs:reference\`: do not edit by hand. -->

Every variable geoshard reads. The code reads them through the one list in
[src/cluster/env.ts](../../src/cluster/env.ts), and a test fails when any file of \`src/\` or
\`scripts/\` reads one that is not in it. Secrets (\`OPENSEARCH_PASSWORD\`, \`OPENSEARCH_API_KEY\`,
credentials in \`OPENSEARCH_URL\`) never appear in output.
`;
  for (const [scope, title] of scopes) {
    const vars = ENV_VARS.filter((v) => (v.scope as readonly string[])[0] === scope);
    if (vars.length === 0) continue;
    md += `\n## ${title}\n\n| variable | default | meaning | read by |\n| --- | --- | --- | --- |\n`;
    for (const v of vars) md += `| \`${v.name}\` | ${v.default ? `\`${v.default}\`` : '—'} | ${v.description} | ${v.scope.join(', ')} |\n`;
  }
  return md;
}
