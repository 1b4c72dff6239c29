// @x/registry-client on its own: it loads, builds a client and reads a schema from a registry stand-in on loopback.
import { strict as assert } from 'node:assert'
import { createServer } from 'node:http'
import { RegistryClient } from '@x/registry-client'

const schema = '{"type":"string"}'
const server = createServer((req, res) => {
  if (req.url?.startsWith('/ids/globalIds/7')) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-registry-artifacttype': 'AVRO' })
    res.end(schema)
  } else {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"status":404,"title":"not found"}')
  }
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
try {
  const client = new RegistryClient({ url: `http://127.0.0.1:${server.address().port}`, groupId: 'default' })
  const found = await client.getSchemaByGlobalId(7)
  assert.equal(found.schema, schema)
  await client.close()
  console.log('registry-client: schema 7 read')
} finally {
  server.close()
}
