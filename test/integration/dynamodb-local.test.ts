import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/db/client.js';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.js';
import { ensureTable } from '../../shared/local/table-setup.js';

/** This machine's IPv4 addresses other than loopback. */
function otherAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry.address);
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('DynamoDB Local launcher', () => {
  it('keeps data in its data folder (owner-only) across a restart, listens on loopback only, and stops its JVM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ddb-'));
    const first = await startDynamoDbLocal({ dataDir });
    const client = createDocumentClient(first.endpoint, 'local');
    expect(await ensureTable(client, 'persist')).toBe('created');
    await client.send(new PutCommand({ TableName: 'persist', Item: { pk: 'a', sk: 'b', value: 42 } }));
    client.destroy();
    // The data is readable by its owner only.
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) expect(statSync(join(dataDir, name)).mode & 0o077).toBe(0);
    // It listens on loopback only: the machine's other addresses refuse the port.
    for (const address of otherAddresses()) expect(await connects(address, first.port)).toBe(false);
    expect(await connects('127.0.0.1', first.port)).toBe(true);
    await first.stop();
    await expect(fetch(first.endpoint)).rejects.toThrow();

    const second = await startDynamoDbLocal({ dataDir });
    const again = createDocumentClient(second.endpoint, 'local');
    try {
      expect(await ensureTable(again, 'persist')).toBe('existed');
      const item = await again.send(new GetCommand({ TableName: 'persist', Key: { pk: 'a', sk: 'b' } }));
      expect(item.Item?.value).toBe(42);
    } finally {
      again.destroy();
      await second.stop();
    }
  }, 90_000);
});
