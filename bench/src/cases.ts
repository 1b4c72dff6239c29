import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import type avro from 'avsc'
import { avroSchemaByHand } from './by-hand.js'
import {
  EVENT_ARTIFACT,
  EVENT_READER_SCHEMA,
  EVENT_RECORD,
  eventReaderType,
  eventType,
  GROUP_ID,
  PAYMENT_ARTIFACT,
  PAYMENT_RECORD,
  PAYMENT_RECORD_AVSC,
  paymentType,
} from './fixtures.js'
import { expectedFrame, frameHeader } from './frames.js'
import { paymentLogicalRecord, paymentLogicalType } from './payment-logical.js'
import { PEER_CASES } from './peer-cases.js'
import { PLATFORMATIC_CASES } from './platformatic-cases.js'
import { RULES_CASES } from './rules-cases.js'
import type { RuleIds } from './rules-fixtures.js'
import type { Body } from './timing.js'

/** What the parent tells a worker: where the registry is and the ids it gave the bench's schemas. */
export interface BenchEnv {
  url: string
  /** The in-process Confluent REST stub the peers talk to. */
  confluentUrl: string
  /** globalId of the JSON Schema and of the Protobuf version of `bench.Event`. */
  jsonId: number
  protoId: number
  /** globalId of `bench.Event` (what our serializer writes in the frame, with the default `useId`). */
  eventId: number
  /** globalId of `bench.Payment`. */
  paymentId: number
  /** globalIds of the data-contract rows' artifacts (`bench.Event` with one rule in its ruleset). */
  ruleIds: RuleIds
}

export interface PreparedCase {
  body: Body
  /** What one call must return (a length or a field value): checked before the warm-up. */
  expect: number
  /** Releases what the case opened (the registry client). */
  close?: () => Promise<void>
}

export type Group =
  | 'encode'
  | 'decode'
  | 'logical'
  | 'json-encode'
  | 'json-decode'
  | 'proto-encode'
  | 'proto-decode'
  | 'rules'

export interface CaseDef {
  /** Unique, stable: used for `BENCH_FILTER` and in the tables. */
  name: string
  group: Group
  /** What the row shows, in code. */
  label: string
  /** The case whose ops/s this one is divided by (the avsc ceiling it competes with); absent for a ceiling. */
  ceiling?: string
  /** The case of ours doing the same job, when this one is a peer serde (the report shows ours ÷ this). */
  peerOf?: string
  /** Whether the case talks to the registry (during setup only; the measured run must make no request). */
  usesRegistry: boolean
  /** Why the case cannot run on this Node or install (a peer that needs a newer Node), or `undefined` when it can. */
  unavailable?: (() => string | undefined) | undefined
  prepare(env: BenchEnv): Promise<PreparedCase>
}

/** A scratch buffer as big as our serializer's, so both encode into memory of the same size. */
const SCRATCH_SIZE = 8 * 1024

/** The Avro body of `bench.Event` is 132 bytes; framed 137. */
const EVENT_BODY_LENGTH = 132
const EVENT_FRAME_LENGTH = 137
/** `bench.Payment` framed: 77 bytes with our exact long (`ledger` beyond 2^53), 76 with avsc's capped one. */
const PAYMENT_FRAME_LENGTH = 77
const PAYMENT_AVSC_FRAME_LENGTH = 76

const ctx = new SerializationContext('bench-events', MessageField.VALUE)

function sync(body: () => number): Body {
  return { kind: 'sync', body }
}

/** The avsc ceiling for a framed copy: header + `type.encode` into a reused buffer at offset 5, then copy out. */
function encodePreallocCopyBytes(type: avro.Type, record: unknown, schemaId: number): () => Buffer {
  const scratch = Buffer.allocUnsafe(SCRATCH_SIZE)
  return () => {
    scratch[0] = 0
    scratch.writeUInt32BE(schemaId, 1)
    const end = type.encode(record, scratch, 5)
    if (end < 0) throw new RangeError('scratch buffer too small')
    const out = Buffer.allocUnsafe(end)
    scratch.copy(out, 0, 0, end)
    return out
  }
}

function encodePreallocCopy(type: avro.Type, record: unknown, schemaId: number): () => number {
  const encode = encodePreallocCopyBytes(type, record, schemaId)
  return () => encode().length
}

/**
 * The avsc unframe ceiling: check the magic byte, read the id (and compare it, as a serde looks its schema up by
 * it), decode at offset 5 (with `resolver` when given), check that nothing trails.
 */
function decodeFramedValue(
  type: avro.Type,
  framed: Buffer,
  schemaId: number,
  resolver?: avro.Resolver,
): () => any {
  return () => {
    if (framed[0] !== 0) throw new TypeError('not a frame')
    if (framed.readUInt32BE(1) !== schemaId) throw new TypeError('unknown schema id')
    const { value, offset } = type.decode(framed, 5, resolver)
    if (offset !== framed.length) throw new TypeError('trailing bytes')
    return value
  }
}

function decodeFramedSeq(
  type: avro.Type,
  framed: Buffer,
  schemaId: number,
  resolver?: avro.Resolver,
): () => number {
  const decode = decodeFramedValue(type, framed, schemaId, resolver)
  return () => decode().seq
}

async function openClient(env: BenchEnv): Promise<RegistryClient> {
  return new RegistryClient({ url: env.url, groupId: GROUP_ID })
}

function seqOf(value: { seq: number }): number {
  return value.seq
}

const AVRO_CASES: readonly CaseDef[] = [
  // ---- encode, bench.Event -------------------------------------------------------------------------------
  {
    name: 'avsc.encode-prealloc',
    group: 'encode',
    label: 'avsc `type.encode(r, scratch, 5)` (returns a view, no copy)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const type = eventType(await avroSchemaByHand(env, env.eventId))
      const scratch = Buffer.allocUnsafe(SCRATCH_SIZE)
      return {
        expect: EVENT_FRAME_LENGTH,
        body: sync(() => {
          scratch[0] = 0
          scratch.writeUInt32BE(env.eventId, 1)
          const end = type.encode(EVENT_RECORD, scratch, 5)
          return scratch.subarray(0, end).length
        }),
      }
    },
  },
  {
    name: 'avsc.encode-prealloc-copy',
    group: 'encode',
    label: 'avsc `type.encode(r, scratch, 5)` + copy out (**ceiling**)',
    usesRegistry: true,
    async prepare(env) {
      return {
        expect: EVENT_FRAME_LENGTH,
        body: sync(
          encodePreallocCopy(eventType(await avroSchemaByHand(env, env.eventId)), EVENT_RECORD, env.eventId),
        ),
      }
    },
  },
  {
    name: 'avsc.encode-prealloc-copy-no-http',
    group: 'encode',
    label:
      'the ceiling in a process that never made an HTTP request (its schema from the fixture, not fetched)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: false,
    async prepare(env) {
      return {
        expect: EVENT_FRAME_LENGTH,
        body: sync(encodePreallocCopy(eventType(), EVENT_RECORD, env.eventId)),
      }
    },
  },
  {
    name: 'avsc.toBuffer',
    group: 'encode',
    label: 'avsc `type.toBuffer(r)` (body only, no frame)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const type = eventType(await avroSchemaByHand(env, env.eventId))
      return { expect: EVENT_BODY_LENGTH, body: sync(() => type.toBuffer(EVENT_RECORD).length) }
    },
  },
  {
    name: 'avsc.encode-prealloc-copy-awaited',
    group: 'encode',
    label: 'the ceiling returned as `Promise.resolve(bytes)`, each awaited (what any Promise API pays)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const encode = encodePreallocCopyBytes(
        eventType(await avroSchemaByHand(env, env.eventId)),
        EVENT_RECORD,
        env.eventId,
      )
      return {
        expect: EVENT_FRAME_LENGTH,
        body: {
          kind: 'async',
          body: { call: () => Promise.resolve(encode()), pick: (bytes: Uint8Array) => bytes.length },
        },
      }
    },
  },
  {
    name: 'ours.serializeSync',
    group: 'encode',
    label: '`serializer.serializeSync(r, ctx)`',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const serializer = new AvroSerializer(client, EVENT_ARTIFACT)
      await serializer.prepare(ctx)
      return {
        expect: EVENT_FRAME_LENGTH,
        body: sync(() => serializer.serializeSync(EVENT_RECORD, ctx).length),
        close: () => client.close(),
      }
    },
  },
  {
    name: 'ours.serialize',
    group: 'encode',
    label: '`await serializer.serialize(r, ctx)` (each call awaited)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const serializer = new AvroSerializer(client, EVENT_ARTIFACT)
      await serializer.prepare(ctx)
      return {
        expect: EVENT_FRAME_LENGTH,
        body: {
          kind: 'async',
          body: {
            call: () => serializer.serialize(EVENT_RECORD, ctx),
            pick: (bytes: Uint8Array) => bytes.length,
          },
        },
        close: () => client.close(),
      }
    },
  },
  {
    name: 'ours.serializeMessageSync',
    group: 'encode',
    label: '`serializer.serializeMessageSync(r, ctx)` (MESSAGE_HEADERS: body + 8-byte id header)',
    ceiling: 'avsc.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const serializer = new AvroSerializer(client, EVENT_ARTIFACT, {
        wireFormat: WireFormat.MESSAGE_HEADERS,
      })
      await serializer.prepare(ctx)
      return {
        expect: EVENT_BODY_LENGTH,
        body: sync(() => serializer.serializeMessageSync(EVENT_RECORD, ctx).payload.length),
        close: () => client.close(),
      }
    },
  },

  // ---- decode, bench.Event -------------------------------------------------------------------------------
  {
    name: 'avsc.decode-framed',
    group: 'decode',
    label: 'avsc unframe + `type.decode(framed, 5)` (**ceiling**)',
    usesRegistry: true,
    async prepare(env) {
      const type = eventType(await avroSchemaByHand(env, env.eventId))
      const framed = expectedFrame(type, EVENT_RECORD, env.eventId)
      return { expect: EVENT_RECORD.seq, body: sync(decodeFramedSeq(type, framed, env.eventId)) }
    },
  },
  {
    name: 'avsc.decode-framed-no-http',
    group: 'decode',
    label:
      'the ceiling in a process that never made an HTTP request (its schema from the fixture, not fetched)',
    ceiling: 'avsc.decode-framed',
    usesRegistry: false,
    async prepare(env) {
      const type = eventType()
      const framed = expectedFrame(type, EVENT_RECORD, env.eventId)
      return { expect: EVENT_RECORD.seq, body: sync(decodeFramedSeq(type, framed, env.eventId)) }
    },
  },
  {
    name: 'avsc.fromBuffer',
    group: 'decode',
    label: 'avsc `type.fromBuffer(body)` (body only, no frame)',
    ceiling: 'avsc.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const type = eventType(await avroSchemaByHand(env, env.eventId))
      const body = type.toBuffer(EVENT_RECORD)
      return { expect: EVENT_RECORD.seq, body: sync(() => type.fromBuffer(body).seq) }
    },
  },
  {
    name: 'avsc.decode-framed-awaited',
    group: 'decode',
    label: 'the ceiling returned as `Promise.resolve(value)`, each awaited (what any Promise API pays)',
    ceiling: 'avsc.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const type = eventType(await avroSchemaByHand(env, env.eventId))
      const decode = decodeFramedValue(type, expectedFrame(type, EVENT_RECORD, env.eventId), env.eventId)
      return {
        expect: EVENT_RECORD.seq,
        body: { kind: 'async', body: { call: () => Promise.resolve(decode()), pick: seqOf } },
      }
    },
  },
  {
    name: 'ours.deserializeSync',
    group: 'decode',
    label: '`deserializer.deserializeSync(framed, ctx)`',
    ceiling: 'avsc.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const deserializer = new AvroDeserializer<{ seq: number }>(client)
      await deserializer.prepare(env.eventId)
      const framed = expectedFrame(eventType(), EVENT_RECORD, env.eventId)
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => deserializer.deserializeSync(framed, ctx).seq),
        close: () => client.close(),
      }
    },
  },
  {
    name: 'ours.deserialize',
    group: 'decode',
    label: '`await deserializer.deserialize(framed, ctx)` (each call awaited)',
    ceiling: 'avsc.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const deserializer = new AvroDeserializer<{ seq: number }>(client)
      await deserializer.prepare(env.eventId)
      const framed = expectedFrame(eventType(), EVENT_RECORD, env.eventId)
      return {
        expect: EVENT_RECORD.seq,
        body: { kind: 'async', body: { call: () => deserializer.deserialize(framed, ctx), pick: seqOf } },
        close: () => client.close(),
      }
    },
  },
  {
    name: 'avsc.decode-framed-resolver',
    group: 'decode',
    label: 'avsc unframe + `reader.decode(framed, 5, resolver)` (reader schema v2, **ceiling**)',
    usesRegistry: true,
    async prepare(env) {
      const writer = eventType(await avroSchemaByHand(env, env.eventId))
      const reader = eventReaderType()
      const resolver = reader.createResolver(writer)
      const framed = expectedFrame(writer, EVENT_RECORD, env.eventId)
      return { expect: EVENT_RECORD.seq, body: sync(decodeFramedSeq(reader, framed, env.eventId, resolver)) }
    },
  },
  {
    name: 'ours.deserializeSync-reader',
    group: 'decode',
    label: '`deserializeSync(framed, ctx)` with `readerSchema` v2 (resolver path)',
    ceiling: 'avsc.decode-framed-resolver',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const deserializer = new AvroDeserializer<{ seq: number }>(client, {
        readerSchema: EVENT_READER_SCHEMA,
      })
      await deserializer.prepare(env.eventId)
      const framed = expectedFrame(eventType(), EVENT_RECORD, env.eventId)
      return {
        expect: EVENT_RECORD.seq,
        body: sync(() => deserializer.deserializeSync(framed, ctx).seq),
        close: () => client.close(),
      }
    },
  },

  // ---- logical types and a long beyond 2^53, bench.Payment --------------------------------------------------
  {
    name: 'avsc.payment-logical.encode-prealloc-copy',
    group: 'logical',
    label:
      'avsc with `LogicalType` classes (Date, decimal string, bigint micros) and exact `LongType.__with` longs, into scratch + copy (**fair ceiling**)',
    usesRegistry: true,
    async prepare(env) {
      return {
        expect: PAYMENT_FRAME_LENGTH,
        body: sync(
          encodePreallocCopy(
            paymentLogicalType(await avroSchemaByHand(env, env.paymentId)),
            paymentLogicalRecord(PAYMENT_RECORD),
            env.paymentId,
          ),
        ),
      }
    },
  },
  {
    name: 'avsc.payment-logical.decode-framed',
    group: 'logical',
    label:
      'avsc with the same `LogicalType` classes and exact longs: unframe + `type.decode(framed, 5)` (**fair ceiling**)',
    usesRegistry: true,
    async prepare(env) {
      const type = paymentLogicalType(await avroSchemaByHand(env, env.paymentId))
      const framed = Buffer.concat([
        frameHeader(env.paymentId),
        type.toBuffer(paymentLogicalRecord(PAYMENT_RECORD)),
      ])
      const decode = decodeFramedValue(type, framed, env.paymentId)
      return { expect: PAYMENT_RECORD.seq, body: sync(() => Number(decode().seq)) }
    },
  },
  {
    name: 'avsc.payment.encode-prealloc-copy',
    group: 'logical',
    label:
      'avsc encode into scratch + copy, default long and no logical types (numbers and a Buffer, big long capped)',
    ceiling: 'avsc.payment-logical.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      return {
        expect: PAYMENT_AVSC_FRAME_LENGTH,
        body: sync(
          encodePreallocCopy(
            paymentType(await avroSchemaByHand(env, env.paymentId)),
            PAYMENT_RECORD_AVSC,
            env.paymentId,
          ),
        ),
      }
    },
  },
  {
    name: 'ours.payment.serializeSync',
    group: 'logical',
    label: '`serializeSync` (Date, decimal string, bigint beyond 2^53; `longs: auto`)',
    ceiling: 'avsc.payment-logical.encode-prealloc-copy',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const serializer = new AvroSerializer(client, PAYMENT_ARTIFACT)
      await serializer.prepare(ctx)
      return {
        expect: PAYMENT_FRAME_LENGTH,
        body: sync(() => serializer.serializeSync(PAYMENT_RECORD, ctx).length),
        close: () => client.close(),
      }
    },
  },
  {
    name: 'avsc.payment.decode-framed',
    group: 'logical',
    label:
      'avsc unframe + `type.decode(framed, 5)`, default long and no logical types (numbers and a Buffer)',
    ceiling: 'avsc.payment-logical.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const type = paymentType(await avroSchemaByHand(env, env.paymentId))
      const framed = Buffer.concat([frameHeader(env.paymentId), type.toBuffer(PAYMENT_RECORD_AVSC)])
      return {
        expect: PAYMENT_RECORD.seq,
        body: sync(decodeFramedSeq(type, framed, env.paymentId)),
      }
    },
  },
  {
    name: 'ours.payment.deserializeSync',
    group: 'logical',
    label: '`deserializeSync` (to Date, decimal string, bigint; `longs: auto`)',
    ceiling: 'avsc.payment-logical.decode-framed',
    usesRegistry: true,
    async prepare(env) {
      const client = await openClient(env)
      const serializer = new AvroSerializer(client, PAYMENT_ARTIFACT)
      await serializer.prepare(ctx)
      const framed = serializer.serializeSync(PAYMENT_RECORD, ctx)
      const deserializer = new AvroDeserializer<{ seq: number }>(client)
      await deserializer.prepare(env.paymentId)
      return {
        expect: PAYMENT_RECORD.seq,
        body: sync(() => deserializer.deserializeSync(framed, ctx).seq),
        close: () => client.close(),
      }
    },
  },
]

export const CASES: readonly CaseDef[] = [...AVRO_CASES, ...PEER_CASES, ...PLATFORMATIC_CASES, ...RULES_CASES]

export function caseNamed(name: string): CaseDef {
  const found = CASES.find((c) => c.name === name)
  if (found === undefined) throw new TypeError(`No bench case named '${name}'`)
  return found
}
