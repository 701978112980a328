import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createTableInput, tableDesign } from '../../shared/db/table-design.js';
import { db } from '../../shared/db/client.js';
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

describe('a table made by an earlier version', () => {
  it('gets the indexes the design added since when the service starts, each with its projection, and they serve queries', async () => {
    const name = `older-${Date.now()}`;
    const [first, ...added] = tableDesign.globalIndexes;
    const full = createTableInput(name);
    const olderKeys = new Set<string>([tableDesign.partitionKey, tableDesign.sortKey, first!.partitionKey, first!.sortKey]);
    const older = {
      ...full,
      AttributeDefinitions: full.AttributeDefinitions!.filter((definition) => olderKeys.has(definition.AttributeName!)),
      GlobalSecondaryIndexes: full.GlobalSecondaryIndexes!.filter((index) => index.IndexName === first!.indexName),
    };
    await db.send(new CreateTableCommand(older));
    try {
      expect(await ensureTable(db, name)).toBe('existed');
      const { Table } = await db.send(new DescribeTableCommand({ TableName: name }));
      const indexes = Object.fromEntries((Table!.GlobalSecondaryIndexes ?? []).map((index) => [index.IndexName, index.Projection?.ProjectionType]));
      expect(indexes).toEqual(Object.fromEntries(tableDesign.globalIndexes.map((index) => [index.indexName, index.projection])));
      expect(added.length).toBeGreaterThan(0);
      const last = added[added.length - 1]!;
      await db.send(new PutCommand({ TableName: name, Item: { pk: 'a', sk: 'b', [last.partitionKey]: 'p', [last.sortKey]: 's', value: 1 } }));
      const found = await db.send(new QueryCommand({ TableName: name, IndexName: last.indexName, KeyConditionExpression: '#pk = :pk', ExpressionAttributeNames: { '#pk': last.partitionKey }, ExpressionAttributeValues: { ':pk': 'p' } }));
      expect(found.Items?.map((item) => item.sk)).toEqual(['b']);
      // Run again, it changes nothing.
      expect(await ensureTable(db, name)).toBe('existed');
    } finally {
      await db.send(new DeleteTableCommand({ TableName: name }));
    }
  });
});
