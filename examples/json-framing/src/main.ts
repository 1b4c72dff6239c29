// Frames JSON payloads with @x/wire-format alone: the same 5-byte header Apicurio's serdes put in front of Avro
// (magic byte 0x00 + the schema id as 4 bytes big-endian), here in front of a JSON document. Nothing Avro is
// installed: this package depends on @x/wire-format only.
import { decodeFrame, encodeFrame, encodeIdHeader, idHeaderName, MessageField } from '@x/wire-format'

const schemaId = 42 // the contentId of a JSON Schema artifact, say
const order = { id: 'o-1', total: 12.5, lines: ['book', 'pen'] }

// Write: JSON text → bytes → frame.
const frame = encodeFrame(schemaId, new TextEncoder().encode(JSON.stringify(order)))
console.log(`frame    ${Buffer.from(frame).toString('hex')}`)

// Read: frame → id + a view of the payload (no copy) → JSON.
const decoded = decodeFrame(frame)
const value: unknown = JSON.parse(new TextDecoder().decode(decoded.payload))
console.log(`schemaId ${decoded.schemaId}`)
console.log(`value    ${JSON.stringify(value)}`)

// The other wire format: the id in a Kafka header (8 bytes big-endian) and the bare payload in the value.
const header = idHeaderName(MessageField.VALUE, 'contentId')
console.log(`header   ${header} = ${Buffer.from(encodeIdHeader(schemaId)).toString('hex')}`)
