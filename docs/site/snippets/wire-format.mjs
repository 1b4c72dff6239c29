import {
  decodeFrame,
  decodeIdHeader,
  encodeFrame,
  encodeIdHeader,
  idHeaderName,
  MessageField,
} from '@x/wire-format'

// Producer: the registry gave the JSON Schema the id 42; frame the JSON text with it.
const json = new TextEncoder().encode(JSON.stringify({ id: 7, name: 'Ada' }))
const value = encodeFrame(42, json)
console.log(value.subarray(0, 7)) // → <Buffer 00 00 00 00 2a 7b 22>

// Consumer: split the frame (the payload is a view, not a copy), look the id up, parse the payload.
const { schemaId, payload } = decodeFrame(value)
console.log(schemaId, JSON.parse(new TextDecoder().decode(payload))) // → 42 { id: 7, name: 'Ada' }

// Header mode: the id (any signed 64-bit value) travels in a header and the payload stays bare.
const headers = { [idHeaderName(MessageField.VALUE, 'globalId')]: encodeIdHeader(2n ** 60n) }
console.log(headers) // → { 'apicurio.value.globalId': <Buffer 10 00 00 00 00 00 00 00> }
console.log(decodeIdHeader(headers['apicurio.value.globalId'])) // → 1152921504606846976n
console.log(decodeIdHeader(encodeIdHeader(42))) // → 42

// Apicurio 2.x frames: the id in 8 bytes. 'auto' reads 8 bytes when the first 4 are zero and 4 more follow.
console.log(encodeFrame(42, json, { idSize: 8 }).subarray(0, 10)) // → <Buffer 00 00 00 00 00 00 00 00 2a 7b>
console.log(decodeFrame(encodeFrame(42, json, { idSize: 8 }), { idSize: 'auto' }).idSize) // → 8
