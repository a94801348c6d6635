// The seed article "Adjacency List pattern" (e-commerce, table EcommerceData) through the
// DocumentClient, as the article intends it: its items attribute for attribute, its `params`
// objects sent as they are written (GetCommand / QueryCommand), and its write-sharding example.
// Patterns 2 and 5 need the article's GSI1: expected failures until partstore has GSIs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';

import { CreateTableCommand, DeleteTableCommand, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';

import { makeClients, startServer } from './server.mjs';

let server;
let client;
let docClient;
// This file has a server of its own, so the article's table name is free.
const TABLE_NAME = 'EcommerceData';

const ITEMS = [
  // 1. User entities
  { PK: 'USER#12345', SK: 'USER#12345', Type: 'User', userId: '12345', name: 'John Doe',
    email: 'john@example.com', userType: 'customer', GSI1PK: 'USER', GSI1SK: '2024-01-15T10:30:00Z' },
  { PK: 'USER#67890', SK: 'USER#67890', Type: 'User', userId: '67890', name: 'TechStore Inc',
    email: 'contact@techstore.com', userType: 'seller', GSI1PK: 'USER', GSI1SK: '2024-01-10T08:15:00Z' },
  // 2. Product entities
  { PK: 'PRODUCT#ABC123', SK: 'PRODUCT#ABC123', Type: 'Product', productId: 'ABC123',
    name: 'Wireless Headphones', price: 199.99, description: 'Premium wireless headphones',
    sellerId: '67890', GSI1PK: 'PRODUCT', GSI1SK: '2024-01-16T14:20:00Z' },
  // 3. Category entities and relationships
  { PK: 'CATEGORY#electronics', SK: 'CATEGORY#electronics', Type: 'Category', categoryId: 'electronics',
    name: 'Electronics', description: 'Electronic devices and accessories' },
  { PK: 'PRODUCT#ABC123', SK: 'CATEGORY#electronics', Type: 'ProductCategory', productId: 'ABC123',
    categoryId: 'electronics', GSI1PK: 'CATEGORY#electronics', GSI1SK: 'PRODUCT#ABC123' },
  // 4. Order entities and relationships
  { PK: 'ORDER#ORD001', SK: 'ORDER#ORD001', Type: 'Order', orderId: 'ORD001', customerId: '12345',
    total: 199.99, status: 'shipped', orderDate: '2024-01-20T12:00:00Z', GSI1PK: 'USER#12345',
    GSI1SK: 'ORDER#2024-01-20T12:00:00Z' },
  { PK: 'ORDER#ORD001', SK: 'PRODUCT#ABC123', Type: 'OrderItem', orderId: 'ORD001', productId: 'ABC123',
    quantity: 1, unitPrice: 199.99, totalPrice: 199.99, GSI1PK: 'PRODUCT#ABC123', GSI1SK: 'ORDER#ORD001' },
  // 5. Review entities and relationships
  { PK: 'REVIEW#REV001', SK: 'REVIEW#REV001', Type: 'Review', reviewId: 'REV001', customerId: '12345',
    productId: 'ABC123', rating: 5, comment: 'Excellent sound quality!',
    reviewDate: '2024-01-25T09:30:00Z', CreatedAt: '2024-01-25T09:30:00Z' },
  { PK: 'USER#12345', SK: 'REVIEW#REV001', Type: 'UserReview', customerId: '12345', reviewId: 'REV001',
    GSI1PK: 'REVIEW#REV001', GSI1SK: 'USER#12345', CreatedAt: '2024-01-25T09:30:00Z' },
  { PK: 'PRODUCT#ABC123', SK: 'REVIEW#REV001', Type: 'ProductReview', productId: 'ABC123',
    reviewId: 'REV001', rating: 5, GSI1PK: 'REVIEW#REV001', GSI1SK: 'PRODUCT#ABC123',
    CreatedAt: '2024-01-25T09:30:00Z' },
  // Advanced patterns: product-tag, sub-category, price history
  { PK: 'PRODUCT#ABC123', SK: 'TAG#wireless', Type: 'ProductTag', productId: 'ABC123', tagName: 'wireless',
    GSI1PK: 'TAG#wireless', GSI1SK: 'PRODUCT#ABC123', CreatedAt: '2024-01-16T14:20:00Z' },
  { PK: 'CATEGORY#electronics', SK: 'CHILD#headphones', Type: 'CategoryChild',
    parentCategoryId: 'electronics', childCategoryId: 'headphones', childName: 'Headphones',
    GSI1PK: 'CATEGORY#headphones', GSI1SK: 'PARENT#electronics', CreatedAt: '2024-01-01T00:00:00Z' },
  { PK: 'PRODUCT#ABC123', SK: 'PRICE#2024-01-20T10:00:00Z', Type: 'PriceHistory', productId: 'ABC123',
    price: 199.99, timestamp: '2024-01-20T10:00:00Z' },
  // Relationship 5 "CustomerOrder" (PK USER#xxx, SK ORDER#xxx): named and queried (pattern 8) by
  // the article without an attribute list; these are the order's.
  { PK: 'USER#12345', SK: 'ORDER#ORD001', Type: 'CustomerOrder', customerId: '12345', orderId: 'ORD001',
    total: 199.99, status: 'shipped', orderDate: '2024-01-20T12:00:00Z' },
];

const item = (PK, SK) => ITEMS.find((i) => i.PK === PK && i.SK === SK);

async function createTable(TableName, withGsi1) {
  const AttributeDefinitions = [
    { AttributeName: 'PK', AttributeType: 'S' }, { AttributeName: 'SK', AttributeType: 'S' }];
  const extra = {};
  if (withGsi1) {
    AttributeDefinitions.push({ AttributeName: 'GSI1PK', AttributeType: 'S' },
      { AttributeName: 'GSI1SK', AttributeType: 'S' });
    extra.GlobalSecondaryIndexes = [{
      IndexName: 'GSI1',
      KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }, { AttributeName: 'GSI1SK', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'ALL' },
    }];
  }
  await client.send(new CreateTableCommand({
    TableName, BillingMode: 'PAY_PER_REQUEST', AttributeDefinitions,
    KeySchema: [{ AttributeName: 'PK', KeyType: 'HASH' }, { AttributeName: 'SK', KeyType: 'RANGE' }],
    ...extra,
  }));
  await waitUntilTableExists({ client, minDelay: 1, maxDelay: 1, maxWaitTime: 20 }, { TableName });
  for (let i = 0; i < ITEMS.length; i += 25) {
    const response = await docClient.send(new BatchWriteCommand({
      RequestItems: { [TableName]: ITEMS.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) },
    }));
    assert.deepEqual(response.UnprocessedItems, {});
  }
}

before(async () => {
  server = await startServer();
  ({ client, doc: docClient } = makeClients(server.endpoint));
  await createTable(TABLE_NAME, false);
});

after(async () => {
  client?.destroy();
  await server?.stop();
});

test('1. Get user details', async () => {
  const params = {
    TableName: 'EcommerceData',
    Key: {
      PK: 'USER#12345',
      SK: 'USER#12345',
    },
  };
  const { Item } = await docClient.send(new GetCommand(params));
  assert.deepEqual(Item, item('USER#12345', 'USER#12345'));
});

test('3. Get product with reviews', async () => {
  // First get the product
  const productParams = {
    TableName: 'EcommerceData',
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: {
      ':pk': 'PRODUCT#ABC123',
    },
  };
  // This returns the product and all its relationships (reviews, categories, etc.)
  const { Items } = await docClient.send(new QueryCommand(productParams));
  assert.deepEqual(Items.map((i) => i.SK), [
    'CATEGORY#electronics', 'PRICE#2024-01-20T10:00:00Z', 'PRODUCT#ABC123', 'REVIEW#REV001', 'TAG#wireless']);
  assert.deepEqual(Items[2], item('PRODUCT#ABC123', 'PRODUCT#ABC123'));
  assert.equal(Items[2].price, 199.99);
});

test('4. Get recent reviews for a product', async () => {
  const params = {
    TableName: 'EcommerceData',
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: {
      ':pk': 'PRODUCT#ABC123',
      ':sk': 'REVIEW#',
    },
    ScanIndexForward: false, // Get most recent first
    Limit: 10,
  };
  const response = await docClient.send(new QueryCommand(params));
  assert.deepEqual(response.Items, [item('PRODUCT#ABC123', 'REVIEW#REV001')]);
  assert.equal(response.LastEvaluatedKey, undefined);
});

test('6. Get order with all items', async () => {
  const params = {
    TableName: 'EcommerceData',
    KeyConditionExpression: 'PK = :pk',
    ExpressionAttributeValues: {
      ':pk': 'ORDER#ORD001',
    },
  };
  // Returns order details and all order items in a single query
  const { Items, Count } = await docClient.send(new QueryCommand(params));
  assert.equal(Count, 2);
  assert.deepEqual(Items, [item('ORDER#ORD001', 'ORDER#ORD001'), item('ORDER#ORD001', 'PRODUCT#ABC123')]);
});

test("7. Get customer's reviews", async () => {
  const TABLE_NAME = 'EcommerceData';
  const customerId = '12345';
  const params = {
    TableName: TABLE_NAME,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: {
      ':pk': `USER#${customerId}`,
      ':sk': 'REVIEW#',
    },
  };
  const { Items } = await docClient.send(new QueryCommand(params));
  assert.deepEqual(Items, [item('USER#12345', 'REVIEW#REV001')]);
});

test("8. Get customer's orders (alternative pattern)", async () => {
  const TABLE_NAME = 'EcommerceData';
  const userId = '12345';
  const params = {
    TableName: TABLE_NAME,
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: {
      ':pk': `USER#${userId}`,
      ':sk': 'ORDER#',
    },
  };
  const { Items } = await docClient.send(new QueryCommand(params));
  assert.deepEqual(Items, [item('USER#12345', 'ORDER#ORD001')]);
});

test('write sharding for a high-traffic entity (the article\'s example), read back from all shards', async () => {
  // The article's TypeScript, as JavaScript.
  function getShardKey(baseKey, numShards) {
    // Choose a random shard suffix
    const shardId = Math.floor(Math.random() * numShards);
    return `${baseKey}#SHARD${shardId}`;
  }
  let sequence = 0;
  async function writeShardedEntity(entityId, activityData, numShards) {
    const pk = getShardKey(`USER#${entityId}`, numShards);
    // (Date.now() plus a sequence number: 40 writes in the same millisecond must not collide.)
    const sk = `ACTIVITY#${Date.now()}#${String(sequence++).padStart(3, '0')}`;
    const item = {
      PK: pk,
      SK: sk,
      Type: 'UserActivity',
      userId: entityId,
      action: activityData.action,
      productId: activityData.productId,
      timestamp: Date.now(),
      CreatedAt: new Date().toISOString(),
    };
    await docClient.send(new PutCommand({
      TableName: 'EcommerceData',
      Item: item,
    }));
  }
  // Usage
  for (let i = 0; i < 40; i++) {
    await writeShardedEntity('12345', { action: 'purchase', productId: 'ABC123' }, 5);
  }
  // "when reading, you aggregate data from all shards"
  const shards = await Promise.all([0, 1, 2, 3, 4].map((n) => docClient.send(new QueryCommand({
    TableName: 'EcommerceData',
    KeyConditionExpression: 'PK = :pk AND begins_with(SK, :sk)',
    ExpressionAttributeValues: { ':pk': `USER#12345#SHARD${n}`, ':sk': 'ACTIVITY#' },
  }))));
  const activities = shards.flatMap((s) => s.Items);
  assert.equal(activities.length, 40);
  assert.ok(activities.every((a) => a.Type === 'UserActivity' && a.action === 'purchase'));
  assert.ok(shards.filter((s) => s.Count > 0).length >= 2, 'random suffixes spread the writes');
  // The user's own item collection is untouched by the sharded writes.
  const { Items } = await docClient.send(new QueryCommand({
    TableName: 'EcommerceData', KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': 'USER#12345' },
  }));
  assert.deepEqual(Items.map((i) => i.SK), ['ORDER#ORD001', 'REVIEW#REV001', 'USER#12345']);
});

test('2. and 5. through GSI1', async () => {
    const name = 'EcommerceDataGSI';
    await createTable(name, true);
    try {
      // 2. Get User's Orders (with order details)
      const orders = await docClient.send(new QueryCommand({
        TableName: name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :sk)',
        ExpressionAttributeValues: {
          ':pk': 'USER#12345',
          ':sk': 'ORDER#',
        },
      }));
      assert.deepEqual(orders.Items, [item('ORDER#ORD001', 'ORDER#ORD001')]);
      // 5. Get Products in Category
      const products = await docClient.send(new QueryCommand({
        TableName: name,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk AND begins_with(GSI1SK, :sk)',
        ExpressionAttributeValues: {
          ':pk': 'CATEGORY#electronics',
          ':sk': 'PRODUCT#',
        },
      }));
      assert.deepEqual(products.Items, [item('PRODUCT#ABC123', 'CATEGORY#electronics')]);
    } finally {
      await client.send(new DeleteTableCommand({ TableName: name })).catch(() => {});
    }
  });
