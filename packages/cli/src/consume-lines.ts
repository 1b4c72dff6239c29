import { toJsonText } from './json-output.js'

/** The schema that wrote a consumed value, as `consume` prints it. */
export interface ValueSchema {
  format: string | null
  idType: string
  id: number | bigint
  /** `framed` (0x00 + id before the payload) or `headers` (the id in an `apicurio.value.*` header). */
  mode: 'framed' | 'headers'
  groupId: string | null
  artifactId: string | null
  version: string | null
}

/** A header value: UTF-8 text, or `{ base64 }` for bytes that are not text (Apicurio's 8-byte id headers). */
export type HeaderValue = string | { base64: string }

/** What `consume` prints for one message, decoded or not. */
export interface ConsumedLine {
  topic: string
  partition: number
  offset: string
  /** The message's timestamp (epoch milliseconds as KafkaJS gives them). */
  timestamp: string
  /** The key: UTF-8 text, a decoded value when it was written with a schema, `{ base64 }` otherwise; `null` for none. */
  key: unknown
  headers: Record<string, HeaderValue | HeaderValue[]>
  /** Set when the value decoded (`null` for a tombstone). */
  schema?: ValueSchema | null
  value?: unknown
  /** Set when it did not: why, which field failed (`key` or `value`), and that field's raw bytes. */
  error?: { name: string; code: string | undefined; field: 'key' | 'value'; message: string }
  raw?: Buffer | null
}

/** The timestamp as ISO text (`null` when KafkaJS gives none or a negative one). */
export function isoTimestamp(ms: string): string | null {
  const n = Number(ms)
  return Number.isFinite(n) && n >= 0 ? new Date(n).toISOString() : null
}

/**
 * One line of JSON: `topic`, `partition`, `offset` (a number), `timestamp` (ISO), `key`, `headers`, then either
 * `schema` and `value` (exact longs, base64 bytes, ISO dates), or `error` and `raw` (the bytes of the field that failed, as base64).
 */
export function jsonLine(line: ConsumedLine): string {
  const out: Record<string, unknown> = {
    topic: line.topic,
    partition: line.partition,
    offset: BigInt(line.offset),
    timestamp: isoTimestamp(line.timestamp),
    key: line.key,
    headers: line.headers,
  }
  if (line.error !== undefined) {
    out.error = line.error
    out.raw = line.raw ?? null
  } else {
    out.schema = line.schema ?? null
    out.value = line.value ?? null
  }
  return `${toJsonText(out, 0)}\n`
}

/**
 * The readable form: a line saying where the message is and what wrote it, then its value (indented JSON); for a
 * message that did not decode, `ERROR` with why, and the raw bytes of the field that failed as base64.
 */
export function readableLine(line: ConsumedLine): string {
  const where = `${line.topic}/${line.partition}@${line.offset}`
  const parts = [where, isoTimestamp(line.timestamp) ?? '-']
  if (line.key !== null && line.key !== undefined) parts.push(`key ${toJsonText(line.key, 0)}`)
  const headers = Object.keys(line.headers).filter((name) => !/^apicurio\.(key|value)\./.test(name))
  if (headers.length > 0) parts.push(`headers ${toJsonText(pick(line.headers, headers), 0)}`)
  if (line.error !== undefined) {
    return `${parts.join('  ')}\n  ERROR ${line.error.message}\n  raw ${line.error.field} (base64): ${
      line.raw ? line.raw.toString('base64') : '(none)'
    }\n`
  }
  const schema = line.schema
  if (schema === null || schema === undefined) return `${parts.join('  ')}\n  (tombstone: no value)\n`
  const artifact =
    schema.artifactId === null
      ? ''
      : ` ${schema.groupId ?? 'default'}/${schema.artifactId}${schema.version === null ? '' : ` v${schema.version}`}`
  parts.push(`${schema.format ?? '?'}${artifact} (${schema.idType} ${schema.id}, ${schema.mode})`)
  return `${parts.join('  ')}\n  ${toJsonText(line.value).replace(/\n/g, '\n  ')}\n`
}

function pick<T>(record: Record<string, T>, names: readonly string[]): Record<string, T> {
  return Object.fromEntries(names.map((name) => [name, record[name] as T]))
}

/** Counts of a run, printed on stderr at its end. */
export class ConsumeSummary {
  messages = 0
  tombstones = 0
  errors = 0
  readonly formats = new Map<string, number>()

  add(line: ConsumedLine): void {
    this.messages++
    if (line.error !== undefined) this.errors++
    else if (line.schema === null || line.schema === undefined) this.tombstones++
    else {
      const format = line.schema.format ?? 'unknown'
      this.formats.set(format, (this.formats.get(format) ?? 0) + 1)
    }
  }

  /** `7 messages: 3 AVRO, 2 JSON, 1 PROTOBUF, 1 tombstone; 1 did not decode`. */
  toString(): string {
    const kinds = [...this.formats].map(([format, count]) => `${count} ${format}`)
    if (this.tombstones > 0) kinds.push(`${this.tombstones} tombstone${this.tombstones === 1 ? '' : 's'}`)
    const head = `${this.messages} message${this.messages === 1 ? '' : 's'}`
    const errors = this.errors === 0 ? '' : `; ${this.errors} did not decode`
    return kinds.length === 0 ? `${head}${errors}` : `${head}: ${kinds.join(', ')}${errors}`
  }
}

/** A header's bytes as text when they are UTF-8 without control characters, else `{ base64 }`. */
export function headerValue(bytes: Buffer | string): HeaderValue {
  if (typeof bytes === 'string') return bytes
  const text = utf8Text(bytes)
  return text ?? { base64: bytes.toString('base64') }
}

/** The bytes as text when they are valid UTF-8 without control characters (tab, newline and CR allowed). */
export function utf8Text(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is looked for
  return /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text) ? undefined : text
}
