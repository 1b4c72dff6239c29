// Run with `node example.mjs`.
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'

const registry = await InMemoryRegistry.start()
const writer = new RegistryClient({ url: registry.url, groupId: 'default' })
const reader = new RegistryClient({ url: registry.url, groupId: 'default', retryBackoffMs: 10 })
try {
  const { globalId } = await writer.registerSchema('orders-value', {
    type: 'record',
    name: 'Order',
    fields: [],
  })
  registry.inject({ path: `/ids/globalIds/${globalId}`, status: 503, headers: { 'Retry-After': '1' } })
  await reader.getSchemaByGlobalId(globalId) // a 503, a retry after 1 s, then the schema
  console.log(registry.requests.map((r) => `${r.method} ${r.path}`)) // every request, as sent
} finally {
  await writer.close()
  await reader.close()
  await registry.close()
}
