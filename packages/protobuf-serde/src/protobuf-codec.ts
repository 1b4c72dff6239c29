import type { RuleValueKit, SchemaCodec } from '@x/serde-core'
import protobuf from 'protobufjs'
import { FastReader } from './fast-reader.js'
import { finishRead } from './finish-read.js'
import { type Framing, FramingError, prefixFor, readIndexes, readRef } from './framing.js'
import type { DeclaredMessage, ProtoSchema } from './proto-schema.js'
import { toRuleMessage } from './rule-record.js'
import { declaresField } from './rule-shape.js'
import { fromRuleMessage } from './rule-values.js'
import { type LongMode, type MessagePlan, planOf, toEncodable } from './values.js'

/** How messages are read into JavaScript values (see the type mapping in the README). */
export interface ReadOptions {
  longs: LongMode
  enums: 'name' | 'number'
  /** proto3 fields not on the wire are present with their default value (false: left out). */
  defaults: boolean
  unknownFields: 'drop' | 'keep'
}

/** A writer's choice: which message of the file, in which framing. */
export interface WriteOptions {
  /** The full name of the message to write (`com.example.Order`); the file's first message when undefined. */
  messageType: string | undefined
  framing: Framing
}

/** A `messageType` the schema does not declare, or a prefix that names none of its messages. */
export class UnknownMessageTypeError extends Error {
  override name = 'UnknownMessageTypeError'
}

interface Writable {
  readonly declared: DeclaredMessage
  readonly plan: MessagePlan
  readonly prefix: Buffer
}

/**
 * One `.proto` schema with the serde's options: writes the chosen message type after its prefix (a `Ref` or message
 * indexes), reads the prefix to find the message type, then the message.
 */
export class ProtobufCodec implements SchemaCodec {
  readonly schema: ProtoSchema
  readonly recordName: string | undefined
  readonly #framing: Framing
  readonly #read: ReadOptions
  readonly #toObject: protobuf.IConversionOptions
  readonly #writable: Writable | undefined
  readonly #byRef = new Map<string, DeclaredMessage | null>()
  /** The prefix bytes of the last message read (a copy), and what they named: most topics repeat one prefix. */
  #lastPrefix: Buffer | undefined
  /** The writer of encodeInto, reused (empty between calls). */
  #writer: protobuf.Writer | undefined
  #lastRead: { readonly declared: DeclaredMessage; readonly plan: MessagePlan } | undefined

  constructor(schema: ProtoSchema, framing: Framing, read: ReadOptions, write: WriteOptions | undefined) {
    this.schema = schema
    this.#framing = framing
    this.#read = read
    this.#toObject = {
      enums: read.enums === 'name' ? String : undefined,
      defaults: read.defaults,
      oneofs: true,
      arrays: read.defaults,
      objects: read.defaults,
    } as protobuf.IConversionOptions
    if (write !== undefined) {
      const declared = chooseWritten(schema, write.messageType)
      this.#writable = { declared, plan: planOf(declared.type), prefix: prefixFor(declared, write.framing) }
      this.recordName = declared.type.fullName.slice(1)
    } else {
      this.recordName = schema.messages[0]!.type.fullName.slice(1)
    }
  }

  encodeInto(value: unknown, target: Buffer, offset: number): number {
    const writable = this.#writable!
    const { type } = writable.declared
    const encodable = value instanceof type.ctor ? value : toEncodable(writable.plan, value)
    // One writer per codec, reset for each message: it keeps the buffer it grew to, so a message is written once,
    // then copied once into `target` (a new writer per message grows, and `finish()` copies again).
    let writer = this.#writer
    if (writer === undefined || writer.len !== 0) writer = this.#writer = protobuf.Writer.create()
    let length: number
    try {
      type.encode(encodable as protobuf.Message, writer)
      length = writer.len
    } catch (error) {
      this.#writer = undefined
      throw error
    }
    const prefix = writable.prefix
    const end = offset + prefix.length + length
    if (end <= target.length) {
      prefix.copy(target, offset)
      writer.finishInto(target, offset + prefix.length)
    }
    writer.reset()
    if (length > MAX_KEPT_WRITER) this.#writer = undefined
    return end <= target.length ? end : target.length - end
  }

  /**
   * The record rules see for a message of this schema: proto3's JSON mapping of it (see `toRuleMessage`: JSON
   * names, well-known types in their JSON forms, doubles as doubles), as `kit.json` writes it.
   */
  toRuleRecord(
    value: unknown,
    fields: readonly string[] | undefined,
    kit: RuleValueKit,
  ): Record<string, unknown> {
    const plan = this.#writable?.plan ?? this.#lastRead?.plan
    return kit.json(plan === undefined ? value : toRuleMessage(plan, value, kit.double, fields), fields)
  }

  /** Whether `key` of a rule record names a field of the message read last, by its JSON or `.proto` name. */
  declaresRuleField(key: string): boolean {
    const plan = this.#lastRead?.plan
    return plan !== undefined && declaresField(plan, key)
  }

  fromRuleRecord(record: Record<string, unknown>): unknown {
    const writable = this.#writable
    return writable === undefined ? record : fromRuleMessage(writable.plan, record)
  }

  decode(bytes: Buffer, offset: number, end: number, _writer?: SchemaCodec): unknown {
    let read = this.#lastRead
    let start: number
    const last = this.#lastPrefix
    if (last !== undefined && read !== undefined && samePrefix(bytes, offset, end, last)) {
      // The same prefix bytes name the same message: a prefix is self-delimiting.
      start = offset + last.length
    } else {
      const prefix =
        this.#framing === 'apicurio' ? readRef(bytes, offset, end) : readIndexes(bytes, offset, end)
      const declared =
        prefix.name !== undefined ? this.#byRefName(prefix.name) : this.#byIndexes(prefix.indexes!)
      start = prefix.start
      read = { declared, plan: planOf(declared.type) }
      this.#lastRead = read
      // A copy: Kafka clients reuse the buffers they hand out.
      this.#lastPrefix =
        start - offset <= MAX_REMEMBERED_PREFIX ? Buffer.from(bytes.subarray(offset, start)) : undefined
    }
    return this.#decodeMessage(read, bytes.subarray(start, end))
  }

  decodedRuleRecord(record: Record<string, unknown>): unknown {
    const read = this.#lastRead
    if (read === undefined) return record
    const { type } = read.declared
    const encoded = type.encode(
      toEncodable(read.plan, fromRuleMessage(read.plan, record)) as protobuf.Message,
    )
    return this.#decodeMessage(read, Buffer.from(encoded.finish()))
  }

  /** The message of `read`'s type in `body` (after the prefix), as `decode` returns it. */
  #decodeMessage(read: { declared: DeclaredMessage; plan: MessagePlan }, body: Buffer): unknown {
    const reader = new FastReader(body)
    const keep = this.#read.unknownFields === 'keep'
    reader.discardUnknown = !keep
    const { type } = read.declared
    const message = type.decode(reader) as unknown as Record<string, unknown>
    const out = type.toObject(message as unknown as protobuf.Message, this.#toObject) as Record<
      string,
      unknown
    >
    finishRead(read.plan, message, out, this.#read.longs, keep)
    return out
  }

  /**
   * The message a `Ref` names: Java writes the simple name (`Order`; `Customer` for `Order.Customer`). A full name
   * is taken too. A top-level message wins over a nested one of the same simple name (Java looks top-level only).
   */
  #byRefName(name: string): DeclaredMessage {
    let found = this.#byRef.get(name)
    if (found === undefined) {
      const { messages } = this.schema
      found =
        messages.find((m) => m.type.fullName.slice(1) === name) ??
        messages.find((m) => m.indexes.length === 1 && m.type.name === name) ??
        onlyOne(messages.filter((m) => m.type.name === name)) ??
        null
      this.#byRef.set(name, found)
    }
    if (found === null) {
      throw new UnknownMessageTypeError(
        `the Ref names '${name.slice(0, 200)}', which is no message of the schema (its messages: ${this.#names()})`,
      )
    }
    return found
  }

  #byIndexes(indexes: readonly number[]): DeclaredMessage {
    const found = this.schema.messages.find(
      (m) => m.indexes.length === indexes.length && m.indexes.every((index, i) => index === indexes[i]),
    )
    if (found === undefined) {
      throw new FramingError(
        `the message indexes [${indexes.join(', ')}] name no message of the schema (its messages: ${this.#names()})`,
      )
    }
    return found
  }

  #names(): string {
    const names = this.schema.messages.map((m) => m.type.fullName.slice(1))
    return names.length > 10 ? `${names.slice(0, 10).join(', ')}, …` : names.join(', ')
  }
}

/** A writer that grew beyond this for one message is dropped after it, not kept for the next. */
const MAX_KEPT_WRITER = 1 << 20

/** Prefixes longer than this (a `Ref` naming a very long message name) are read each time, not remembered. */
const MAX_REMEMBERED_PREFIX = 64

/** Whether the bytes at `offset` begin with exactly the bytes of `prefix`. */
function samePrefix(bytes: Buffer, offset: number, end: number, prefix: Buffer): boolean {
  const length = prefix.length
  if (end - offset < length) return false
  for (let i = 0; i < length; i++) if (bytes[offset + i] !== prefix[i]) return false
  return true
}

function onlyOne<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined
}

/** The message a writer writes: `messageType` (a full name), or the file's first message, as Java does. */
function chooseWritten(schema: ProtoSchema, messageType: string | undefined): DeclaredMessage {
  if (messageType === undefined) return schema.messages[0]!
  const found = schema.messages.find((m) => m.type.fullName.slice(1) === messageType)
  if (found === undefined) {
    throw new UnknownMessageTypeError(
      `messageType '${messageType}' is no message of the schema (its messages: ${schema.messages
        .map((m) => m.type.fullName.slice(1))
        .join(', ')})`,
    )
  }
  return found
}
