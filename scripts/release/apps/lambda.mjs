// @x/lambda as a Lambda function uses it: a snapshot taken from the registry, then a fresh client that reads only
// the snapshot (offline) decodes an Amazon MSK event through kafkaConsumer, making no request.
import { strict as assert } from 'node:assert'
import { AvroSerializer } from '@x/avro-serde'
import { kafkaConsumer } from '@x/lambda'
import { RegistryClient, takeSnapshot } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'

const schema = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [{ name: 'id', type: 'string' }],
}
const registry = await InMemoryRegistry.start()
try {
  const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
  const serializer = new AvroSerializer(writer, 'orders-value', { autoRegister: true, schema })
  const frame = Buffer.from(await serializer.serialize({ id: 'o-1' }, { topic: 'orders', field: 'value' }))
  const snapshot = await takeSnapshot(writer, [{ artifactId: 'orders-value' }])
  await writer.close()
  registry.clearRequests()
  const client = new RegistryClient({ url: registry.url, groupId: 'default', snapshot, offline: true })
  const handler = kafkaConsumer(async (event) => event.records.map((record) => record.value), { client })
  const record = { topic: 'orders', partition: 0, offset: 7, timestamp: 0, timestampType: 'CREATE_TIME' }
  const values = await handler(
    {
      eventSource: 'aws:kafka',
      records: { 'orders-0': [{ ...record, value: frame.toString('base64'), headers: [] }] },
    },
    {},
  )
  assert.deepEqual(
    values.map((value) => ({ ...value })),
    [{ id: 'o-1' }],
  )
  assert.equal(registry.requests.length, 0, 'a decode from the snapshot makes no request')
  await client.close()
  console.log(`lambda: ${frame.toString('hex')}`)
} finally {
  await registry.close()
}
