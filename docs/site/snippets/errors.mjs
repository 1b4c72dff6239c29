// Run with `node example.mjs`: every error of the @x packages is a SerdeError with a stable `code`.
import { DeserializationError, isSerdeError } from '@x/errors'
import { decodeFrame } from '@x/wire-format'

try {
  decodeFrame(new TextEncoder().encode('{"id": 7}')) // JSON text without the 0x00 + 4-byte id frame
} catch (error) {
  // Match on `code` (stable between releases) or the class, never on the message text.
  if (!isSerdeError(error, 'DESERIALIZATION')) throw error
  console.log(error instanceof DeserializationError, error.code) // true DESERIALIZATION
  console.log(error.message)
  console.log(JSON.stringify(error)) // what to log: name, code, message and context, never a secret
}
