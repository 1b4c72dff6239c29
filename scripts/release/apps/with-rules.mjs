// @x/serde with @x/rules installed beside it (and @x/registry-testing for the registry): serdes with rules enabled
// load the engine through @x/serde-core, whatever the client laid out node_modules: a WRITE condition (CEL) refuses
// a record with RuleViolationError, and a READ transform (JSONata) masks a field.
import { strict as assert } from 'node:assert'
import { AvroDeserializer, AvroSerializer, RegistryClient, SerializationContext } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'

const schema = {
  type: 'record',
  name: 'Order',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'card', type: 'string' },
  ],
}
const registry = await InMemoryRegistry.start()
const client = new RegistryClient({ url: registry.url, groupId: 'default' })
try {
  const plain = new AvroSerializer(client, 'orders-value', { autoRegister: true, schema })
  const ctx = new SerializationContext('orders', 'value')
  const bytes = await plain.serialize({ id: 'o-1', card: '4111' }, ctx)
  await client.setArtifactRuleset('orders-value', {
    domainRules: [
      {
        name: 'short-id',
        kind: 'CONDITION',
        type: 'CEL',
        mode: 'WRITE',
        expr: 'size(id) < 4',
        onFailure: 'ERROR',
      },
      {
        name: 'mask-card',
        kind: 'TRANSFORM',
        type: 'JSONATA',
        mode: 'READ',
        expr: '$merge([$, { "card": "****" }])',
        onFailure: 'ERROR',
      },
    ],
    migrationRules: [],
  })
  const rules = new AvroSerializer(client, 'orders-value', { schema, rules: { enabled: true } })
  const refused = await rules.serialize({ id: 'too-long', card: '4111' }, ctx).then(
    () => assert.fail('the WRITE rule let the record through'),
    (error) => error,
  )
  assert.equal(refused.code, 'RULE_VIOLATION', String(refused))
  const read = await new AvroDeserializer(client, { rules: { enabled: true } }).deserialize(bytes, ctx)
  assert.deepEqual({ ...read }, { id: 'o-1', card: '****' })
  console.log(`rules with @x/rules: CEL refused (${refused.message}); JSONata read ${JSON.stringify(read)}`)
} finally {
  await client.close()
  await registry.close()
}
