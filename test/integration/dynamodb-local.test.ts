import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/db/client.js';
import { startDynamoDbLocal } from '../../shared/local/dynamodb-local.js';
import { ensureTable } from '../../shared/local/table-setup.js';

describe('DynamoDB Local launcher', () => {
  it('keeps data in its data folder across a restart and stops its JVM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ddb-'));
    const first = await startDynamoDbLocal({ dataDir });
    const client = createDocumentClient(first.endpoint, 'local');
    expect(await ensureTable(client, 'persist')).toBe('created');
    await client.send(new PutCommand({ TableName: 'persist', Item: { pk: 'a', sk: 'b', value: 42 } }));
    client.destroy();
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
