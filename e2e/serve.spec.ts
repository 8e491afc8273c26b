/**
 * What `npm start` serves (the e2e web server is `node scripts/start.mjs`): the built explorer and
 * the live API on one origin, and nothing else: no CORS headers on /api for a foreign origin, no
 * project sources, and no path on the server's disk in any error page.
 */
import { test, expect } from '@playwright/test';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

test('serves the built explorer, not the dev server', async ({ request }) => {
  const page = await request.get('/');
  expect(page.status()).toBe(200);
  const html = await page.text();
  expect(html).toMatch(/<script type="module"[^>]*src="\/assets\/index-[^"]+\.js"/);
  expect(html).not.toContain('/@vite/client');
  expect(html).not.toContain('/src/');
});

test('sends no CORS headers on /api for a foreign Origin', async ({ request }) => {
  for (const path of ['/api/status', '/api/search?lat=0x10&lng=0&radius=1km', '/api/nope']) {
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5399', 'https://evil.example']) {
      const res = await request.get(path, { headers: { Origin: origin } });
      const headers = res.headers();
      expect(headers['access-control-allow-origin'], `${path} from ${origin}`).toBeUndefined();
      expect(headers['access-control-allow-credentials'], `${path} from ${origin}`).toBeUndefined();
    }
    const preflight = await request.fetch(path, { method: 'OPTIONS', headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' } });
    expect(preflight.headers()['access-control-allow-origin']).toBeUndefined();
  }
});

test('serves no project sources and no file outside the build', async ({ request }) => {
  for (const path of ['/src/server/opensearch.ts?raw', '/src/server/opensearch.ts', '/src/app/main.tsx', '/package.json', '/vite.config.ts', '/node_modules/vite/package.json', '/@fs/etc/passwd', '/@vite/client', '/data/nope.json', '/data/../package.json', '/assets/../package.json', '/%2e%2e/package.json']) {
    const res = await request.get(path, { headers: { Accept: 'text/html,*/*' } });
    expect(res.status(), path).toBe(404);
    const body = await res.text();
    expect(body, path).not.toContain('import ');
    expect(body, path).not.toContain('"dependencies"');
  }
});

test('serves the data folder’s boundary and cells files, so ?boundaries=/data/<file>.json keeps working', async ({ request }) => {
  const res = await request.get('/data/boundaries.json');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('application/json');
  expect((await res.json()).numberOfShards).toBeGreaterThan(0);
});

test('puts no filesystem path in error pages', async ({ request }) => {
  for (const path of ['/nope.js', '/src/x.ts', '/%E0%A4%A', '/api/nope', '/api/search?lat=1', '/api/status']) {
    const res = await request.get(path, { headers: { Accept: 'text/html,*/*' } });
    const body = await res.text();
    expect(body, path).not.toContain(ROOT);
    expect(body, path).not.toMatch(/\/(root|home|work|tmp|usr|var)\//);
  }
});
