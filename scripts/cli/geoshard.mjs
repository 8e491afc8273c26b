#!/usr/bin/env node
// The `geoshard` command (package.json "bin"): runs the TypeScript CLI in src/cli through tsx.
import { register } from 'tsx/esm/api';

register();
// `geoshard ... | head` closes the pipe early: stop quietly instead of crashing.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
const { main } = await import('../../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
