/**
 * The references made from the code: each committed file is exactly what the
 * code makes now (run `npm run docs:reference` after changing a command, an environment
 * variable or a schema rule); every environment variable the code and the scripts read is in
 * the one list; the schemas agree with the bundled files and the validators.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generatedReferences } from './reference.ts';
import { ENV_VARS } from '../cluster/env.ts';
import { ROOT } from '../cli/io.ts';
import { boundarySchema, LEVEL10_TOKEN_PATTERN } from '../core/boundarySchema.ts';
import { indexConfigSchema } from '../opensearch/indexConfigSchema.ts';
import { parseIndexConfig } from '../opensearch/indexConfig.ts';
import { cellFromOrdinal, cellToken, CELL_COUNT } from '../core/index.ts';

const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

describe('references made from the code', () => {
  it('are committed exactly as the code makes them (npm run docs:reference)', async () => {
    for (const [path, text] of Object.entries(await generatedReferences())) {
      expect(read(path), `${path} is stale: run npm run docs:reference`).toBe(text);
    }
  });

  it('publish the schemas in the package', () => {
    const files = (JSON.parse(read('package.json')) as { files: string[] }).files;
    expect(files).toContain('data/boundaries.schema.json');
    expect(files).toContain('data/config.schema.json');
  });
});

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

describe('environment variables', () => {
  /** Variables of the platform, not geoshard's. */
  const PLATFORM = new Set(['PATH', 'HOME', 'NODE_ENV', 'VITEST', 'CI', 'DEV', 'VITE_CONFIG_NATIVE_IGNORE_WARNING']);

  it('every one src/ and scripts/ read is in the one list, and src/ reads them through env()', () => {
    const listed = new Set<string>(ENV_VARS.map((v) => v.name));
    const files = [...walk(join(ROOT, 'src')), ...walk(join(ROOT, 'scripts'))].filter((f) => /\.(ts|tsx|mjs)$/.test(f) && !/\.test\.tsx?$|testutil/.test(f));
    const unlisted: string[] = [];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/(?<!import\.meta\.)\benv(?:\.|\[['"])([A-Z][A-Z0-9_]+)|\benv\(['"]([A-Z][A-Z0-9_]+)['"]/g)) {
        const name = m[1] ?? m[2];
        if (!listed.has(name) && !PLATFORM.has(name)) unlisted.push(`${relative(ROOT, f)}: ${name}`);
      }
      // Outside the connection's own reader (configFromEnv takes an environment to read) and the
      // scripts (plain Node, no TypeScript), src/ reads process.env only through env().
      if (f.includes(`${join(ROOT, 'src')}/`) && !f.endsWith('opensearch.ts') && !f.endsWith('env.ts')) {
        const direct = [...text.matchAll(/process\.env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]).filter((n) => !PLATFORM.has(n));
        expect(direct, `${relative(ROOT, f)} reads process.env directly`).toEqual([]);
      }
    }
    expect(unlisted).toEqual([]);
  });
});

describe('the JSON Schemas', () => {
  it('describe every field of the bundled boundary file, and its tokens and names match the patterns', () => {
    const schema = boundarySchema() as { required: string[]; properties: Record<string, { pattern?: string; items?: { properties?: Record<string, { pattern?: string }> } }> };
    const file = JSON.parse(read('data/boundaries.json')) as Record<string, unknown> & { boundaries: string[]; shards: { name: string }[] };
    for (const k of Object.keys(file)) expect(schema.properties[k], k).toBeDefined();
    for (const k of schema.required) expect(file[k], k).toBeDefined();
    for (const t of file.boundaries) expect(t).toMatch(LEVEL10_TOKEN_PATTERN);
    const name = new RegExp(schema.properties.shards.items!.properties!.name.pattern!);
    for (const s of file.shards) expect(s.name).toMatch(name);
    expect(file.index).toMatch(new RegExp(schema.properties.index.pattern!));
  });

  it('take every level-10 token (sampled across the curve) and no token of another level', () => {
    for (let k = 0; k < 5000; k++) expect(cellToken(cellFromOrdinal(Math.floor((k * CELL_COUNT) / 5000)))).toMatch(LEVEL10_TOKEN_PATTERN);
    for (const t of ['80858', '8085804', '808580', 'c08581', '89c25']) expect(t).not.toMatch(LEVEL10_TOKEN_PATTERN);
  });

  it('describe every key of the bundled configs, which may name the schema', () => {
    const schema = indexConfigSchema() as { properties: Record<string, unknown> };
    for (const p of ['data/places.config.json']) {
      const config = JSON.parse(read(p)) as Record<string, unknown>;
      for (const k of Object.keys(config)) expect(schema.properties[k], `${p}: ${k}`).toBeDefined();
      expect(() => parseIndexConfig(read(p), p)).not.toThrow();
    }
  });
});
