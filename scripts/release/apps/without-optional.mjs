// A production install of @x/serde (no dev dependencies, so neither @x/registry-testing nor @x/rules): the serdes
// work, `@x/serde/testing` fails to load naming the package to install, with import() and with require(), and a
// deserializer with rules enabled fails with INVALID_CONFIG naming `npm install @x/rules`.
import { strict as assert } from 'node:assert'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { AvroDeserializer, RegistryClient, SerializationContext } from '@x/serde'

// 1. The testing subpath, imported and required.
const missingTesting = (error) =>
  error?.code === 'ERR_MODULE_NOT_FOUND' &&
  error.message.includes("Cannot find package '@x/registry-testing'")
await assert.rejects(import('@x/serde/testing'), missingTesting)
assert.throws(() => createRequire(import.meta.url)('@x/serde/testing'), missingTesting)
try {
  await import('@x/serde/testing')
} catch (error) {
  console.log(`@x/serde/testing: ${error.code}: ${error.message.split('\n')[0]}`)
}

// 2. A registry stand-in on loopback with one Avro schema (globalId 1, version 1 of orders-value).
const schema = '{"type":"record","name":"Order","fields":[{"name":"id","type":"string"}]}'
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  if (url.pathname.endsWith('/ids/globalIds/1/references')) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('[]')
  } else if (url.pathname.endsWith('/ids/globalIds/1')) {
    res.writeHead(200, { 'content-type': 'application/json', 'x-registry-artifacttype': 'AVRO' })
    res.end(schema)
  } else if (url.pathname.endsWith('/search/versions') && url.searchParams.get('globalId') === '1') {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(
      JSON.stringify({
        count: 1,
        versions: [
          { groupId: 'default', artifactId: 'orders-value', version: '1', globalId: 1, contentId: 1 },
        ],
      }),
    )
  } else {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end(`{"status":404,"title":"no ${req.method} ${url.pathname} here"}`)
  }
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
const client = new RegistryClient({
  url: `http://127.0.0.1:${server.address().port}`,
  groupId: 'default',
  maxRetries: 0,
})
// 00, globalId 1, then Avro: "o-1" (06 6f 2d 31).
const frame = Buffer.from('0000000001066f2d31', 'hex')
const ctx = new SerializationContext('orders', 'value')
try {
  // 3. Without rules the record reads (the stand-in answers what a deserializer asks) ...
  assert.deepEqual({ ...(await new AvroDeserializer(client).deserialize(frame, ctx)) }, { id: 'o-1' })
  // 4. ... and with rules enabled the call fails, naming the install.
  const rules = new AvroDeserializer(client, { rules: { enabled: true } })
  const error = await rules.deserialize(frame, ctx).then(
    () => assert.fail('a deserializer with rules enabled read a record without @x/rules installed'),
    (caught) => caught,
  )
  assert.equal(error.name, 'TypeError')
  assert.equal(error.code, 'INVALID_CONFIG')
  assert.match(error.message, /npm install @x\/rules$/)
  console.log(`rules without @x/rules: ${error.name} ${error.code}: ${error.message}`)
} finally {
  await client.close()
  server.close()
}
