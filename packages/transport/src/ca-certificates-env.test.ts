// NODE_EXTRA_CA_CERTS: a package runner inherits it (its download may cross a TLS-inspecting
// proxy); any other stdio server does not, since every Node child would parse the bundle at start.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureBinPath } from '@toolhost-internal/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { connectTransport, type ConnectedTransport } from './connect-transport.js';
import { firstText, newClient } from './test-helpers.js';

const folder = mkdtempSync(join(tmpdir(), 'toolhost-ca-env-'));
const bundle = join(folder, 'proxy-authority.pem');
writeFileSync(bundle, '');
const open: ConnectedTransport[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((connection) => connection.close()));
});

/** The environment the basic fixture saw, started as `command args`, with `inherited` as the host's environment. */
async function envOf(
  command: string,
  args: string[],
  inherited: Record<string, string>,
  environment?: { allow?: string[]; block?: string[] },
): Promise<Record<string, string>> {
  const client = newClient();
  const connection = await connectTransport({
    serverName: 'env',
    config: { command, args },
    client,
    env: inherited,
    ...(environment ? { environment } : {}),
    closeGraceMs: 300,
  });
  open.push(connection);
  return JSON.parse(firstText(await client.callTool({ name: 'env', arguments: {} }))) as Record<string, string>;
}

describe('NODE_EXTRA_CA_CERTS in a stdio server', () => {
  const inherited = { PATH: process.env.PATH ?? '', NODE_EXTRA_CA_CERTS: bundle, SSL_CERT_FILE: bundle };

  it('is not inherited by a server started directly; the other certificate variables are', async () => {
    const seen = await envOf(process.execPath, [fixtureBinPath('basic')], inherited);
    expect(seen).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
    expect(seen.SSL_CERT_FILE).toBe(bundle);
  });

  it('is inherited when the entry names it in environment.allow', async () => {
    const seen = await envOf(process.execPath, [fixtureBinPath('basic')], inherited, { allow: ['NODE_EXTRA_CA_CERTS'] });
    expect(seen.NODE_EXTRA_CA_CERTS).toBe(bundle);
  });

  it.runIf(process.platform !== 'win32')('is inherited by a server started through a package runner (npx), unless blocked', async () => {
    // A program named npx that starts the fixture, as `npx -y <package>` would once installed.
    const bin = mkdtempSync(join(folder, 'bin-'));
    const npx = join(bin, 'npx');
    writeFileSync(npx, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(fixtureBinPath('basic'))}\n`);
    chmodSync(npx, 0o755);
    const seen = await envOf(npx, ['-y', 'some-server'], inherited);
    expect(seen.NODE_EXTRA_CA_CERTS).toBe(bundle);
    const blocked = await envOf(npx, ['-y', 'some-server'], inherited, { block: ['NODE_EXTRA_CA_CERTS'] });
    expect(blocked).not.toHaveProperty('NODE_EXTRA_CA_CERTS');
  });
});
