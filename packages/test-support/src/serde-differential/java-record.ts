/**
 * The record Apicurio's Java serde 3.3 hands to the rules for a value, as JSON text, written here independently of
 * the library's own mapping so that a differential can check that mapping. Java's `AbstractSerializer` turns the
 * value into the rules' record with `data.toString()` read back by Jackson:
 * - Avro: `GenericData.toString` of the `GenericRecord` a Java producer builds for the value (no conversions): a
 *   double stays a double (`5.0`), a logical type is its underlying long or int (epoch milliseconds, micros, days;
 *   a decimal its unscaled two's complement bytes), `bytes` is ISO-8859-1 text (one character per byte), a `fixed`
 *   the list of its bytes as signed integers (`Arrays.toString`), a `float` the shortest decimal that reads back as
 *   the same float (`Float.toString`), an enum its symbol, a union its branch's value.
 * - JSON Schema: the JSON the producer writes, longs exact.
 * - Protobuf: `toString` of a message is text format, which Jackson cannot read (Java's rules then see an empty
 *   record); the registry is sent proto3's JSON mapping instead (as `JsonFormat.printer()` writes it: JSON names,
 *   doubles as `Double.toString` writes them (`2.0`), bytes as base64, enums by name, well-known types as their
 *   JSON forms, default values left out), but with 64-bit integers as JSON numbers rather than quoted text, as the
 *   library documents its Protobuf records (so that `count > 0` reads them).
 * Values are taken leniently: a field already in its record form (a millisecond number for a timestamp, text for
 * bytes) is written as it is, so that a record a READ transform gave back can be compared too.
 */

/** An Avro schema as parsed JSON. */
export type AvroSchema = string | AvroSchema[] | { [key: string]: unknown }

type Named = Map<string, Record<string, unknown>>

/** Java's `Double.toString` read by Jackson: an integral double keeps a `.0` so that it stays a double. */
function doubleText(value: number): string {
  if (!Number.isFinite(value)) return JSON.stringify(String(value))
  const text = JSON.stringify(value)
  return Number.isInteger(value) && !/[eE.]/.test(text) ? `${text}.0` : text
}

function bytesOf(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : undefined
}

function latin1(bytes: Uint8Array): string {
  return JSON.stringify(Buffer.from(bytes).toString('latin1'))
}

/** The minimal two's complement big-endian bytes of an integer (Java's `BigInteger.toByteArray`). */
export function twosComplement(value: bigint, size?: number): Uint8Array {
  let length = 1
  while (value >= 1n << BigInt(8 * length - 1) || value < -(1n << BigInt(8 * length - 1))) length++
  length = Math.max(length, size ?? 0)
  const out = new Uint8Array(length)
  let rest = BigInt.asUintN(8 * length, value)
  for (let at = length - 1; at >= 0; at--) {
    out[at] = Number(rest & 0xffn)
    rest >>= 8n
  }
  return out
}

/** The unscaled integer of a decimal string at `scale`. */
export function unscaled(text: string, scale: number): bigint {
  const [whole = '', fraction = ''] = text.replace(/^[+-]/, '').split('.')
  const digits = BigInt(`${whole}${fraction.padEnd(scale, '0').slice(0, scale)}` || '0')
  return text.startsWith('-') ? -digits : digits
}

function register(schema: AvroSchema, names: Named, namespace = ''): void {
  if (Array.isArray(schema)) {
    for (const branch of schema) register(branch, names, namespace)
    return
  }
  if (typeof schema !== 'object') return
  const type = schema.type
  if (type === 'record' || type === 'enum' || type === 'fixed') {
    const name = String(schema.name)
    const space = typeof schema.namespace === 'string' ? schema.namespace : namespace
    const full = name.includes('.') || space === '' ? name : `${space}.${name}`
    names.set(name, schema)
    names.set(full, schema)
    if (type === 'record') {
      for (const field of schema.fields as { type: AvroSchema }[]) register(field.type, names, space)
    }
    return
  }
  if (type === 'array') register(schema.items as AvroSchema, names, namespace)
  if (type === 'map') register(schema.values as AvroSchema, names, namespace)
  if (typeof type === 'object') register(type as AvroSchema, names, namespace)
}

/** Whether `value` is of the union branch `schema` (nulls, records by their fields, the rest by JavaScript type). */
function fitsBranch(schema: AvroSchema, value: unknown, names: Named): boolean {
  const resolved = typeof schema === 'string' && names.has(schema) ? names.get(schema)! : schema
  const type = typeof resolved === 'string' ? resolved : Array.isArray(resolved) ? 'union' : resolved.type
  switch (type) {
    case 'null':
      return value === null
    case 'boolean':
      return typeof value === 'boolean'
    case 'string':
    case 'enum':
      return typeof value === 'string'
    case 'int':
    case 'long':
      return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value))
    case 'float':
    case 'double':
      return typeof value === 'number'
    case 'bytes':
    case 'fixed':
      return value instanceof Uint8Array
    case 'array':
      return Array.isArray(value)
    default:
      return typeof value === 'object' && value !== null && !Array.isArray(value)
  }
}

function avroText(schema: AvroSchema, value: unknown, names: Named): string {
  if (Array.isArray(schema)) {
    const branch = schema.find((one) => fitsBranch(one, value, names))
    return branch === undefined ? plainText(value) : avroText(branch, value, names)
  }
  if (typeof schema === 'string') {
    const named = names.get(schema)
    if (named !== undefined) return avroText(named, value, names)
    return primitiveText(schema, value)
  }
  const logical = schema.logicalType
  const type = schema.type as AvroSchema
  if (logical === 'decimal' && typeof value === 'string') {
    const size = typeof schema.size === 'number' ? schema.size : undefined
    const bytes = twosComplement(unscaled(value, Number(schema.scale ?? 0)), size)
    return type === 'fixed' ? signedBytes(bytes) : latin1(bytes)
  }
  if (value instanceof Date) {
    const ms = value.getTime()
    return logical === 'date' ? String(Math.floor(ms / 86_400_000)) : String(ms)
  }
  switch (type) {
    case 'record': {
      if (typeof value !== 'object' || value === null) return plainText(value)
      const record = value as Record<string, unknown>
      const fields = schema.fields as { name: string; type: AvroSchema }[]
      const declared = new Set(fields.map((field) => field.name))
      const parts = fields
        .filter((field) => Object.hasOwn(record, field.name))
        .map((field) => `${JSON.stringify(field.name)}:${avroText(field.type, record[field.name], names)}`)
      for (const key of Object.keys(record)) {
        if (!declared.has(key)) parts.push(`${JSON.stringify(key)}:${plainText(record[key])}`)
      }
      return `{${parts.join(',')}}`
    }
    case 'enum':
      return JSON.stringify(value)
    case 'fixed':
      return bytesOf(value) === undefined ? plainText(value) : signedBytes(bytesOf(value)!)
    case 'array':
      return Array.isArray(value)
        ? `[${value.map((item) => avroText(schema.items as AvroSchema, item, names)).join(',')}]`
        : plainText(value)
    case 'map': {
      if (typeof value !== 'object' || value === null) return plainText(value)
      const entries = value instanceof Map ? [...value.entries()] : Object.entries(value)
      return `{${entries
        .map(([key, item]) => `${JSON.stringify(key)}:${avroText(schema.values as AvroSchema, item, names)}`)
        .join(',')}}`
    }
    default:
      return avroText(type, value, names)
  }
}

/** Java's `GenericFixed#toString`: `Arrays.toString` of its bytes, signed. */
function signedBytes(bytes: Uint8Array): string {
  return `[${[...bytes].map((byte) => (byte > 127 ? byte - 256 : byte)).join(',')}]`
}

/** Java's `Float.toString`: the shortest decimal that reads back as the same float. */
function floatText(value: number): string {
  if (!Number.isFinite(value)) return doubleText(value)
  const float = Math.fround(value)
  for (let digits = 1; digits < 10; digits++) {
    const shortest = Number(float.toPrecision(digits))
    if (Math.fround(shortest) === float) return doubleText(shortest)
  }
  return doubleText(float)
}

function primitiveText(type: string, value: unknown): string {
  if (type === 'float' && typeof value === 'number') return floatText(value)
  if (type === 'double' && typeof value === 'number') return doubleText(value)
  if (type === 'bytes' && bytesOf(value) !== undefined) return latin1(bytesOf(value)!)
  return plainText(value)
}

/** JSON text of a plain value: bigints exact, bytes as ISO-8859-1 text. */
export function plainText(value: unknown): string {
  if (value === undefined || value === null) return 'null'
  if (typeof value === 'bigint') return value.toString()
  if (value instanceof Uint8Array) return latin1(value)
  if (value instanceof Date) return String(value.getTime())
  if (Array.isArray(value)) return `[${value.map(plainText).join(',')}]`
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${plainText(item)}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

/** The record Java's Avro serde sends for `value` of `schema`, as JSON text. */
export function avroJavaRecord(schema: AvroSchema, value: unknown): string {
  const names: Named = new Map()
  register(schema, names)
  return avroText(schema, value, names)
}

/** The record Java's JSON Schema serde sends for `value`: the JSON written for it, longs exact. */
export function jsonJavaRecord(value: unknown): string {
  return plainText(value)
}

/** One field of a Protobuf message, as {@link protobufJavaRecord} reads it. */
export interface ProtoField {
  /** The field's name in the `.proto`. */
  name: string
  /** Its JSON name (lowerCamelCase). */
  json: string
  /** A scalar type, `enum`, or the message's fields (a well-known type by its name). */
  type: string | ProtoField[]
  repeated?: boolean
  /** A `map<string, V>`. */
  map?: boolean
  /** Whether the field has presence (a message, `optional`, a oneof member): then a default value is written too. */
  presence?: boolean
  /** An enum's first value (its default, left out like other defaults). */
  zero?: string
}

const WRAPPERS: Record<string, string> = {
  DoubleValue: 'double',
  FloatValue: 'float',
  Int64Value: 'int64',
  UInt64Value: 'uint64',
  Int32Value: 'int32',
  UInt32Value: 'uint32',
  BoolValue: 'bool',
  StringValue: 'string',
  BytesValue: 'bytes',
}

function fraction(nanos: number): string {
  if (nanos === 0) return ''
  const digits = String(Math.abs(nanos)).padStart(9, '0')
  return `.${nanos % 1_000_000 === 0 ? digits.slice(0, 3) : nanos % 1000 === 0 ? digits.slice(0, 6) : digits}`
}

function wellKnownText(type: string, value: Record<string, unknown>): string {
  const seconds = BigInt((value.seconds as number | bigint | undefined) ?? 0)
  const nanos = Number(value.nanos ?? 0)
  if (type === 'Timestamp') {
    const iso = new Date(Number(seconds) * 1000).toISOString().slice(0, 19)
    return JSON.stringify(`${iso}${fraction(nanos)}Z`)
  }
  if (type === 'Duration') {
    const negative = seconds < 0n || nanos < 0
    const whole = seconds < 0n ? -seconds : seconds
    return JSON.stringify(`${negative ? '-' : ''}${whole}${fraction(Math.abs(nanos))}s`)
  }
  if (type === 'Struct') {
    const fields = (value.fields ?? {}) as Record<string, Record<string, unknown>>
    return `{${Object.entries(fields)
      .map(([key, item]) => `${JSON.stringify(key)}:${wellKnownText('Value', item)}`)
      .join(',')}}`
  }
  if (type === 'Value') {
    const member = (name: string) =>
      value[name] ?? value[name.replace(/_(.)/g, (_all, c: string) => c.toUpperCase())]
    if (member('struct_value') !== undefined) {
      return wellKnownText('Struct', member('struct_value') as Record<string, unknown>)
    }
    const list = member('list_value') as { values?: Record<string, unknown>[] } | undefined
    if (list !== undefined)
      return `[${(list.values ?? []).map((item) => wellKnownText('Value', item)).join(',')}]`
    for (const name of ['number_value', 'string_value', 'bool_value']) {
      if (member(name) !== undefined) return JSON.stringify(member(name))
    }
    return 'null'
  }
  return scalarText(WRAPPERS[type]!, value.value ?? defaultOf(WRAPPERS[type]!))
}

function defaultOf(type: string): unknown {
  if (type === 'bool') return false
  if (type === 'string') return ''
  if (type === 'bytes') return new Uint8Array()
  return 0
}

function isDefault(value: unknown): boolean {
  return (
    value === 0 ||
    value === 0n ||
    value === '' ||
    value === false ||
    (value instanceof Uint8Array && value.length === 0)
  )
}

function scalarText(type: string, value: unknown): string {
  if (type === 'double' && typeof value === 'number') return doubleText(value)
  if (type === 'float' && typeof value === 'number') return floatText(value)
  if (type === 'bytes' && value instanceof Uint8Array) {
    return JSON.stringify(Buffer.from(value).toString('base64'))
  }
  return plainText(value)
}

function fieldText(field: ProtoField, value: unknown): string {
  if (typeof field.type === 'string') {
    if (field.type in WRAPPERS || ['Timestamp', 'Duration', 'Struct', 'Value'].includes(field.type)) {
      return typeof value === 'object' && value !== null && !(value instanceof Uint8Array)
        ? wellKnownText(field.type, value as Record<string, unknown>)
        : plainText(value)
    }
    return scalarText(field.type, value)
  }
  return protobufJavaRecord(field.type, value)
}

/** The record the registry is sent for a Protobuf message `value` of `fields`: proto3's canonical JSON. */
export function protobufJavaRecord(fields: readonly ProtoField[], value: unknown): string {
  if (typeof value !== 'object' || value === null) return plainText(value)
  const message = value as Record<string, unknown>
  const parts: string[] = []
  for (const field of fields) {
    const item = message[field.name] ?? message[field.json]
    if (item === undefined || item === null) continue
    let text: string
    if (field.map) {
      const entries = Object.entries(item as Record<string, unknown>)
      if (entries.length === 0) continue
      text = `{${entries.map(([key, one]) => `${JSON.stringify(key)}:${fieldText(field, one)}`).join(',')}}`
    } else if (field.repeated) {
      if ((item as unknown[]).length === 0) continue
      text = `[${(item as unknown[]).map((one) => fieldText(field, one)).join(',')}]`
    } else {
      if (!field.presence && (isDefault(item) || item === field.zero)) continue
      text = fieldText(field, item)
    }
    parts.push(`${JSON.stringify(field.json)}:${text}`)
  }
  const declared = new Set(fields.flatMap((field) => [field.name, field.json]))
  for (const key of Object.keys(message)) {
    if (!declared.has(key)) parts.push(`${JSON.stringify(key)}:${plainText(message[key])}`)
  }
  return `{${parts.join(',')}}`
}
