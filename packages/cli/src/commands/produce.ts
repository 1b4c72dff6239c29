import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { isSerdeError, messageOf } from '@x/errors'
import { KafkaJsSerde, type OutgoingKafkaMessage } from '@x/kafka'
import { AnySerializer, KEY_TYPES, type KeyType } from '@x/message-contract'
import type { RegisteredSchema } from '@x/registry-client'
import { type ExactJson, isJsonObject } from '@x/registry-client/json'
import { WireFormat } from '@x/wire-format'
import { Kafka, logLevel, Partitioners } from 'kafkajs'
import type { Config } from '../config.js'
import { type Connection, type ConnectionFlags, connect } from '../connection.js'
import type { Io } from '../io.js'
import { avroInput, type JsonInput, jsonSchemaInput, protobufInput } from '../json-input.js'
import { parseJsonText } from '../json-text.js'
import { brokerError, type KafkaFlags, kafkaConfig } from '../kafka-connection.js'
import { referenceTexts } from '../reference-texts.js'
import { CheckFailed, UsageError } from '../usage-error.js'

export interface ProduceFlags extends ConnectionFlags, KafkaFlags {
  artifact?: string
  headers?: boolean
  /** The key of every message (not a TLS key: that file is `certKey`). */
  key?: string
  /** `--cert-key`: the key file of the registry client certificate (`--key` elsewhere). */
  certKey?: string
  keyField?: string
  useId?: string
  messageType?: string
  keyType?: string
  /** With `--key-type schema`: the artifact keys are written with (default `<topic>-key`). */
  keyArtifact?: string
}

/** What `--key-type` takes in `produce`: a key type of Kafka's standard serializers, or `schema`. */
export type ProduceKeyType = KeyType | 'schema'

/** Messages sent per `producer.send`. */
const SEND_CHUNK = 500

/** One input line, encoded, or why it could not be. */
export interface EncodedLine {
  line: number
  message?: OutgoingKafkaMessage
  error?: string
}

/**
 * `x-serde produce TOPIC [@FILE|-]`: JSON lines (one value per line; `null` is a tombstone) encoded with the latest
 * version of the artifact the topic strategy names (`<topic>-value` in the registry group, or `--artifact`), in that
 * artifact's format, framed or (`--headers`) in headers mode, and sent with KafkaJS. Every line is encoded before
 * anything is sent: a line that is not JSON or does not match the schema is reported with its number, and then
 * nothing at all is sent (exit 1), so that a bad file never leaves half of itself on the topic.
 */
export async function produce(
  topic: string,
  input: string | undefined,
  flags: ProduceFlags,
  config: Config,
  io: Io,
): Promise<void> {
  if (flags.key !== undefined && flags.keyField !== undefined) {
    throw new UsageError('Give --key or --key-field, not both')
  }
  const useId = flags.useId ?? 'globalId'
  if (useId !== 'globalId' && useId !== 'contentId') {
    throw new UsageError(`--use-id must be globalId or contentId, got ${useId}`)
  }
  const keyType = (flags.keyType ?? 'string') as ProduceKeyType
  if (keyType !== 'schema' && !KEY_TYPES.has(keyType)) {
    throw new UsageError(
      `--key-type must be one of ${[...KEY_TYPES, 'schema'].join(', ')}, got ${flags.keyType}`,
    )
  }
  if (flags.keyArtifact !== undefined && keyType !== 'schema') {
    throw new UsageError('--key-artifact goes with --key-type schema')
  }
  const kafkaSettings = kafkaConfig(flags, io, 'x-serde-produce')
  const text = await readLines(input, io)
  // `--key` is the message key here; the client certificate's key file is `--cert-key`.
  await using connection = connect({ ...flags, key: flags.certKey }, config, io)
  const values = await artifactWriter(connection, flags.artifact ?? `${topic}-value`, flags, {
    field: 'value',
    named: flags.artifact !== undefined,
    messageType: flags.messageType,
  })
  // Keys with a schema are written as values are: the same lookup, JSON input and writer, on the key's artifact.
  const keys =
    keyType === 'schema'
      ? await artifactWriter(connection, flags.keyArtifact ?? `${topic}-key`, flags, {
          field: 'key',
          named: flags.keyArtifact !== undefined,
          messageType: undefined,
        })
      : undefined
  const serde = new KafkaJsSerde(connection.client, {
    serializer: values.serializer,
    keys: keys === undefined ? (keyType as KeyType) : { serializer: keys.serializer },
  })
  const encoded = await encodeLines(text, {
    topic,
    convert: values.convert,
    serde,
    key: flags.key,
    keyField: flags.keyField,
    keyType,
    ...(keys === undefined ? {} : { keyConvert: keys.convert }),
  })
  const latest = values.latest
  const format = latest.artifactType
  const artifactId = values.artifactId
  const failed = encoded.filter((line) => line.error !== undefined)
  const what = `${connection.groupId}/${artifactId} version ${latest.version ?? '?'} (${format}, ${
    flags.headers ? 'headers mode' : 'framed'
  }, ${useId} ${String(useId === 'globalId' ? latest.globalId : latest.contentId)})${
    keys === undefined
      ? ''
      : `, keys with ${connection.groupId}/${keys.artifactId} version ${keys.latest.version ?? '?'} (${keys.latest.artifactType})`
  }`
  if (failed.length > 0) {
    for (const line of failed) io.stderr(`line ${line.line}: ${line.error}\n`)
    throw new CheckFailed(
      `${failed.length} of ${encoded.length} lines cannot be written with ${what}; nothing was sent`,
    )
  }
  if (encoded.length === 0) {
    io.stderr('no lines in the input; nothing was sent\n')
    return
  }
  const kafka = new Kafka({ ...kafkaSettings, logLevel: logLevel.NOTHING })
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
  // The first offset written in each partition.
  const partitions = new Map<number, string>()
  try {
    await producer.connect()
    try {
      for (let at = 0; at < encoded.length; at += SEND_CHUNK) {
        const messages = encoded.slice(at, at + SEND_CHUNK).map((line) => line.message!)
        const sent = await producer.send({ topic, acks: -1, messages: messages as never })
        for (const record of sent) {
          if (!partitions.has(record.partition)) partitions.set(record.partition, record.baseOffset ?? '?')
        }
      }
    } finally {
      await producer.disconnect()
    }
  } catch (error) {
    throw brokerError(error, kafkaSettings.brokers as string[])
  }
  const where = [...partitions]
    .sort(([a], [b]) => a - b)
    .map(([partition, first]) => `partition ${partition} from offset ${first}`)
    .join(', ')
  io.stderr(
    `sent ${encoded.length} message${encoded.length === 1 ? '' : 's'} to ${topic} (${where}) with ${what}\n`,
  )
}

/** The writer of one field: the artifact's latest version, how JSON input becomes its format, and its serializer. */
interface ArtifactWriter {
  artifactId: string
  latest: RegisteredSchema
  convert: JsonInput
  serializer: AnySerializer<unknown>
}

/**
 * The writer of values (or of keys with `--key-type schema`) with the latest version of `artifactId`: in that
 * artifact's format, framed or in headers mode as the flags say.
 *
 * @throws UsageError for an artifact the registry does not have, or of a type produce does not write.
 */
async function artifactWriter(
  connection: Connection,
  artifactId: string,
  flags: ProduceFlags,
  how: { field: 'key' | 'value'; named: boolean; messageType: string | undefined },
): Promise<ArtifactWriter> {
  let latest: RegisteredSchema
  try {
    latest = await connection.client.getSchema(artifactId)
  } catch (error) {
    if (isSerdeError(error, 'SCHEMA_NOT_FOUND')) {
      const flag = how.field === 'key' ? '--key-artifact' : '--artifact'
      throw new UsageError(
        `No artifact ${connection.groupId}/${artifactId} in the registry at ${connection.displayUrl}${
          how.named ? '' : ` (the topic strategy names <topic>-${how.field}; pass ${flag})`
        }`,
      )
    }
    throw error
  }
  const format = latest.artifactType
  if (format !== 'AVRO' && format !== 'JSON' && format !== 'PROTOBUF') {
    throw new UsageError(
      `${connection.groupId}/${artifactId} is of type ${format ?? '(not named)'}: produce writes AVRO, JSON and PROTOBUF`,
    )
  }
  // The writer every adapter uses: the artifact's latest version names the format.
  const convert = await jsonInputOf(connection, latest, how.messageType)
  const serializer = new AnySerializer(connection.client, {
    artifactResolver: () => artifactId,
    useId: flags.useId === 'contentId' ? 'contentId' : 'globalId',
    wireFormat: flags.headers ? WireFormat.MESSAGE_HEADERS : WireFormat.FRAMED_PAYLOAD,
    ...(how.messageType === undefined ? {} : { messageType: how.messageType }),
  })
  return { artifactId, latest, convert, serializer }
}

/**
 * How a JSON line becomes a value of `latest`'s format (the inverse of what `consume --json` prints), with the texts of
 * the artifacts it references, recursively: Avro named types and `.proto` imports defined elsewhere.
 */
export async function jsonInputOf(
  connection: Pick<Connection, 'client'>,
  latest: RegisteredSchema,
  messageType: string | undefined,
): Promise<JsonInput> {
  if (latest.artifactType === 'JSON') return jsonSchemaInput
  const references =
    latest.globalId === undefined
      ? new Map<string, string>()
      : await referenceTexts(connection, latest.globalId)
  return latest.artifactType === 'PROTOBUF'
    ? protobufInput(latest.schema, references, messageType)
    : avroInput(latest.schema, references.values())
}

/** The input's text: `@FILE`, or standard input (no argument, or `-`). */
async function readLines(input: string | undefined, io: Io): Promise<string> {
  if (input === undefined || input === '-') return (await io.readStdin()).toString('utf8')
  if (!input.startsWith('@')) {
    throw new UsageError(`The input is @FILE or - (standard input), got ${input}`)
  }
  try {
    return await readFile(resolve(io.cwd, input.slice(1)), 'utf8')
  } catch (error) {
    throw new UsageError(`Cannot read ${input.slice(1)}: ${(error as Error).message}`)
  }
}

/**
 * Each non-blank line of `text` parsed (exactly: integers beyond 2^53 as bigints), its key taken, its value
 * converted and encoded; a line that fails carries its number (1-based, blank lines counted) and why. A registry
 * outage is thrown, not blamed on a line.
 */
export async function encodeLines(
  text: string,
  how: {
    topic: string
    convert: JsonInput
    serde: Pick<KafkaJsSerde<unknown, unknown>, 'encodeMessage'>
    key: string | undefined
    keyField: string | undefined
    /** How the key is written (`--key-type`). @default 'string' */
    keyType?: ProduceKeyType
    /**
     * With `keyType` `'schema'`: how the key's JSON (`--key` parsed as JSON, or the `--key-field` field as it is)
     * becomes a value of the key artifact's format, as `convert` does for values.
     */
    keyConvert?: JsonInput
  },
): Promise<EncodedLine[]> {
  const keyType = how.keyType ?? 'string'
  const keyConvert = how.keyConvert
  if (keyType === 'schema' && keyConvert === undefined) {
    throw new TypeError("encodeLines: keyType 'schema' needs keyConvert")
  }
  const out: EncodedLine[] = []
  const lines = text.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const source = lines[index]!.trim()
    if (source === '') continue
    const line = index + 1
    let value: ExactJson
    try {
      value = parseJsonText(source)
    } catch (error) {
      out.push({ line, error: `not JSON: ${(error as Error).message}` })
      continue
    }
    let field: ExactJson | undefined
    if (how.keyField !== undefined) {
      // The line's own field only: `constructor` or `__proto__` is a field like any other, never Object's.
      field = isJsonObject(value) && Object.hasOwn(value, how.keyField) ? value[how.keyField] : undefined
      if (field === undefined || field === null) {
        out.push({ line, error: `no field "${how.keyField}" for the key (--key-field)` })
        continue
      }
    }
    try {
      let key: unknown
      if (keyConvert !== undefined) {
        // A key with a schema: JSON, converted as a value is.
        const json = field ?? (how.key === undefined ? undefined : keyJson(how.key))
        key = json === undefined ? undefined : keyConvert(json)
      } else {
        const text =
          field === undefined
            ? how.key
            : typeof field === 'string'
              ? field
              : typeof field === 'bigint'
                ? field.toString()
                : JSON.stringify(field)
        key = text === undefined ? undefined : keyOfText(keyType as KeyType, text)
      }
      const message = await how.serde.encodeMessage(how.topic, {
        ...(key === undefined ? {} : { key }),
        value: value === null ? null : how.convert(value),
      })
      out.push({ line, message })
    } catch (error) {
      if (isSerdeError(error, 'REGISTRY_CONNECTION') || isSerdeError(error, 'AUTHENTICATION')) throw error
      out.push({ line, error: messageOf(error) })
    }
  }
  return out
}

/** The `--key` of keys with a schema: JSON text, read exactly. */
function keyJson(text: string): ExactJson {
  try {
    return parseJsonText(text)
  } catch (error) {
    throw new TypeError(`the key is not JSON (--key-type schema): ${(error as Error).message}`)
  }
}

/**
 * The key of `--key` or `--key-field` as the key type takes it: text for `string` and `uuid`, an integer for `long`
 * (a bigint, exact), `int` and `short`, a number for `double` and `float`, base64 for `bytes`. A text that is not
 * of the type is an error of its line.
 */
export function keyOfText(type: KeyType, text: string): string | number | bigint | Buffer {
  switch (type) {
    case 'string':
    case 'uuid':
      return text
    case 'bytes':
      if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text))
        throw new TypeError(`the key is not base64 (--key-type bytes): ${text}`)
      return Buffer.from(text, 'base64')
    case 'long':
    case 'int':
    case 'short':
      if (!/^-?\d+$/.test(text))
        throw new TypeError(`the key is not an integer (--key-type ${type}): ${text}`)
      return type === 'long' ? BigInt(text) : Number(text)
    default: {
      const number = Number(text)
      if (text.trim() === '' || Number.isNaN(number)) {
        throw new TypeError(`the key is not a number (--key-type ${type}): ${text}`)
      }
      return number
    }
  }
}
