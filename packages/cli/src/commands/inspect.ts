import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { AvroDeserializer } from '@x/avro-serde'
import { JsonSchemaDeserializer } from '@x/jsonschema-serde'
import { schemaKindOfText } from '@x/message-contract'
import { ProtobufDeserializer } from '@x/protobuf-serde'
import type { RegisteredSchema } from '@x/registry-client'
import { withOtherIdHint } from '@x/serde-core'
import { decodeFrame, type IdSize, type IdType, isIdType, SerializationContext } from '@x/wire-format'
import { avroOutputOfId } from '../avro-json-output.js'
import { Connection, type ConnectionFlags } from '../connection.js'
import { encodingOf } from '../encoding-option.js'
import type { Io } from '../io.js'
import { toJsonText } from '../json-output.js'
import { UsageError } from '../usage-error.js'

export interface InspectFlags extends ConnectionFlags {
  headers?: string[]
  useId?: string
  idSize?: string
  encoding?: string
  framing?: string
  topic?: string
  json?: boolean
}

/** Where the message's id came from, and which artifact version it names. */
interface Found {
  framing: 'framed' | 'headers'
  /** The bytes of a frame's id (what `--id-size auto` found); 8 for an id header. */
  idSize: IdSize
  idType: IdType
  id: string
  field: 'key' | 'value'
  versions: { groupId: string; artifactId: string; version: string; artifactType: string }[]
}

/**
 * `x-serde inspect [HEX|BASE64|@FILE|-]`: decodes one message, framed (`0x00` + an id of `--id-size` bytes) or, with `--headers`,
 * bare with its id in an Apicurio header; names the artifact versions the id belongs to and prints the value as JSON.
 */
export async function inspect(input: string | undefined, flags: InspectFlags, io: Io): Promise<void> {
  const bytes = await readInput(input, io)
  const useId = flags.useId ?? 'globalId'
  if (!isIdType(useId)) throw new UsageError(`--use-id must be globalId or contentId, got ${useId}`)
  const sizeFlag = flags.idSize ?? '4'
  if (sizeFlag !== '4' && sizeFlag !== '8' && sizeFlag !== 'auto') {
    throw new UsageError(`--id-size must be 4, 8 or auto, got ${sizeFlag}`)
  }
  const idSize = sizeFlag === 'auto' ? 'auto' : sizeFlag === '8' ? 8 : 4
  const encoding = encodingOf(flags.encoding)
  const headers = parseHeaders(flags.headers ?? [])
  const headerId = Object.entries(headers).find(([name]) =>
    /^apicurio\.(key|value)\.(globalId|contentId)$/.test(name),
  )
  let found: Found
  if (headerId !== undefined) {
    const [, field, idType] = /^apicurio\.(key|value)\.(globalId|contentId)$/.exec(
      headerId[0],
    ) as RegExpExecArray
    found = {
      framing: 'headers',
      idSize: 8,
      idType: idType as IdType,
      id: headerId[1].readBigInt64BE(0).toString(),
      field: field as 'key' | 'value',
      versions: [],
    }
  } else {
    const minimum = idSize === 8 ? 9 : 5
    if (bytes.length < minimum || bytes[0] !== 0) {
      throw new UsageError(
        `Not an Apicurio frame (${bytes.length < minimum ? `${bytes.length} bytes` : `first byte 0x${bytes[0]!.toString(16).padStart(2, '0')}`}, expected 0x00 and a ${minimum - 1}-byte id): for a bare payload, pass its id with --headers apicurio.value.globalId=<id>`,
      )
    }
    let frame: ReturnType<typeof decodeFrame>
    try {
      frame = decodeFrame(bytes, { idSize })
    } catch (error) {
      throw new UsageError((error as Error).message)
    }
    if (frame.schemaId === 0) {
      throw new UsageError(
        frame.idSize === 4 && bytes.length >= 9
          ? `The frame's 4-byte id is 0, which no registry assigns: it looks like an 8-byte id (Apicurio 2.x, Legacy8ByteIdHandler), ${bytes.readUInt32BE(5)} as 8 bytes; inspect it with --id-size 8`
          : `The frame's ${frame.idSize}-byte id is 0, which no registry assigns`,
      )
    }
    found = {
      framing: 'framed',
      idSize: frame.idSize,
      idType: useId,
      id: String(frame.schemaId),
      field: 'value',
      versions: [],
    }
  }
  await using connection = new Connection(flags, io)
  const search = await connection.rest('GET', `/search/versions?${found.idType}=${found.id}&limit=100`)
  const listed =
    search.status === 200
      ? ((JSON.parse(search.text) as { versions?: Found['versions'] }).versions ?? [])
      : []
  found.versions = listed.map((v) => ({
    groupId: v.groupId ?? 'default',
    artifactId: v.artifactId,
    version: v.version,
    artifactType: v.artifactType,
  }))
  const artifactType = found.versions[0]?.artifactType ?? (await typeFromIdLookup(connection, found))
  const framing = flags.framing ?? 'apicurio'
  if (framing !== 'apicurio' && framing !== 'confluent') {
    throw new UsageError(`--framing must be apicurio or confluent, got ${framing}`)
  }
  const options = { useId: found.idType, idSize: found.idSize }
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
  const ctx = new SerializationContext(flags.topic ?? 'inspect', found.field)
  const decoded =
    found.framing === 'headers'
      ? await deserializer.deserializeMessage({ payload: bytes, headers }, ctx)
      : await deserializer.deserialize(bytes, ctx)
  // Printed as consume prints it: a union whose bare values would print alike, wrapped by branch.
  const value =
    artifactType === 'AVRO'
      ? (await avroOutputOfId(connection, found.idType, BigInt(found.id)))(decoded)
      : decoded
  if (flags.json) {
    io.stdout(
      `${toJsonText(
        {
          framing: found.framing,
          ...(found.framing === 'framed' ? { idSize: found.idSize } : {}),
          idType: found.idType,
          id: BigInt(found.id),
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
      `framing:  ${found.framing === 'framed' ? `framed (0x00 + ${found.idSize}-byte id)` : `headers mode (apicurio.${found.field}.${found.idType})`}`,
      `id:       ${found.idType} ${found.id}`,
      `artifact: ${artifacts}`,
      `format:   ${artifactType}${artifactType === 'PROTOBUF' ? ` (${framing} framing)` : ''}`,
      `value:    ${toJsonText(value).replace(/\n/g, '\n          ')}`,
      '',
    ].join('\n'),
  )
}

/**
 * When `/search/versions` lists nothing for the id (a registry that does not index it, or an older one): the id's
 * own lookup, whose answer names the artifact type by globalId, and else the schema's text tells the format. The
 * lookup is cached by the client, so the deserializer asks nothing more. Names the artifact where the answer did.
 */
async function typeFromIdLookup(connection: Connection, found: Found): Promise<string> {
  const id = BigInt(found.id)
  let registered: RegisteredSchema
  try {
    registered =
      found.idType === 'globalId'
        ? await connection.client.getSchemaByGlobalId(id)
        : await connection.client.getSchemaByContentId(id)
  } catch (error) {
    // A frame's id type is --use-id's guess: the registry is asked once whether the other type fits.
    throw found.framing === 'framed'
      ? await withOtherIdHint(connection.client, error, found.idType, id)
      : error
  }
  const type = registered.artifactType ?? schemaKindOfText(registered.schema)
  if (type === undefined) {
    throw new UsageError(
      `The registry does not say which format ${found.idType} ${found.id} is, and its text does not tell (it reads as Avro and as JSON Schema, or as neither): inspect the message by its globalId`,
    )
  }
  if (registered.artifactId !== undefined && registered.version !== undefined) {
    found.versions.push({
      groupId: registered.groupId ?? 'default',
      artifactId: registered.artifactId,
      version: registered.version,
      artifactType: type,
    })
  }
  return type
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
    return isHex(text) || isBase64(text) ? decodeText(text) : raw
  }
  return decodeText(input.trim())
}

function isHex(text: string): boolean {
  const compact = text.replace(/\s+/g, '')
  return compact.length > 0 && compact.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(compact)
}

function isBase64(text: string): boolean {
  return text.length > 0 && /^[A-Za-z0-9+/_-]+={0,2}$/.test(text.replace(/\s+/g, ''))
}

function decodeText(text: string): Buffer {
  if (isHex(text)) return Buffer.from(text.replace(/\s+/g, ''), 'hex')
  if (isBase64(text)) return Buffer.from(text.replace(/\s+/g, ''), 'base64')
  throw new UsageError('The message is neither hex nor base64 (use @FILE for raw bytes)')
}

/** `name=value` pairs; an id header's value is the decimal id or its 8 bytes in hex (`0x…`). */
function parseHeaders(pairs: readonly string[]): Record<string, Buffer> {
  const headers: Record<string, Buffer> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new UsageError(`--headers takes name=value, got ${pair}`)
    const name = pair.slice(0, at)
    const value = pair.slice(at + 1)
    if (/^-?\d+$/.test(value)) {
      const bytes = Buffer.alloc(8)
      bytes.writeBigInt64BE(BigInt(value))
      headers[name] = bytes
    } else if (/^0x[0-9a-fA-F]{16}$/.test(value)) {
      headers[name] = Buffer.from(value.slice(2), 'hex')
    } else {
      headers[name] = Buffer.from(value, 'utf8')
    }
  }
  return headers
}
