import type { MessageHeaders } from '@x/serde-core'
import type { IdSize, IdType, MessageField, SchemaId } from '@x/wire-format'

/** What a message's bytes and headers say before any schema is read: its frame or its id headers. */
export interface FrameFacts {
  framing: 'framed' | 'headers'
  /** The bytes of a frame's id (what `--id-size auto` found); 8 for an id header. */
  idSize: IdSize
  idType: IdType
  id: SchemaId
  field: MessageField
  /** The header the id was read from (headers mode). */
  header?: string
  /** The bytes after the magic byte and the id (framed), or the whole bare payload (headers mode). */
  payloadBytes: number
  /** Every id header the message carries, in the order given, each value as the deserializers read it. */
  idHeaders: { name: string; value: string }[]
}

const ID_HEADER = /^(?:apicurio\.(?:key|value)\.(?:globalId|contentId)|__(?:key|value)_schema_id)$/

/**
 * The id headers among `headers` (Apicurio's `apicurio.<field>.globalId`/`contentId`, Confluent 8's
 * `__<field>_schema_id`), a repeated header once per value: an 8-byte value as its signed decimal id, Confluent's
 * `0x00` + 4 bytes as its decimal id, anything else as `0x` and its hex digits.
 */
export function idHeadersOf(headers: MessageHeaders): { name: string; value: string }[] {
  const found: { name: string; value: string }[] = []
  for (const [name, value] of Object.entries(headers)) {
    if (!ID_HEADER.test(name) || value === undefined || value === null) continue
    for (const one of Array.isArray(value) ? value : [value])
      found.push({ name, value: headerText(name, one) })
  }
  return found
}

function headerText(name: string, value: unknown): string {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value as Uint8Array)
  if (name.startsWith('apicurio.') && bytes.length === 8) return String(bytes.readBigInt64BE(0))
  if (name.startsWith('__') && bytes.length === 5 && bytes[0] === 0) return String(bytes.readUInt32BE(1))
  return `0x${bytes.toString('hex')}`
}

/** The frame's lines of `inspect`'s human output: framing, magic byte, id headers, id and payload length. */
export function frameLines(frame: FrameFacts): string[] {
  const lines =
    frame.framing === 'framed'
      ? [`framing:  framed (0x00 + ${frame.idSize}-byte id)`, 'magic:    0x00']
      : [`framing:  headers mode (${frame.header})`]
  if (frame.idHeaders.length > 0) {
    lines.push(`headers:  ${frame.idHeaders.map((header) => `${header.name}=${header.value}`).join(', ')}`)
  }
  lines.push(
    `id:       ${frame.idType} ${frame.id}`,
    `payload:  ${frame.payloadBytes} byte${frame.payloadBytes === 1 ? '' : 's'}`,
  )
  return lines
}

/** The frame's fields of `inspect --json`, in the order they print. */
export function frameJson(frame: FrameFacts): Record<string, unknown> {
  return {
    framing: frame.framing,
    ...(frame.framing === 'framed' ? { magic: 0, idSize: frame.idSize } : { header: frame.header }),
    ...(frame.idHeaders.length > 0 ? { idHeaders: frame.idHeaders } : {}),
    idType: frame.idType,
    id: BigInt(frame.id),
    payloadBytes: frame.payloadBytes,
  }
}
