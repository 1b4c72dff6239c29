import type avro from 'avsc'

/** The 5-byte Apicurio frame header: `0x00` and the schema id as a 4-byte big-endian unsigned integer. */
export function frameHeader(schemaId: number): Buffer {
  const header = Buffer.alloc(5)
  header.writeUInt32BE(schemaId, 1)
  return header
}

/** What a framed message must be: the header, then exactly avsc's `toBuffer` bytes. */
export function expectedFrame(type: avro.Type, value: unknown, schemaId: number): Buffer {
  return Buffer.concat([frameHeader(schemaId), type.toBuffer(value)])
}

/**
 * A deep copy in which every object that is not a `Date`, a `Buffer` or an array is a plain object: avsc decodes
 * records into instances of generated classes, which `deepStrictEqual` would tell apart from object literals.
 */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain)
  if (value === null || typeof value !== 'object') return value
  if (value instanceof Date || Buffer.isBuffer(value)) return value
  const out: Record<string, unknown> = {}
  for (const [key, field] of Object.entries(value)) out[key] = plain(field)
  return out
}
