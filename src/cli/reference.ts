/**
 * The CLI reference (docs/reference/cli.md), made from the commands themselves: each
 * command's summary and usage text, the options its parser takes (describeOptions), the
 * exit-code rule (EXIT_CODES) and the environment variables the CLI reads (ENV_VARS).
 * src/docs/reference.test.ts fails when the committed file differs from this.
 */
import { describeOptions } from './args.ts';
import { loadCommands, EXIT_CODES } from './main.ts';
import { ENV_VARS } from '../cluster/env.ts';

const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-');

/** cliReference returns the Markdown of docs/reference/cli.md. */
export async function cliReference(): Promise<string> {
  const commands = await loadCommands();
  let md = `# CLI reference

<!-- Generated from src/cli (each command's usage and parser options) by \`npm run docs:reference\`: do not edit by hand. -->

\`geoshard\` is the package's command line (\`npx geoshard …\` in a project that installs it).
Every command follows one convention:

- boundary files are named with \`--boundaries FILE\` (default \`data/boundaries.json\`), a second
  file to compare with \`--candidate FILE\`; the positional forms of 0.1 (\`diff CURRENT CANDIDATE\`,
  \`validate FILE\`, \`review CANDIDATE [CURRENT]\`, \`migrate --to/--from\`, …) still work for this
  release and print a notice on stderr naming the new form;
- \`--json\` prints the result as JSON on every command that prints a result (\`explore\` and
  \`review\` serve the explorer until Ctrl-C; \`pipeline --print\` prints JSON already);
- \`geoshard help CMD\`, \`geoshard CMD --help\` and \`-h\` print the command's usage;
  \`geoshard --version\` (\`-V\`) prints the version;
- an argument where an option is expected is refused with a hint naming the option
  (\`geoshard route 37.77 -122.42\` → \`did you mean: geoshard route --lat 37.77 --lng -122.42\`);
- results go to stdout, progress, notices and errors to stderr, one line each, no stack
  (\`GEOSHARD_DEBUG=1\` adds it for an internal error).

## Exit codes

| code | meaning |
| ---: | --- |
${EXIT_CODES.map((e) => `| ${e.code} | ${e.meaning} |`).join('\n')}

## Environment

| variable | default | meaning |
| --- | --- | --- |
${ENV_VARS.filter((v) => (v.scope as readonly string[]).some((s) => s === 'cli' || s === 'opensearch'))
  .map((v) => `| \`${v.name}\` | ${v.default ? `\`${v.default}\`` : '—'} | ${v.description} |`)
  .join('\n')}

The full list, with the server's and the scripts' variables: [environment.md](environment.md).

## Commands

| command | what it does |
| --- | --- |
${commands.map((c) => `| [\`${c.name}\`](#${anchor(`geoshard ${c.name}`)}) | ${c.summary.replace(/\|/g, '\\|')} |`).join('\n')}
`;
  for (const c of commands) {
    const spec = await describeOptions(c.run);
    const options = Object.entries(spec.options).sort(([a], [b]) => a.localeCompare(b));
    md += `
## geoshard ${c.name}

${c.summary.charAt(0).toUpperCase() + c.summary.slice(1)}.

\`\`\`text
${c.usage}
\`\`\`

Options the parser takes: ${options.map(([name, o]) => `\`--${name}\`${o.type === 'string' ? ' VALUE' : ''}`).join(', ')}${options.length ? ', ' : ''}\`--help\`.${
      spec.legacy?.positional ? ` Old positional form (this release only, with a notice): ${spec.legacy.positional.map((f) => f.toUpperCase()).join(' ')} for ${spec.legacy.positional.map((f) => `\`--${f}\``).join(', ')}.` : ''
    }${spec.legacy?.renamed ? ` Old names (this release only, with a notice): ${Object.entries(spec.legacy.renamed).map(([a, b]) => `\`--${a}\` for \`--${b}\``).join(', ')}.` : ''}
`;
  }
  return md;
}
