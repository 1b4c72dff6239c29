import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { AvroDeserializer } from '@x/avro-serde'
import { isSerdeError } from '@x/errors'
import { JsonSchemaDeserializer } from '@x/jsonschema-serde'
import { applyIdHeaderRules, hasIdHeader, schemaKindOfText } from '@x/message-contract'
import { ProtobufDeserializer } from '@x/protobuf-serde'
import type { ArtifactCoordinates, RegisteredSchema } from '@x/registry-client'
import { type IncomingMessage, type MessageHeaders, messageSchemaId, withOtherIdHint } from '@x/serde-core'
import {
  decodeFrame,
  idHeaderName,
  isIdType,
  type MessageField,
  type ReadIdSize,
  SerializationContext,
} from '@x/wire-format'
import { avroOutputOfId } from '../avro-json-output.js'
import { Connection, type ConnectionFlags } from '../connection.js'
import { encodingOf } from '../encoding-option.js'
import type { Io } from '../io.js'
import { toJsonText } from '../json-output.js'
import { UsageError } from '../usage-error.js'
import { type FrameFacts, frameJson, frameLines, idHeadersOf } from './inspect-frame.js'

export interface InspectFlags extends ConnectionFlags {
  headers?: string[]
  useId?: string
  idSize?: string
  encoding?: string
  framing?: string
  topic?: string
  json?: boolean
}

/** The message's frame, and the artifact versions its id belongs to. */
interface Found extends FrameFacts {
  versions: { groupId: string; artifactId: string; version: string; artifactType: string }[]
}

/**
 * `x-serde inspect [HEX|BASE64|@FILE|-]`: decodes one message, framed (`0x00` + an id of `--id-size` bytes) or, with
 * `--headers`, bare with its id in a header (Apicurio's `apicurio.<field>.globalId`/`contentId`, or Confluent 8's
 * `__<field>_schema_id`); names the artifact version the id belongs to and prints the value as JSON. The id is read
 * by the library's own functions, exactly as the consumers read it: a header repeated with different ids is refused
 * with their `DeserializationError`. With no registry (no `--registry`, no `REGISTRY_URL`) it prints the frame
 * alone: magic byte, id type and value, payload length and id headers.
 */
export async function inspect(input: string | undefined, flags: InspectFlags, io: Io): Promise<void> {
  const bytes = await readInput(input, io)
  const useId = flags.useId ?? 'globalId'
  if (!isIdType(useId)) throw new UsageError(`--use-id must be globalId or contentId, got ${useId}`)
  const sizeFlag = flags.idSize ?? '4'
  if (sizeFlag !== '4' && sizeFlag !== '8' && sizeFlag !== 'auto') {
    throw new UsageError(`--id-size must be 4, 8 or auto, got ${sizeFlag}`)
  }
  const idSize: ReadIdSize = sizeFlag === 'auto' ? 'auto' : sizeFlag === '8' ? 8 : 4
  const encoding = encodingOf(flags.encoding)
  const framing = flags.framing ?? 'apicurio'
  if (framing !== 'apicurio' && framing !== 'confluent') {
    throw new UsageError(`--framing must be apicurio or confluent, got ${framing}`)
  }
  const topic = flags.topic ?? 'inspect'
  const headers = parseHeaders(flags.headers ?? [])
  // The field whose id the headers carry: the value's, else the key's; a frame is read as a value.
  const field: MessageField = hasIdHeader(headers, 'value')
    ? 'value'
    : hasIdHeader(headers, 'key')
      ? 'key'
      : 'value'
  const given: IncomingMessage = { payload: bytes, headers }
  const message = applyIdHeaderRules(given, field, useId, topic)
  const read = messageSchemaId(message, field, useId, idSize)
  const framed = read.framed ? decodeFrame(bytes, { idSize }) : undefined
  const found: Found = {
    framing: framed === undefined ? 'headers' : 'framed',
    idSize: framed === undefined ? 8 : framed.idSize,
    idType: read.idType,
    id: read.id,
    field,
    payloadBytes: framed === undefined ? bytes.length : framed.payload.length,
    idHeaders: idHeadersOf(headers),
    versions: [],
  }
  if (framed === undefined) {
    found.header = message === given ? idHeaderName(field, read.idType) : `__${field}_schema_id`
  }
  if ((flags.registry ?? io.env.REGISTRY_URL ?? '') === '') {
    io.stdout(
      flags.json
        ? `${toJsonText(frameJson(found), 0)}\n`
        : [
            ...frameLines(found),
            'value:    not decoded: no registry (pass --registry <url> or set REGISTRY_URL to decode it)',
            '',
          ].join('\n'),
    )
    return
  }
  await using connection = new Connection(flags, io)
  const artifactType = await describeId(connection, found)
  const options = { useId, idSize }
  const deserializer =
    artifactType === 'AVRO'
      ? new AvroDeserializer(connection.client, { ...options, avro: { encoding } })
      : artifactType === 'JSON'
        ? new JsonSchemaDeserializer(connection.client, options)
        : artifactType === 'PROTOBUF'
          ? new ProtobufDeserializer(connection.client, { ...options, framing })
          : undefined
  if (deserializer === undefined)
    throw new UsageError(`Cannot decode ${artifactType} artifacts (AVRO, JSON, PROTOBUF only)`)
  const decoded = await deserializer.deserializeMessage(message, new SerializationContext(topic, field))
  // Printed as consume prints it: a union whose bare values would print alike, wrapped by branch.
  const value =
    artifactType === 'AVRO' ? (await avroOutputOfId(connection, found.idType, found.id))(decoded) : decoded
  if (flags.json) {
    io.stdout(
      `${toJsonText(
        {
          ...frameJson(found),
          format: artifactType,
          artifacts: found.versions,
          value,
        },
        0,
      )}\n`,
    )
    return
  }
  const artifacts =
    found.versions.length === 0
      ? '(the registry names none for this id)'
      : found.versions.map((v) => `${v.groupId}/${v.artifactId} version ${v.version}`).join(', ')
  io.stdout(
    [
      ...frameLines(found),
      `artifact: ${artifacts}`,
      `format:   ${artifactType}${artifactType === 'PROTOBUF' ? ` (${framing} framing)` : ''}`,
      `value:    ${toJsonText(value).replace(/\n/g, '\n          ')}`,
      '',
    ].join('\n'),
  )
}

/**
 * The format of the id's schema, naming in `found.versions` the artifact version the id belongs to. The id's own
 * lookup (cached by the client, so the deserializer asks nothing more) names the format by globalId; the registry's
 * search (`findVersionOfId`) names the artifact version; by contentId, where the lookup does not name the format,
 * that version's metadata does, else the schema's text.
 */
async function describeId(connection: Connection, found: Found): Promise<string> {
  const client = connection.client
  const { idType, id } = found
  let registered: RegisteredSchema
  try {
    registered =
      idType === 'globalId' ? await client.getSchemaByGlobalId(id) : await client.getSchemaByContentId(id)
  } catch (error) {
    // A frame's id type is --use-id's guess: the registry is asked once whether the other type fits.
    throw found.framing === 'framed' ? await withOtherIdHint(client, error, idType, id) : error
  }
  const located = await versionOfId(connection, found)
  const type =
    registered.artifactType ??
    (located === undefined
      ? undefined
      : (await client.getSchemaVersion(located.artifactId, located.version, { groupId: located.groupId }))
          .artifactType) ??
    schemaKindOfText(registered.schema)
  if (type === undefined) {
    throw new UsageError(
      `The registry does not say which format ${idType} ${id} is, and its text does not tell (it reads as Avro and as JSON Schema, or as neither): inspect the message by its globalId`,
    )
  }
  const where =
    located ??
    (registered.artifactId !== undefined && registered.version !== undefined
      ? {
          groupId: registered.groupId ?? 'default',
          artifactId: registered.artifactId,
          version: registered.version,
        }
      : undefined)
  if (where !== undefined) found.versions.push({ ...where, artifactType: type })
  return type
}

/** The artifact version the registry's search names for the id; `undefined` when it names none or has no search. */
async function versionOfId(connection: Connection, found: Found): Promise<ArtifactCoordinates | undefined> {
  try {
    return await connection.client.findVersionOfId(found.id, found.idType)
  } catch (error) {
    if (isSerdeError(error, 'SCHEMA_NOT_FOUND')) return undefined
    throw error
  }
}

/** The message: hex, base64, `@file` (raw bytes) or `-` (stdin: hex or base64 text, else raw bytes). */
async function readInput(input: string | undefined, io: Io): Promise<Buffer> {
  if (input === undefined)
    throw new UsageError('Give the message: HEX, BASE64, @FILE or - for standard input')
  if (input.startsWith('@')) {
    try {
      return await readFile(resolve(io.cwd, input.slice(1)))
    } catch (error) {
      throw new UsageError(`Cannot read ${input.slice(1)}: ${(error as Error).message}`)
    }
  }
  if (input === '-') {
    const raw = await io.readStdin()
    const text = raw.toString('latin1').trim()
    return isHex(text) || isBase64(text) || isOddHex(text) ? decodeText(text) : raw
  }
  return decodeText(input.trim())
}

/** The hex digits of `text` (whitespace and a leading `0x` or `0X` left out), or undefined when it is not hex. */
function hexDigits(text: string): string | undefined {
  const compact = text.replace(/\s+/g, '').replace(/^0[xX]/, '')
  return compact.length > 0 && compact.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(compact)
    ? compact
    : undefined
}

function isHex(text: string): boolean {
  return hexDigits(text) !== undefined
}

/**
 * Whether `text` is hex with a digit lost: an odd count of hex digits (whitespace aside) after `0x`, or of digits and
 * lowercase `a`–`f` alone. Base64 of a frame begins with `A` (the zero magic byte): such text is not taken for it.
 */
function isOddHex(text: string): boolean {
  const compact = text.replace(/\s+/g, '')
  const digits = compact.replace(/^0[xX]/, '')
  if (digits.length % 2 === 0) return false
  return digits === compact ? /^[0-9a-f]+$/.test(digits) : /^[0-9a-fA-F]+$/.test(digits)
}

/**
 * Base64 (standard or URL-safe alphabet, padding optional) whose bytes encode back to the same text: a length that
 * no bytes give (`a`, `abcde`), leftover bits set in its last character (`zz`, where the byte reads `zw`) or a
 * leading `0x` is not, nor is hex with a digit lost.
 */
function isBase64(text: string): boolean {
  const compact = text.replace(/\s+/g, '')
  if (compact.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return false
  // text that begins with 0x is meant as hex: when it is not hex (`0x00 0x28`), it is refused, not read as base64
  if (/^0[xX]/.test(compact) || isOddHex(compact)) return false
  const digits = compact.replace(/=+$/, '')
  if (digits.length % 4 === 1 || (compact.length !== digits.length && compact.length % 4 !== 0)) return false
  const again = Buffer.from(digits, 'base64').toString('base64').replace(/=+$/, '')
  return again === digits.replace(/-/g, '+').replace(/_/g, '/')
}

function decodeText(text: string): Buffer {
  const hex = hexDigits(text)
  const base64 = isBase64(text) ? Buffer.from(text.replace(/\s+/g, ''), 'base64') : undefined
  // Text of hex digits alone with a length of four is base64 too (`AAAAAAEA`): the reading that begins with the
  // magic byte 0x00 is the frame (hex frames begin `00`, base64 frames `A`); hex when neither or both do.
  if (hex !== undefined && !(base64?.[0] === 0 && !hex.startsWith('00'))) return Buffer.from(hex, 'hex')
  if (base64 !== undefined) return base64
  if (isOddHex(text)) {
    throw new UsageError(
      `The message has an odd number of hex digits (${text.replace(/\s+/g, '').replace(/^0[xX]/, '').length}): a digit is missing (base64 made of hex digits alone needs its = padding)`,
    )
  }
  throw new UsageError(
    `The message is neither hex nor base64, got ${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)}: give HEX, BASE64, @FILE (raw bytes) or - (standard input)`,
  )
}

/**
 * `name=value` pairs as a consumed record's headers: a name given twice is a header repeated (its values in order,
 * as Kafka clients hand them over). A value is the decimal id (8 bytes, or for Confluent 8's `__<field>_schema_id`
 * header `0x00` and 4 bytes), `0x` and hex digits for raw bytes, else its UTF-8 text. A name is data: `__proto__` is
 * a header like any other.
 */
function parseHeaders(pairs: readonly string[]): MessageHeaders {
  const values = new Map<string, Buffer[]>()
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--headers takes name=value, got ${pair}`)
    const name = pair.slice(0, at)
    const bytes = headerValue(name, pair.slice(at + 1))
    const known = values.get(name)
    if (known === undefined) values.set(name, [bytes])
    else known.push(bytes)
  }
  // Object.fromEntries defines each name as an own property: no name reaches a prototype.
  return Object.fromEntries([...values].map(([name, list]) => [name, list.length === 1 ? list[0] : list]))
}

function headerValue(name: string, value: string): Buffer {
  if (/^-?\d+$/.test(value)) {
    if (name === '__value_schema_id' || name === '__key_schema_id') {
      const id = Number(value)
      if (!Number.isSafeInteger(id) || id < 0 || id > 0xffffffff) {
        throw new UsageError(`--headers ${name} takes a 4-byte id (0 to 4294967295), got ${value}`)
      }
      const bytes = Buffer.alloc(5)
      bytes.writeUInt32BE(id, 1)
      return bytes
    }
    const id = BigInt(value)
    if (id < -(2n ** 63n) || id >= 2n ** 63n) {
      throw new UsageError(`--headers ${name} takes an 8-byte id, got ${value}`)
    }
    const bytes = Buffer.alloc(8)
    bytes.writeBigInt64BE(id)
    return bytes
  }
  if (/^0x(?:[0-9a-fA-F]{2})+$/.test(value)) return Buffer.from(value.slice(2), 'hex')
  return Buffer.from(value, 'utf8')
}
