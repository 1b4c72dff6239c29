// Uses only @x/registry-client: no avsc, no serde. Registers a schema, lists the group's artifacts and fetches the
// schema back by its globalId and contentId. Against REGISTRY_URL when set (any Apicurio Registry 3), else against an
// InMemoryRegistry it starts itself.
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'

const registry = process.env.REGISTRY_URL ? undefined : await InMemoryRegistry.start()
const url = process.env.REGISTRY_URL ?? registry!.url

try {
  await using client = new RegistryClient({ url, groupId: 'example-registry-only' })

  const schema = {
    type: 'record',
    name: 'Ping',
    namespace: 'com.example',
    fields: [{ name: 'at', type: 'long' }],
  }
  const registered = await client.registerSchema('Ping', schema)
  console.log(`registered Ping: globalId ${registered.globalId}, contentId ${registered.contentId}`)

  const artifacts = await client.listArtifacts()
  console.log(`artifacts in group ${client.groupId}: ${artifacts.join(', ')}`)

  const byGlobalId = await client.getSchemaByGlobalId(registered.globalId!)
  const byContentId = await client.getSchemaByContentId(registered.contentId!)
  console.log(`by globalId:  ${byGlobalId.schema}`)
  console.log(`by contentId: ${byContentId.schema}`)
} finally {
  await registry?.close()
}
