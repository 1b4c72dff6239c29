// Run with `node example.mjs`. IdpAuth gets OAuth2 client-credentials tokens and caches them; the registry client
// sends them as `Authorization: Bearer …`. Here a stand-in token endpoint on 127.0.0.1 plays your IdP (for Keycloak,
// tokenUrl is https://<host>/realms/<realm>/protocol/openid-connect/token), and an in-memory registry that accepts
// only its token plays a secured Apicurio Registry 3.
import { createServer } from 'node:http'
import { IdpAuth } from '@x/idp-auth'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'

let tokens = 0
const idp = createServer((_request, response) => {
  tokens++
  response.setHeader('content-type', 'application/json')
  response.end(JSON.stringify({ access_token: `token-${tokens}`, token_type: 'Bearer', expires_in: 300 }))
})
await new Promise((resolve) => idp.listen(0, '127.0.0.1', resolve))
const registry = await InMemoryRegistry.start({ auth: (token) => token === 'token-1' })

const auth = new IdpAuth({
  tokenUrl: `http://127.0.0.1:${idp.address().port}/token`,
  clientId: 'orders-service',
  clientSecret: 'change-me-0123456789', // in a real service: process.env.REGISTRY_CLIENT_SECRET
})
const client = new RegistryClient({ url: registry.url, groupId: 'idp-auth-example', auth })
try {
  await client.registerSchema('pings', { type: 'record', name: 'Ping', fields: [{ name: 'n', type: 'int' }] })
  const { version } = await client.getSchema('pings')
  console.log(`version ${version}: ${registry.requests.length} registry requests, ${tokens} token request`)
  console.log(String(auth)) // the secret never shows: not in String(), JSON or util.inspect
} finally {
  await client.close()
  await registry.close()
  idp.close()
}
