/**
 * The client's TLS: a real HTTPS server on 127.0.0.1 with a certificate from a throwaway CA made
 * with openssl (for the IP 127.0.0.1 only, so "localhost" is a host name it was not issued for).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenSearchClient } from './client.ts';
import { configFromEnv, INSECURE_WARNING } from './clientConfig.ts';
import { OpenSearchError } from './clientErrors.ts';

const dir = mkdtempSync(join(tmpdir(), 'geoshard-tls-'));
const ca = join(dir, 'ca.pem');
const otherCa = join(dir, 'other-ca.pem');
let server: Server;
let port = 0;
const PASSWORD = 'S3cret-not-to-print!';

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
}

beforeAll(async () => {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', '/CN=test CA', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign']);
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'other-key.pem', '-out', 'other-ca.pem', '-days', '2', '-subj', '/CN=other CA']);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'node-key.pem', '-out', 'node.csr', '-subj', '/CN=node']);
  writeFileSync(join(dir, 'node.ext'), 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  openssl(['x509', '-req', '-in', 'node.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial', '-out', 'node.pem', '-days', '2', '-extfile', 'node.ext']);
  server = createServer({ key: readFileSync(join(dir, 'node-key.pem')), cert: readFileSync(join(dir, 'node.pem')) }, (req, res) => {
    const auth = req.headers.authorization;
    if (auth !== `Basic ${Buffer.from(`u:${PASSWORD}`).toString('base64')}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { type: 'security_exception', reason: 'Unauthorized' }, status: 401 }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
}, 60_000);

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const client = (env: Record<string, string>) => new OpenSearchClient(configFromEnv({ OPENSEARCH_URL: `https://127.0.0.1:${port}`, OPENSEARCH_USERNAME: 'u', OPENSEARCH_PASSWORD: PASSWORD, ...env }));

async function failure(c: OpenSearchClient): Promise<OpenSearchError> {
  try {
    await c.get('/');
  } catch (e) {
    return e as OpenSearchError;
  } finally {
    await c.close();
  }
  throw new Error('the request succeeded');
}

describe('TLS', () => {
  it('trusts the CA file given in OPENSEARCH_CA', async () => {
    const c = client({ OPENSEARCH_CA: ca });
    expect(await c.get('/')).toEqual({ ok: true });
    await c.close();
  });

  it('refuses a certificate the system CAs do not trust: its own kind, naming the system CAs and how to give one, never "unreachable"', async () => {
    const e = await failure(client({}));
    expect(e.kind).toBe('tls');
    expect(e.unavailable).toBe(false);
    expect(e.message).toContain('its TLS certificate is not trusted');
    expect(e.message).toContain("Checked against the system's CAs (OPENSEARCH_CA is not set)");
    expect(e.message).toContain('OPENSEARCH_CA=/path/to/ca.pem');
    expect(e.message).not.toMatch(/unreachable/i);
    expect(e.message).not.toContain(PASSWORD);
  });

  it('refuses a certificate another CA signed, naming the CA file used', async () => {
    const e = await failure(client({ OPENSEARCH_CA: otherCa }));
    expect(e.kind).toBe('tls');
    expect(e.message).toContain(`Checked against the CA file ${otherCa} (OPENSEARCH_CA)`);
    expect(e.message).toContain('(the one given did not sign it)');
  });

  it('verifies the host name: a certificate for 127.0.0.1 is refused for "localhost", even with the right CA', async () => {
    const c = new OpenSearchClient(configFromEnv({ OPENSEARCH_URL: `https://localhost:${port}`, OPENSEARCH_CA: ca }));
    const e = await failure(c);
    expect(e.kind).toBe('tls');
    expect(e.message).toContain('The certificate is not made out for the host name "localhost');
  });

  it('OPENSEARCH_INSECURE=1 skips verification and warns every time a client is made', async () => {
    const writes: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (writes.push(String(s)), true));
    try {
      for (let i = 0; i < 2; i++) {
        const c = client({ OPENSEARCH_INSECURE: '1' });
        expect(await c.get('/')).toEqual({ ok: true });
        await c.close();
      }
    } finally {
      spy.mockRestore();
    }
    expect(writes.filter((w) => w.includes(INSECURE_WARNING))).toHaveLength(2);
  });

  it('a wrong password is a 401 naming the user and not the password', async () => {
    const wrong = 'Wrong-Pa55word';
    const e = await failure(client({ OPENSEARCH_CA: ca, OPENSEARCH_PASSWORD: wrong }));
    expect(e.status).toBe(401);
    expect(e.message).toContain('refused the credentials of user "u"');
    expect(e.message).not.toContain(wrong);
    expect(e.message).not.toContain(PASSWORD);
  });

  it('rejects a CA file that does not exist or holds no certificate, and an OPENSEARCH_INSECURE other than 0 or 1', () => {
    expect(() => configFromEnv({ OPENSEARCH_CA: join(dir, 'nope.pem') })).toThrow(/OPENSEARCH_CA ".*nope\.pem" cannot be used: no such file/);
    expect(() => configFromEnv({ OPENSEARCH_CA: join(dir, 'node.ext') })).toThrow(/holds no PEM certificate/);
    expect(() => configFromEnv({ OPENSEARCH_INSECURE: 'yes' })).toThrow(/OPENSEARCH_INSECURE "yes" is invalid: expected 1/);
    expect(configFromEnv({ OPENSEARCH_INSECURE: '0' }).insecure).toBeUndefined();
  });
});
