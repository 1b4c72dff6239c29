// @x/wire-format on its own, in a tool that frames a JSON payload with schema id 42 and reads it back.
import { strict as assert } from 'node:assert'
import { decodeFrame, encodeFrame } from '@x/wire-format'

const payload = Buffer.from(JSON.stringify({ id: 'o-1', amount: 12.5 }))
const framed = encodeFrame(42, payload)
assert.equal(Buffer.from(framed).toString('hex'), `000000002a${payload.toString('hex')}`)
const frame = decodeFrame(framed)
assert.equal(frame.schemaId, 42)
assert.deepEqual(JSON.parse(Buffer.from(frame.payload).toString('utf8')), { id: 'o-1', amount: 12.5 })
console.log(
  `wire-format: ${Buffer.from(framed).subarray(0, 5).toString('hex')} + ${payload.length} bytes of JSON`,
)
