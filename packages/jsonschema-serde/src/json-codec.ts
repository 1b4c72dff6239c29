import { hasLongDigitRunIn, parseExactJson } from '@x/registry-client/json'
import type { SchemaCodec } from '@x/serde-core'
import { HAS_UTF8_SLICE } from '@x/serde-core/internal'
import type { ValidateFunction } from 'ajv'
import { bigintsAsNumbers } from './exact-json.js'
import { JSON_SCHEMA_RECORD_NAME } from './json-schema-strategies.js'
import { writeJson } from './json-writer.js'
import { validationError } from './validator.js'

/** A JSON payload that is not UTF-8, or not JSON: what came, and where. */
export class JsonPayloadError extends SyntaxError {
  override name = 'JsonPayloadError'
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * `Buffer#utf8Slice`, undocumented: what `toString('utf8', start, end)` calls after normalizing its arguments (50 ns
 * less). Listed in `NODE_INTERNALS` of `@x/serde-core/internal`; where it is missing, `toString` is called.
 */
type Utf8Sliced = Buffer & { utf8Slice(start: number, end: number): string }

/** Decodes UTF-8 strictly: the fast `Buffer#utf8Slice`, and the fatal decoder only when it produced U+FFFD. */
function utf8(bytes: Buffer, offset: number, end: number): string {
  const text = HAS_UTF8_SLICE
    ? (bytes as Utf8Sliced).utf8Slice(offset, end)
    : bytes.toString('utf8', offset, end)
  if (!text.includes('\uFFFD')) return text
  try {
    // A U+FFFD in the input is legal; invalid bytes make the fatal decoder throw.
    return fatalUtf8.decode(bytes.subarray(offset, end))
  } catch {
    throw new JsonPayloadError('The payload is not valid UTF-8')
  }
}

/**
 * One JSON Schema with its compiled validator: writes values as compact JSON text (exact `bigint`s) after validating
 * them, and reads JSON text (exact 64-bit integers) with optional validation.
 */
export class JsonSchemaCodec implements SchemaCodec {
  readonly schema: unknown
  readonly recordName: string | undefined
  readonly #validator: ValidateFunction
  readonly #validateOnWrite: boolean
  readonly #validateOnRead: boolean

  constructor(
    schema: unknown,
    validator: ValidateFunction,
    validateOnWrite: boolean,
    validateOnRead: boolean,
  ) {
    this.schema = schema
    this.recordName = JSON_SCHEMA_RECORD_NAME.nameOf(schema)
    this.#validator = validator
    this.#validateOnWrite = validateOnWrite
    this.#validateOnRead = validateOnRead
  }

  encodeInto(value: unknown, target: Buffer, offset: number): number {
    const { text, exact } = writeJson(value)
    if (this.#validateOnWrite) this.#checkWritten(value, text, exact)
    // At most 3 bytes per UTF-16 code unit: only a long text needs its exact UTF-8 length.
    if (offset + text.length * 3 > target.length) {
      const needed = offset + Buffer.byteLength(text, 'utf8')
      if (needed > target.length) return target.length - needed
    }
    return offset + target.write(text, offset, 'utf8')
  }

  /**
   * Validates what is written. The value as given first (the common case: plain JSON data); when it fails, the JSON
   * the text holds (what Java validates too: its `valueToTree`), so a `Date` or a `toJSON` object counts as the
   * JSON it becomes.
   */
  #checkWritten(value: unknown, text: string, exact: boolean): void {
    if (this.#validator(exact ? bigintsAsNumbers(value) : value)) return
    const written = parseExactJson(text)
    const data = written.hasBigInt ? bigintsAsNumbers(written.value) : written.value
    if (this.#validator(data)) return
    throw validationError('Value does not match the JSON Schema', data, this.#validator.errors ?? [])
  }

  decode(bytes: Buffer, offset: number, end: number, _writer?: SchemaCodec): unknown {
    // Jackson (Java) skips a byte order mark (EF BB BF); so do we.
    const start =
      end - offset >= 3 && bytes[offset] === 0xef && bytes[offset + 1] === 0xbb && bytes[offset + 2] === 0xbf
        ? offset + 3
        : offset
    const text = utf8(bytes, start, end)
    // Whether an integer may be beyond 2^53 is asked of the bytes: cheaper than of the decoded text. Without a run
    // of 16 digits none is, and `JSON.parse` is exact (what parseExactJson does then, without its call).
    let value: unknown
    let data: unknown
    if (hasLongDigitRunIn(bytes, start, end)) {
      const parsed = parseExactJson(text, true)
      value = parsed.value
      data = parsed.hasBigInt ? bigintsAsNumbers(value) : value
    } else {
      value = JSON.parse(text)
      data = value
    }
    // `this` is the reader's schema when the deserializer has one (`writer` is then the message's), else the
    // message's own: the message is validated against the reader's chosen schema.
    if (this.#validateOnRead) {
      if (!this.#validator(data)) {
        throw validationError(
          'The message does not match the JSON Schema',
          data,
          this.#validator.errors ?? [],
        )
      }
    }
    return value
  }
}
