// Run with `node example.mjs`: against REGISTRY_URL when set, else an in-memory registry (@x/registry-testing).
import { RegistryClient } from '@x/registry-client'

const inMemory = process.env.REGISTRY_URL
  ? undefined
  : await (await import('@x/registry-testing')).InMemoryRegistry.start()
const client = new RegistryClient({ url: process.env.REGISTRY_URL ?? inMemory.url, groupId: 'default' })
try {
  const registered = await client.registerSchema('orders-value', {
    type: 'record',
    name: 'Order',
    fields: [{ name: 'id', type: 'string' }],
  })
  console.log(registered.globalId) // the registry's id for it (a bigint when beyond 2^53)

  const latest = await client.getSchema('orders-value') // { schema, globalId, contentId, groupId, artifactId, version }
  const byId = await client.getSchemaByGlobalId(latest.globalId) // { schema, globalId, … }
  console.log(latest.version, byId.schema === latest.schema) // 1 true
} finally {
  await client.close()
  await inMemory?.close()
}
