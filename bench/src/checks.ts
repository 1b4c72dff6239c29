import { deepStrictEqual, strictEqual } from 'node:assert/strict'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { RegistryClient } from '@x/registry-client'
import { encodeIdHeader, MessageField, SerializationContext, WireFormat } from '@x/wire-format'
import type { BenchEnv } from './cases.js'
import {
  EVENT_ARTIFACT,
  EVENT_READ_AS_V2,
  EVENT_READER_SCHEMA,
  EVENT_RECORD,
  eventReaderType,
  eventType,
  GROUP_ID,
  PAYMENT_ARTIFACT,
  PAYMENT_RECORD,
  PAYMENT_RECORD_AVSC,
  PAYMENT_RECORD_EXACT,
  paymentExactType,
  paymentType,
} from './fixtures.js'
import { expectedFrame, plain } from './frames.js'
import { paymentLogicalRecord, paymentLogicalType } from './payment-logical.js'

/**
 * Before anything is timed: every case must produce the same bytes, and decode to the same values, as avsc. Our
 * frames must be exactly the 5-byte header followed by avsc's `toBuffer` bytes; decoded values must deep-equal the
 * record (after turning avsc's record classes into plain objects). Throws an `AssertionError` on the first
 * difference. Returns one line per check, for the log.
 */
export async function checkCorrectness(env: BenchEnv): Promise<string[]> {
  const done: string[] = []
  const ctx = new SerializationContext('bench-events', MessageField.VALUE)
  const client = new RegistryClient({ url: env.url, groupId: GROUP_ID })
  try {
    const type = eventType()
    const body = type.toBuffer(EVENT_RECORD)
    const frame = expectedFrame(type, EVENT_RECORD, env.eventId)
    strictEqual(
      body.length,
      132,
      'bench.Event body length (132 bytes, the size its figures were measured with)',
    )
    deepStrictEqual(plain(type.fromBuffer(body)), EVENT_RECORD, 'avsc fromBuffer(toBuffer(r)) equals r')

    const scratch = Buffer.alloc(256)
    scratch.writeUInt32BE(env.eventId, 1)
    const end = type.encode(EVENT_RECORD, scratch, 5)
    deepStrictEqual(scratch.subarray(0, end), frame, 'avsc encode at offset 5 gives header + toBuffer bytes')
    done.push(`bench.Event: body ${body.length} B, frame ${frame.length} B, globalId ${env.eventId}`)

    const serializer = new AvroSerializer(client, EVENT_ARTIFACT)
    await serializer.prepare(ctx)
    deepStrictEqual(serializer.serializeSync(EVENT_RECORD, ctx), frame, 'serializeSync bytes')
    deepStrictEqual(await serializer.serialize(EVENT_RECORD, ctx), frame, 'serialize bytes')
    const headers = new AvroSerializer(client, EVENT_ARTIFACT, { wireFormat: WireFormat.MESSAGE_HEADERS })
    await headers.prepare(ctx)
    const message = headers.serializeMessageSync(EVENT_RECORD, ctx)
    deepStrictEqual(message.payload, body, 'serializeMessageSync payload = toBuffer bytes')
    deepStrictEqual(
      message.headers,
      {
        'apicurio.value.globalId': Buffer.from(encodeIdHeader(env.eventId)),
        'apicurio.value.encoding': Buffer.from('BINARY'),
      },
      'serializeMessageSync headers',
    )
    done.push(
      'serializeSync, serialize = header + toBuffer; serializeMessageSync = toBuffer + 8-byte id header',
    )

    const decoded = type.decode(frame, 5)
    strictEqual(decoded.offset, frame.length, 'avsc decode(framed, 5) reads to the end')
    deepStrictEqual(plain(decoded.value), EVENT_RECORD, 'avsc decode(framed, 5)')
    const deserializer = new AvroDeserializer(client)
    await deserializer.prepare(env.eventId)
    deepStrictEqual(plain(deserializer.deserializeSync(frame, ctx)), EVENT_RECORD, 'deserializeSync value')
    deepStrictEqual(plain(await deserializer.deserialize(frame, ctx)), EVENT_RECORD, 'deserialize value')
    done.push('deserializeSync, deserialize, avsc decode(framed, 5) all give the record back')

    const reader = eventReaderType()
    const resolved = reader.decode(frame, 5, reader.createResolver(type))
    deepStrictEqual(plain(resolved.value), EVENT_READ_AS_V2, 'avsc reader.decode(framed, 5, resolver)')
    const withReader = new AvroDeserializer(client, { readerSchema: EVENT_READER_SCHEMA })
    await withReader.prepare(env.eventId)
    deepStrictEqual(
      plain(withReader.deserializeSync(frame, ctx)),
      EVENT_READ_AS_V2,
      'deserializeSync (reader)',
    )
    done.push('readerSchema v2: ours and avsc resolve to the same value (note dropped, region defaulted)')

    const paymentFrame = expectedFrame(paymentExactType, PAYMENT_RECORD_EXACT, env.paymentId)
    const payments = new AvroSerializer(client, PAYMENT_ARTIFACT)
    await payments.prepare(ctx)
    const ours = payments.serializeSync(PAYMENT_RECORD, ctx)
    deepStrictEqual(ours, paymentFrame, 'bench.Payment bytes = header + avsc (exact bigint long) toBuffer')
    const paymentReader = new AvroDeserializer(client)
    await paymentReader.prepare(env.paymentId)
    deepStrictEqual(
      plain(paymentReader.deserializeSync(ours, ctx)),
      PAYMENT_RECORD,
      'bench.Payment round trip',
    )
    const logical = paymentLogicalType()
    deepStrictEqual(
      expectedFrame(logical, paymentLogicalRecord(PAYMENT_RECORD), env.paymentId),
      paymentFrame,
      'the fair ceiling (avsc LogicalType classes, exact longs) writes our bench.Payment bytes',
    )
    deepStrictEqual(
      plain(logical.fromBuffer(paymentFrame.subarray(5))),
      paymentLogicalRecord(PAYMENT_RECORD),
      'the fair ceiling reads our bench.Payment frame to the same values (seq as a bigint)',
    )
    done.push(
      'bench.Payment: the fair ceiling (avsc LogicalType classes) writes and reads the same bytes and values',
    )
    const raw = paymentType()
    const rawBody = raw.toBuffer(PAYMENT_RECORD_AVSC)
    deepStrictEqual(plain(raw.fromBuffer(rawBody)), PAYMENT_RECORD_AVSC, 'avsc bench.Payment round trip')
    strictEqual(rawBody.length, ours.length - 5 - 1, 'avsc bench.Payment body is one byte shorter (ledger)')
    done.push(
      `bench.Payment: frame ${ours.length} B = header + avsc bytes (bigint long via LongType.__with); ` +
        `Date/decimal/bigint round trip; raw avsc body ${rawBody.length} B`,
    )
  } finally {
    await client.close()
  }
  return done
}
