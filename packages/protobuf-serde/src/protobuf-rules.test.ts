import {
  celCondition,
  domainRules,
  expectOrderRules,
  jsonataTransform,
  orderRules,
  useRulesRegistry,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { ProtobufDeserializer } from './protobuf-deserializer.js'
import { ProtobufSerializer } from './protobuf-serializer.js'

// Data-contract rules through the Protobuf classes: the option reaches the core, a WRITE condition refuses a
// value before it is encoded, a READ transform rewrites a decoded record, as the registry's rules read the record.

const ctx = new SerializationContext('orders')
const schema = 'syntax = "proto3";\n\nmessage Order {\n  string id = 1;\n  double total = 2;\n}\n'
const env = useRulesRegistry(async (client) => {
  await client.registerSchema('orders-value', schema, { artifactType: 'PROTOBUF' })
  await client.setArtifactRuleset('orders-value', orderRules())
})

describe('Protobuf serdes with rules on', () => {
  it('refuse a value a WRITE condition fails, and write and read one that passes, transformed on read', async () => {
    await expectOrderRules(
      {
        serializer: new ProtobufSerializer(env.client, 'orders-value', { rules: { enabled: true } }),
        plain: new ProtobufDeserializer(env.client),
        checked: new ProtobufDeserializer(env.client, { rules: { enabled: true } }),
      },
      ctx,
    )
  })
})

describe('Protobuf serializer with a WRITE transform', () => {
  const blobSchema = [
    'syntax = "proto3";',
    'import "google/protobuf/timestamp.proto";',
    'import "google/protobuf/duration.proto";',
    'message Blob {',
    '  string note = 1;',
    '  bytes data = 2;',
    '  int64 ledger = 3;',
    '  google.protobuf.Timestamp at = 4;',
    '  google.protobuf.Duration took = 5;',
    '  repeated bytes chunks = 6;',
    '  map<string, bytes> parts = 7;',
    '  uint64 count = 8;',
    '}',
    '',
  ].join('\n')
  const blob = {
    note: 'secret',
    data: Buffer.from([0x00, 0xff, 0x10]),
    ledger: 9_007_199_254_740_993n,
    at: { seconds: 1_795_000_000, nanos: 500_000_000 },
    took: { seconds: 3600, nanos: 0 },
    chunks: [Buffer.from([0x04]), Buffer.from([0x05, 0x06])],
    parts: { a: Buffer.from([0x02, 0x03]) },
    count: 7,
  }

  it('writes the bytes, 64-bit integers, Timestamp and Duration of the transformed record, as without the rule', async () => {
    await env.client.registerSchema('blobs-value', blobSchema, { artifactType: 'PROTOBUF' })
    await env.client.setArtifactRuleset(
      'blobs-value',
      domainRules(
        jsonataTransform(
          'mask',
          'WRITE',
          '$merge([$, {"note": "***", "ledger": "9007199254740995", "at": "2026-11-17T08:26:40.25Z", "took": "-1.5s"}])',
        ),
      ),
    )
    const blobs = new SerializationContext('blobs')
    const serializer = new ProtobufSerializer(env.client, 'blobs-value', { rules: { enabled: true } })
    const plain = new ProtobufSerializer(env.client, 'blobs-value')
    const transformed = {
      ...blob,
      note: '***',
      ledger: 9_007_199_254_740_995n,
      at: { seconds: 1_794_904_000, nanos: 250_000_000 },
      took: { seconds: -1, nanos: -500_000_000 },
    }
    const written = await serializer.serialize(blob, blobs)
    const expected = await plain.serialize(transformed, blobs)
    expect(Buffer.from(written).toString('hex')).toBe(Buffer.from(expected).toString('hex'))
    const body = Buffer.from(written).toString('hex')
    // note "***", then data 00 ff 10, then ledger 9007199254740995 as a varint.
    expect(body).toContain('0a032a2a2a120300ff10188380808080808010')
    expect(await new ProtobufDeserializer(env.client).deserialize(written, blobs)).toEqual(transformed)
    expect(serializer.serializeSync({ ...blob, count: 8 }, blobs)).toEqual(
      plain.serializeSync({ ...transformed, count: 8 }, blobs),
    )
  })
})

describe('Protobuf map keys named __proto__ and constructor, with rules on', () => {
  const labelsSchema = 'syntax = "proto3";\n\nmessage Labelled {\n  map<string, string> labels = 1;\n}\n'
  const LABELS = '{"labels":{"__proto__":"x","constructor":"y","role":"z"}}'
  const labelled = new SerializationContext('labelled')

  it('stay own data keys of the record a READ or a WRITE transform gives back', async () => {
    for (const [artifactId, mode] of [
      ['labels-read-value', 'READ'],
      ['labels-write-value', 'WRITE'],
    ] as const) {
      await env.client.registerSchema(artifactId, labelsSchema, { artifactType: 'PROTOBUF' })
      await env.client.setArtifactRuleset(
        artifactId,
        domainRules(jsonataTransform('keep', mode, '{"labels": labels}')),
      )
    }
    const bytes = await new ProtobufSerializer(env.client, 'labels-read-value').serialize(
      JSON.parse(LABELS),
      labelled,
    )
    const read = (await new ProtobufDeserializer(env.client, { rules: { enabled: true } }).deserialize(
      bytes,
      labelled,
    )) as { labels: Record<string, string> }
    expect(JSON.stringify(read)).toBe(LABELS)
    expect(Object.getPrototypeOf(read.labels)).toBe(Object.prototype)
    expect(Object.keys(read.labels)).toEqual(['__proto__', 'constructor', 'role'])
    const written = await new ProtobufSerializer(env.client, 'labels-write-value', {
      rules: { enabled: true },
    }).serialize(JSON.parse(LABELS), labelled)
    expect(JSON.stringify(await new ProtobufDeserializer(env.client).deserialize(written, labelled))).toBe(
      LABELS,
    )
  })
})

describe('Protobuf serdes giving rules a double field', () => {
  const doubles = [
    'syntax = "proto3";',
    'message Reading {',
    '  double total = 1;',
    '  repeated double samples = 2;',
    '  Inner inner = 3;',
    '  int64 count = 4;',
    '}',
    'message Inner { double value = 1; }',
    '',
  ].join('\n')
  const reading = { total: 5, samples: [1, 2.5], inner: { value: 3 }, count: 5 }

  it('bind an integral double as a CEL double, as the registry reads the 5.0 of proto3 JSON, and an int64 as an int', async () => {
    await env.client.registerSchema('readings-value', doubles, { artifactType: 'PROTOBUF' })
    const expr =
      'type(total) == double && total / 2.0 == 2.5 && type(samples[0]) == double && type(inner.value) == double && type(count) == int'
    await env.client.setArtifactRuleset('readings-value', {
      domainRules: [
        { name: 'doubles', kind: 'CONDITION', type: 'CEL', mode: 'WRITEREAD', expr, onFailure: 'ERROR' },
      ],
      migrationRules: [],
    })
    const serializer = new ProtobufSerializer(env.client, 'readings-value', { rules: { enabled: true } })
    const bytes = await serializer.serialize(reading, ctx)
    const read = await new ProtobufDeserializer(env.client, { rules: { enabled: true } }).deserialize(
      bytes,
      ctx,
    )
    expect(read).toMatchObject({ total: 5, samples: [1, 2.5], inner: { value: 3 } })
  })
})

describe('Protobuf serdes giving rules the proto3 JSON of a message, as the registry is sent it', () => {
  const userSchema = [
    'syntax = "proto3";',
    'import "google/protobuf/timestamp.proto";',
    'import "google/protobuf/duration.proto";',
    'import "google/protobuf/wrappers.proto";',
    'import "google/protobuf/struct.proto";',
    'message User {',
    '  int64 user_id = 1;',
    '  google.protobuf.Timestamp updated_at = 2;',
    '  google.protobuf.Duration ttl = 3;',
    '  google.protobuf.Int64Value wrapped = 4;',
    '  google.protobuf.DoubleValue ratio = 5;',
    '  google.protobuf.Struct extra = 6;',
    '}',
    '',
  ].join('\n')
  const user = {
    user_id: 9_223_372_036_854_775_807n,
    updated_at: { seconds: 1_735_689_600, nanos: 0 },
    ttl: { seconds: 1, nanos: 500_000_000 },
    wrapped: { value: 12 },
    ratio: { value: 5 },
    extra: { fields: { source: { string_value: 'web' } } },
  }
  const check =
    'userId > 0 && timestamp(updatedAt) == timestamp("2025-01-01T00:00:00Z") && duration(ttl) == duration("1.5s")' +
    ' && type(wrapped) == int && type(ratio) == double && has(extra.source)'
  const condition = (mode: 'WRITE' | 'READ') => ({
    name: `json-${mode}`,
    kind: 'CONDITION' as const,
    type: 'CEL' as const,
    mode,
    expr: check,
    onFailure: 'ERROR' as const,
  })

  it('check JSON names and well-known forms, and write a transform that sets them as the message they name', async () => {
    await env.client.registerSchema('users-value', userSchema, { artifactType: 'PROTOBUF' })
    await env.client.setArtifactRuleset(
      'users-value',
      domainRules(
        condition('WRITE'),
        jsonataTransform(
          'later',
          'WRITE',
          '$merge([$, {"userId": 5, "updatedAt": "2026-01-02T03:04:05.500Z"}])',
        ),
        condition('READ'),
        jsonataTransform('renamed', 'READ', '$merge([$, {"ttl": "60s", "added": userId}])'),
      ),
    )
    const users = new SerializationContext('users')
    const serializer = new ProtobufSerializer(env.client, 'users-value', { rules: { enabled: true } })
    const plain = new ProtobufSerializer(env.client, 'users-value')
    const written = await serializer.serialize(user, users)
    const transformed = { ...user, user_id: 5, updated_at: { seconds: 1_767_323_045, nanos: 500_000_000 } }
    expect(Buffer.from(written).toString('hex')).toBe(
      Buffer.from(await plain.serialize(transformed, users)).toString('hex'),
    )
    // the READ condition fails on the transformed record (userId 5, updatedAt 2026): read the plain one
    await expect(
      new ProtobufDeserializer(env.client, { rules: { enabled: true } }).deserialize(written, users),
    ).rejects.toMatchObject({ code: 'RULE_VIOLATION', mode: 'READ' })
    const bytes = await plain.serialize(user, users)
    const read = await new ProtobufDeserializer(env.client, { rules: { enabled: true } }).deserialize(
      bytes,
      users,
    )
    // the declared fields under their .proto names only, the field the transform added as it gave it
    const unruled = (await new ProtobufDeserializer(env.client).deserialize(bytes, users)) as object
    expect(read).toEqual({ ...unruled, ttl: { seconds: 60, nanos: 0 }, added: 9_223_372_036_854_775_807n })
    expect(Object.keys(read as object)).not.toContain('userId')
  })
})

describe('Protobuf serdes giving rules the well-known types as Java prints their proto3 JSON', () => {
  const schema = [
    'syntax = "proto3";',
    'import "google/protobuf/timestamp.proto";',
    'import "google/protobuf/duration.proto";',
    'import "google/protobuf/struct.proto";',
    'import "google/protobuf/field_mask.proto";',
    'message Event {',
    '  google.protobuf.Timestamp at = 1;',
    '  google.protobuf.Duration ttl = 2;',
    '  google.protobuf.Struct extra = 3;',
    '  google.protobuf.FieldMask mask = 4;',
    '}',
    '',
  ].join('\n')
  const event = {
    at: { seconds: 1_735_689_600, nanos: 0 },
    ttl: { seconds: 1, nanos: 500_000 },
    extra: { fields: { n: { number_value: 5 } } },
    mask: { paths: ['user_id', 'display_name'] },
  }
  const events = new SerializationContext('events')
  const register = async (artifactId: string, ...rules: Parameters<typeof domainRules>) => {
    await env.client.registerSchema(artifactId, schema, { artifactType: 'PROTOBUF' })
    await env.client.setArtifactRuleset(artifactId, domainRules(...rules))
  }

  it('refuse a Timestamp after 9999-12-31 that a CEL WRITE condition reads, with the reason as the violation', async () => {
    await register(
      'events-late-value',
      celCondition('recent', 'WRITE', 'timestamp(at) > timestamp("2000-01-01T00:00:00Z")', 'ERROR'),
    )
    const serializer = new ProtobufSerializer(env.client, 'events-late-value', { rules: { enabled: true } })
    await serializer.serialize(event, events)
    const late = { ...event, at: { seconds: 253_402_300_800, nanos: 0 } }
    await expect(serializer.serialize(late, events)).rejects.toMatchObject({
      name: 'RuleViolationError',
      code: 'RULE_VIOLATION',
      violations: [
        {
          ruleName: 'recent',
          action: 'ERROR',
          message:
            'A google.protobuf.Timestamp must have seconds from -62135596800 to 253402300799 ' +
            '(0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z) and nanos from 0 to 999999999 to be given to ' +
            'data-contract rules as proto3 JSON, not seconds 253402300800 and nanos 0',
        },
      ],
    })
  })

  it('refuse on read a Duration whose nanos have the other sign, that a JSONata READ condition reads', async () => {
    await register('events-ttl-value', {
      name: 'positive',
      kind: 'CONDITION',
      type: 'JSONATA',
      mode: 'READ',
      expr: '$substring(ttl, 0, 1) != "-"',
      onFailure: 'ERROR',
    })
    const plain = new ProtobufSerializer(env.client, 'events-ttl-value')
    const reader = new ProtobufDeserializer(env.client, { rules: { enabled: true } })
    expect(await reader.deserialize(await plain.serialize(event, events), events)).toMatchObject({
      ttl: { seconds: 1, nanos: 500_000 },
    })
    const mixed = await plain.serialize({ ...event, ttl: { seconds: 1, nanos: -5 } }, events)
    await expect(reader.deserialize(mixed, events)).rejects.toMatchObject({
      code: 'RULE_VIOLATION',
      mode: 'READ',
      violations: [
        {
          ruleName: 'positive',
          message:
            'A google.protobuf.Duration must have seconds from -315576000000 to 315576000000 and nanos from ' +
            '-999999999 to 999999999 of the same sign to be given to data-contract rules as proto3 JSON, ' +
            'not seconds 1 and nanos -5',
        },
      ],
    })
  })

  it('refuse a Timestamp or Duration text a WRITE transform gives outside their range, and write one at their bounds', async () => {
    // What is written must be what a reader with rules can read: those refuse a Timestamp or Duration outside it.
    const transformTo = async (artifactId: string, at: string, ttl: string) => {
      await register(
        artifactId,
        jsonataTransform('time', 'WRITE', `$merge([$, {"at": "${at}", "ttl": "${ttl}"}])`),
      )
      return new ProtobufSerializer(env.client, artifactId, { rules: { enabled: true } }).serialize(
        event,
        events,
      )
    }
    const atBounds = await transformTo(
      'events-bounds-value',
      '0001-01-01T00:00:00Z',
      '-315576000000.999999999s',
    )
    const plain = new ProtobufSerializer(env.client, 'events-bounds-value')
    expect(Buffer.from(atBounds).toString('hex')).toBe(
      Buffer.from(
        await plain.serialize(
          {
            ...event,
            at: { seconds: -62_135_596_800, nanos: 0 },
            ttl: { seconds: -315_576_000_000, nanos: -999_999_999 },
          },
          events,
        ),
      ).toString('hex'),
    )
    await expect(
      transformTo('events-late-text-value', '9999-12-31T23:59:59-00:01', '1s'),
    ).rejects.toMatchObject({
      name: 'TypeError',
      code: 'INVALID_DATA',
      message:
        'Value does not match the Protobuf message Event: at: expected a google.protobuf.Timestamp message (an object), got string "9999-12-31T23:59:59-00:01"',
    })
    await expect(
      transformTo('events-early-text-value', '0001-01-01T00:00:00+00:01', '1s'),
    ).rejects.toMatchObject({
      code: 'INVALID_DATA',
      message:
        'Value does not match the Protobuf message Event: at: expected a google.protobuf.Timestamp message (an object), got string "0001-01-01T00:00:00+00:01"',
    })
    await expect(
      transformTo('events-long-text-value', '2025-01-01T00:00:00Z', '315576000001s'),
    ).rejects.toMatchObject({
      code: 'INVALID_DATA',
      message:
        'Value does not match the Protobuf message Event: ttl: expected a google.protobuf.Duration message (an object), got string "315576000001s"',
    })
  })

  it('bind a Struct number as a CEL double and a FieldMask as lowerCamelCase paths, and write a transformed mask back in snake_case', async () => {
    const check =
      'type(extra.n) == double && extra.n == 5.0 && mask == "userId,displayName" && ttl == "1.000500s"'
    await register(
      'events-json-value',
      celCondition('java-json', 'WRITEREAD', check, 'ERROR'),
      jsonataTransform('mask', 'WRITE', '$merge([$, {"mask": "createdAt,user.displayName"}])'),
    )
    const serializer = new ProtobufSerializer(env.client, 'events-json-value', { rules: { enabled: true } })
    const written = await serializer.serialize(event, events)
    const plain = new ProtobufSerializer(env.client, 'events-json-value')
    const transformed = { ...event, mask: { paths: ['created_at', 'user.display_name'] } }
    expect(Buffer.from(written).toString('hex')).toBe(
      Buffer.from(await plain.serialize(transformed, events)).toString('hex'),
    )
    const reader = new ProtobufDeserializer(env.client, { rules: { enabled: true } })
    const read = await reader.deserialize(await plain.serialize(event, events), events)
    expect(read).toMatchObject({ mask: { paths: ['user_id', 'display_name'] } })
  })
})
