/**
 * Every reference made from the code, by path: the CLI reference, the environment
 * variables, the JSON Schemas of the boundary file and the config. `npm run docs:reference`
 * writes them (src/docs/generate.ts); src/docs/reference.test.ts fails when a committed file
 * differs from what this makes.
 */
import { cliReference } from '../cli/reference.ts';
import { envReference } from './environment.ts';
import { boundarySchema, BOUNDARY_SCHEMA_PATH } from '../core/boundarySchema.ts';
import { indexConfigSchema, CONFIG_SCHEMA_PATH } from '../opensearch/indexConfigSchema.ts';

export async function generatedReferences(): Promise<Record<string, string>> {
  return {
    'docs/reference/cli.md': await cliReference(),
    'docs/reference/environment.md': envReference(),
    [BOUNDARY_SCHEMA_PATH]: JSON.stringify(boundarySchema(), null, 2) + '\n',
    [CONFIG_SCHEMA_PATH]: JSON.stringify(indexConfigSchema(), null, 2) + '\n',
  };
}
