// Registry calls with OAuth2 client-credentials tokens. IdpAuth fetches a token from the token endpoint, caches it
// until shortly before it expires, and the registry client sends it as `Authorization: Bearer …`. Here a local
// OpenID provider issues the tokens and an InMemoryRegistry that requires them stands in for a secured Apicurio.
import { AvroDeserializer, AvroSerializer, IdpAuth, RegistryClient, SerializationContext } from '@x/serde'
import { InMemoryRegistry } from '@x/serde/testing'
import { startLocalProvider } from './local-provider.js'

const clientId = 'orders-service'
const clientSecret = 'change-me-0123456789'
const provider = await startLocalProvider(clientId, clientSecret)
let bearerChecks = 0
const registry = await InMemoryRegistry.start({
  auth: (token) => {
    bearerChecks++
    return provider.isValid(token)
  },
})

try {
  const auth = new IdpAuth({ tokenUrl: provider.tokenUrl, clientId, clientSecret })
  console.log(`auth: ${String(auth)}`) // the secret never shows, not in String(), JSON or util.inspect
  await using client = new RegistryClient({ url: registry.url, groupId: 'secured', auth })

  const schema = { type: 'record', name: 'Ping', fields: [{ name: 'n', type: 'int' }] }
  const serializer = new AvroSerializer(client, 'Ping', { autoRegister: true, schema })
  const deserializer = new AvroDeserializer(client)
  const ctx = new SerializationContext('pings')
  const bytes = await serializer.serialize({ n: 7 }, ctx)
  console.log('value:', await deserializer.deserialize(bytes, ctx))
  console.log(
    `registry requests: ${registry.requests.length}, all with a bearer token: ${bearerChecks === registry.requests.length}`,
  )

  // Without credentials the same registry refuses: AuthenticationError.
  await using anonymous = new RegistryClient({ url: registry.url, groupId: 'secured' })
  await anonymous.getSchema('Ping').catch((error: Error) => console.log(`without a token: ${error.name}`))
} finally {
  await registry.close()
  await provider.close()
}
