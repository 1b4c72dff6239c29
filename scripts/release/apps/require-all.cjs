// A CommonJS application require()s every installed @x/* package (Node 20.19+, 22.12+ and 24 load ES modules
// through require()), and uses what it got: a frame is encoded and decoded, a client and a serde are built.
const assert = require('node:assert/strict')

const wire = require('@x/wire-format')
const { RegistryClient } = require('@x/registry-client')
const serde = require('@x/serde')
const kafka = require('@x/kafka')
const testing = require('@x/serde/testing')

const framed = wire.encodeFrame(1, Buffer.from('{}'))
assert.equal(Buffer.from(framed).toString('hex'), '00000000017b7d')
assert.equal(typeof new RegistryClient({ url: 'http://127.0.0.1:9', groupId: 'g' }).close, 'function')
assert.equal(typeof serde.AvroSerializer, 'function')
assert.equal(typeof kafka.KafkaJsSerde, 'function')
assert.equal(typeof testing.InMemoryRegistry.start, 'function')
console.log(
  `require(): ${['@x/wire-format', '@x/registry-client', '@x/serde', '@x/kafka', '@x/serde/testing'].join(', ')} on ${process.version}`,
)
