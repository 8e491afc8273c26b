#!/usr/bin/env node
/**
 * The `geoshard` executable (package.json "bin" → dist/cli/bin.js): runs the
 * built CLI with the process's arguments and exits with main()'s code.
 */
import { main } from './main.ts';

// `geoshard ... | head` closes the pipe early: stop quietly instead of crashing.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});
process.exitCode = await main(process.argv.slice(2));
