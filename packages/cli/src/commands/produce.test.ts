import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { KafkaJsSerde } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { type ExactJson, parseExactJson } from '@x/registry-client/json'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Connection } from '../connection.js'
import { jsonLine } from '../consume-lines.js'
import { avroInput } from '../json-input.js'
import { toJsonText } from '../json-output.js'
import { cli, workFolder } from '../test-support/cli-harness.js'
import { MessageReader } from './consume.js'
import { encodeLines, jsonInputOf } from './produce.js'

// produce up to the brokers, against InMemoryRegistry: the broker address is one nothing listens on, so a run that
// gets as far as sending would fail with exit 3; the real broker is the integration stage's (cli-kafka).

let registry: InMemoryRegistry
let admin: RegistryClient
let env: Record<string, string>
const folder = workFolder()
const ORDER = {
  type: 'record',
  name: 'Order',
  namespace: 'shop',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'tag', type: 'bytes' },
  ],
}

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 40, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  env = { REGISTRY_URL: registry.url, KAFKA_BROKERS: '127.0.0.1:1' }
  await admin.registerSchema('orders-value', JSON.stringify(ORDER), { artifactType: 'AVRO' })
})

afterAll(async () => {
  await admin.close()
  await registry.close()
  folder.done()
})

describe('produce', () => {
  it('reports every line that is not JSON or does not match the schema with its number, and sends nothing (exit 1)', async () => {
    const stdin = Buffer.from(
      [
        '{"id":1,"tag":"AA=="}',
        '{"id":"two","tag":"AA=="}',
        '',
        'not json',
        '{"id":4}',
        '{"id":5,"tag":"AA=="}',
      ].join('\n'),
    )
    const run = await cli(['produce', 'orders'], { cwd: folder.path, env, stdin })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    const lines = run.stderr.split('\n')
    expect(lines[0]).toMatch(/^line 2: .*id/)
    expect(lines[1]).toBe(`line 4: not JSON: Unexpected token 'o', "not json" is not valid JSON`)
    expect(lines[2]).toMatch(/^line 5: .*tag/)
    expect(lines.slice(3)).toEqual([
      'x-serde: 3 of 5 lines cannot be written with default/orders-value version 1 (AVRO, framed, globalId 40); nothing was sent',
      '',
    ])
  })

  it('encodes each line with the artifact, keeping integers beyond 2^53 exact and bytes from base64, keys from a field', async () => {
    const serde = new KafkaJsSerde(admin, { serializer: new AvroSerializer(admin, 'orders-value') })
    const encoded = await encodeLines('{"id":9007199254740993,"tag":"AAEC"}\n\nnull\n', {
      topic: 'orders',
      convert: avroInput(JSON.stringify(ORDER)),
      serde,
      key: undefined,
      keyField: 'id',
    })
    expect(encoded.map((line) => [line.line, line.error, line.message?.key?.toString()])).toEqual([
      [1, undefined, '9007199254740993'],
      [3, 'no field "id" for the key (--key-field)', undefined],
    ])
    const frame = encoded[0]!.message!.value as Buffer
    expect(frame.subarray(0, 5)).toEqual(Buffer.from([0, 0, 0, 0, 40]))
    expect(await new AvroDeserializer(admin).deserialize(frame, new SerializationContext('orders'))).toEqual({
      id: 9007199254740993n,
      tag: Buffer.from([0, 1, 2]),
    })
    const tombstone = await encodeLines('null', {
      topic: 'orders',
      convert: (value) => value,
      serde,
      key: 'k',
      keyField: undefined,
    })
    expect(tombstone[0]!.message).toEqual({ key: Buffer.from('k'), value: null, headers: {} })
  })

  it('says which artifact it looked for when the topic has none, and reads @FILE input', async () => {
    const run = await cli(['produce', 'payments', '@missing.jsonl'], { cwd: folder.path, env })
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^x-serde: Cannot read missing\.jsonl: ENOENT/),
    })
    const none = await cli(['produce', 'payments'], { cwd: folder.path, env, stdin: Buffer.from('{}') })
    expect(none).toEqual({
      code: 2,
      stdout: '',
      stderr: `x-serde: No artifact default/payments-value in the registry at ${registry.url} (the topic strategy names <topic>-value; pass --artifact)\n`,
    })
  })

  it('refuses --key with --key-field, a secret on the command line, and a run without brokers (exit 2)', async () => {
    const both = await cli(['produce', 'orders', '--key', 'k', '--key-field', 'id'], {
      cwd: folder.path,
      env,
    })
    expect([both.code, both.stderr]).toEqual([2, 'x-serde: Give --key or --key-field, not both\n'])
    const secret = await cli(['produce', 'orders', '--sasl-password', 'x'], { cwd: folder.path, env })
    expect(secret.code).toBe(2)
    expect(secret.stderr).toContain("error: unknown option '--sasl-password'")
    const noBrokers = await cli(['produce', 'orders'], {
      cwd: folder.path,
      env: { REGISTRY_URL: registry.url },
    })
    expect([noBrokers.code, noBrokers.stderr]).toEqual([
      2,
      'x-serde: No brokers: pass --brokers host:port[,host:port] or set KAFKA_BROKERS\n',
    ])
  })

  it('exits 3 naming the brokers when every line is good but the brokers cannot be reached', async () => {
    const run = await cli(['produce', 'orders', '--artifact', 'orders-value'], {
      cwd: folder.path,
      env,
      stdin: Buffer.from('{"id":1,"tag":""}\n'),
    })
    expect(run.code).toBe(3)
    expect(run.stderr).toMatch(/^x-serde: Unable to use the brokers 127\.0\.0\.1:1: .*ECONNREFUSED/)
  })
})

describe('produce --key-type', () => {
  it("writes each line's key as Java's serializer of that type does, and reports a key not of the type on its line", async () => {
    const serializer = new AvroSerializer(admin, 'orders-value')
    const convert = avroInput(JSON.stringify(ORDER))
    const encode = (text: string, keyType: 'long' | 'int' | 'uuid' | 'bytes' | 'double', keyField = 'k') =>
      encodeLines(text, {
        topic: 'orders',
        convert: (value) => {
          const { k: _k, ...rest } = value as Record<string, unknown>
          return convert(rest as never)
        },
        serde: new KafkaJsSerde(admin, { serializer, keys: keyType }),
        key: undefined,
        keyField,
        keyType,
      })
    const long = await encode('{"k":42,"id":1,"tag":""}\n{"k":9223372036854775807,"id":2,"tag":""}', 'long')
    expect(long.map((line) => (line.message!.key as Buffer).toString('hex'))).toEqual([
      '000000000000002a',
      '7fffffffffffffff',
    ])
    const int = await encode('{"k":-2,"id":1,"tag":""}', 'int')
    expect((int[0]!.message!.key as Buffer).toString('hex')).toBe('fffffffe')
    const uuid = await encode('{"k":"123E4567-E89B-12D3-A456-426614174000","id":1,"tag":""}', 'uuid')
    expect((uuid[0]!.message!.key as Buffer).toString()).toBe('123e4567-e89b-12d3-a456-426614174000')
    const bytes = await encode('{"k":"AP8=","id":1,"tag":""}', 'bytes')
    expect((bytes[0]!.message!.key as Buffer).toString('hex')).toBe('00ff')
    const bad = await encode('{"k":"x","id":1,"tag":""}\n{"k":2147483648,"id":1,"tag":""}', 'long')
    expect(bad.map((line) => [line.line, line.error])).toEqual([
      [1, 'the key is not an integer (--key-type long): x'],
      [2, undefined],
    ])
    const outOfRange = await encode('{"k":2147483648,"id":1,"tag":""}', 'int')
    expect(outOfRange[0]?.error).toContain(
      "A key written as 'int' (Java's IntegerSerializer) must be an integer",
    )
  })
})

describe('produce of what consume --json prints', () => {
  // As Java's auto-registration registers a schema: each nested named type in an artifact of its own (named by its
  // full name), referenced by name from the artifact that uses it.
  const STATUS = { type: 'enum', name: 'Status', namespace: 'shop', symbols: ['NEW', 'GOLD'] }
  const CUSTOMER = {
    type: 'record',
    name: 'Customer',
    namespace: 'shop',
    fields: [
      { name: 'since', type: { type: 'long', logicalType: 'timestamp-millis' } },
      { name: 'born', type: { type: 'int', logicalType: 'date' } },
      { name: 'avatar', type: 'bytes' },
      { name: 'badge', type: ['null', 'bytes'] },
      { name: 'status', type: 'shop.Status' },
      { name: 'keys', type: { type: 'map', values: 'bytes' } },
    ],
  }
  const PURCHASE = {
    type: 'record',
    name: 'Purchase',
    namespace: 'shop',
    fields: [
      { name: 'id', type: 'long' },
      { name: 'customer', type: 'shop.Customer' },
      { name: 'previous', type: ['null', 'shop.Customer'] },
      { name: 'parts', type: { type: 'array', items: 'shop.Customer' } },
    ],
  }

  it('turns the JSON forms of dates and bytes back inside named types defined in referenced artifacts, byte for byte', async () => {
    await admin.registerSchema('shop.Status', STATUS, { artifactType: 'AVRO' })
    await admin.registerSchema('shop.Customer', CUSTOMER, {
      artifactType: 'AVRO',
      references: [{ name: 'shop.Status', artifactId: 'shop.Status', version: '1' }],
    })
    const latest = await admin.registerSchema('purchases-value', PURCHASE, {
      artifactType: 'AVRO',
      references: [{ name: 'shop.Customer', artifactId: 'shop.Customer', version: '1' }],
    })
    const customer = {
      since: new Date('2024-01-01T00:00:00.000Z'),
      born: new Date('1990-05-17T00:00:00.000Z'),
      avatar: Buffer.from([0, 255, 7]),
      badge: Buffer.from('ok'),
      status: 'GOLD',
      keys: { a: Buffer.from([1]) },
    }
    const serializer = new AvroSerializer(admin, 'purchases-value')
    const frame = Buffer.from(
      await serializer.serialize(
        { id: 9007199254740993n, customer, previous: customer, parts: [customer] },
        new SerializationContext('purchases'),
      ),
    )
    const connection = new Connection(
      { registry: registry.url },
      {
        stdout: () => {},
        stderr: () => {},
        env: {},
        cwd: '/',
        readStdin: async () => Buffer.alloc(0),
      },
    )
    try {
      const consumed = await new MessageReader(connection, 'globalId').read('purchases', 0, {
        key: null,
        value: frame,
        headers: {},
        offset: '0',
        timestamp: '0',
      })
      const printed = jsonLine(consumed)
      expect(printed).toContain(
        '"customer":{"since":"2024-01-01T00:00:00.000Z","born":"1990-05-17T00:00:00.000Z","avatar":"AP8H","badge":"b2s=","status":"GOLD","keys":{"a":"AQ=="}}',
      )
      // The line's value as produce reads it: one line of JSON, integers beyond 2^53 exact.
      const value = toJsonText((parseExactJson(printed).value as { value: ExactJson }).value, 0)
      expect(value).toContain('{"id":9007199254740993,')
      const encoded = await encodeLines(value, {
        topic: 'purchases',
        convert: await jsonInputOf(connection, latest, undefined),
        serde: new KafkaJsSerde(admin, { serializer }),
        key: undefined,
        keyField: undefined,
      })
      expect(encoded.map((line) => line.error)).toEqual([undefined])
      expect(encoded[0]!.message!.value).toEqual(frame)
    } finally {
      await connection.close()
    }
  })
})

describe('produce --key-type schema', () => {
  const NOTE_KEY = {
    type: 'record',
    name: 'NoteKey',
    namespace: 'shop',
    fields: [
      { name: 'note', type: ['null', 'string', 'bytes'] },
      { name: 'at', type: ['null', 'string', { type: 'long', logicalType: 'timestamp-millis' }] },
    ],
  }

  it('writes back the key consume --json printed, a union wrapped by branch, byte for byte in a bare union and in a record', async () => {
    await admin.registerSchema('tags-key', ['null', 'string', 'bytes'], { artifactType: 'AVRO' })
    await admin.registerSchema('notes-key', NOTE_KEY, { artifactType: 'AVRO' })
    const io = {
      stdout: () => {},
      stderr: () => {},
      env: {},
      cwd: '/',
      readStdin: async () => Buffer.alloc(0),
    }
    const connection = new Connection({ registry: registry.url }, io)
    const serializer = new AvroSerializer(admin, 'orders-value')
    const value = { id: 9007199254740993n, tag: Buffer.from([9]) }
    try {
      const cases = [
        ['tags', Buffer.from([1, 2, 3]), '{"bytes":"AQID"}'],
        ['tags', 'AQID', '{"string":"AQID"}'],
        [
          'notes',
          { note: Buffer.from([0, 255]), at: new Date('2024-01-01T00:00:00.000Z') },
          '{"note":{"bytes":"AP8="},"at":{"long":"2024-01-01T00:00:00.000Z"}}',
        ],
        [
          'notes',
          { note: 'AP8=', at: '2024-01-01T00:00:00.000Z' },
          '{"note":{"string":"AP8="},"at":{"string":"2024-01-01T00:00:00.000Z"}}',
        ],
      ] as const
      for (const [topic, key, printedKey] of cases) {
        const keySerializer = new AvroSerializer(admin, `${topic}-key`)
        const keyBytes = Buffer.from(
          await keySerializer.serialize(key, new SerializationContext(topic, 'key')),
        )
        const frame = Buffer.from(await serializer.serialize(value, new SerializationContext(topic)))
        const consumed = await new MessageReader(connection, 'globalId', 4, 'schema').read(topic, 0, {
          key: keyBytes,
          value: frame,
          headers: {},
          offset: '0',
          timestamp: '0',
        })
        const printed = parseExactJson(jsonLine(consumed)).value as { key: ExactJson; value: ExactJson }
        expect(toJsonText(printed.key, 0)).toBe(printedKey)
        const encoded = await encodeLines(toJsonText(printed.value, 0), {
          topic,
          convert: await jsonInputOf(connection, await admin.getSchema('orders-value'), undefined),
          serde: new KafkaJsSerde(admin, { serializer, keys: { serializer: keySerializer } }),
          key: toJsonText(printed.key, 0),
          keyField: undefined,
          keyType: 'schema',
          keyConvert: await jsonInputOf(connection, await admin.getSchema(`${topic}-key`), undefined),
        })
        expect(encoded.map((line) => line.error)).toEqual([undefined])
        expect(encoded[0]!.message!.key).toEqual(keyBytes)
        expect(encoded[0]!.message!.value).toEqual(frame)
      }
    } finally {
      await connection.close()
    }
  })

  it('takes the key from --key-field as JSON, reports a --key that is not JSON on its line, and names the key artifact it looked for', async () => {
    const keySerializer = new AvroSerializer(admin, 'tags-key')
    const serde = new KafkaJsSerde(admin, {
      serializer: new AvroSerializer(admin, 'orders-value'),
      keys: { serializer: keySerializer },
    })
    const keyConvert = avroInput(JSON.stringify(['null', 'string', 'bytes']))
    const convert = avroInput(JSON.stringify(ORDER))
    const fromField = await encodeLines('{"id":1,"tag":"AQID"}', {
      topic: 'tags',
      convert,
      serde,
      key: undefined,
      keyField: 'tag',
      keyType: 'schema',
      keyConvert,
    })
    // A bare string in ["null", "string", "bytes"] is the string, as consume prints it.
    expect(fromField[0]!.message!.key).toEqual(
      Buffer.from(await keySerializer.serialize('AQID', new SerializationContext('tags', 'key'))),
    )
    const notJson = await encodeLines('{"id":1,"tag":""}', {
      topic: 'tags',
      convert,
      serde,
      key: '{"bytes":',
      keyField: undefined,
      keyType: 'schema',
      keyConvert,
    })
    expect(notJson[0]!.error).toMatch(/^the key is not JSON \(--key-type schema\): /)
    const missing = await cli(['produce', 'orders', '--key-type', 'schema'], {
      cwd: folder.path,
      env,
      stdin: Buffer.from('{}'),
    })
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: `x-serde: No artifact default/orders-key in the registry at ${registry.url} (the topic strategy names <topic>-key; pass --key-artifact)\n`,
    })
    const stray = await cli(['produce', 'orders', '--key-artifact', 'tags-key'], { cwd: folder.path, env })
    expect([stray.code, stray.stderr]).toEqual([2, 'x-serde: --key-artifact goes with --key-type schema\n'])
  })

  it("reads __proto__ and constructor in a JSON line as data: fields of the record and of the key, never Object's", async () => {
    const schema = {
      type: 'record',
      name: 'Odd',
      fields: [
        { name: '__proto__', type: { type: 'map', values: 'int' } },
        { name: 'constructor', type: 'string' },
      ],
    }
    const odd = await admin.registerSchema('odd-value', JSON.stringify(schema), { artifactType: 'AVRO' })
    const line = '{"__proto__":{"x":1},"constructor":"c"}'
    // A line without the key field has no key, whatever Object.prototype holds under that name.
    const run = await cli(['produce', 'odd', '-', '--key-field', '__proto__'], {
      cwd: folder.path,
      env,
      stdin: Buffer.from(`${line}\n{"constructor":"d","__proto__":{}}\n{"toString":1}`),
    })
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'line 3: no field "__proto__" for the key (--key-field)',
        `x-serde: 1 of 3 lines cannot be written with default/odd-value version 1 (AVRO, framed, globalId ${odd.globalId}); nothing was sent`,
        '',
      ].join('\n'),
    })
    const serde = new KafkaJsSerde(admin, { serializer: new AvroSerializer(admin, 'odd-value') })
    const how = { topic: 'odd', convert: avroInput(JSON.stringify(schema)), serde, key: undefined }
    const [encoded] = await encodeLines(line, { ...how, keyField: '__proto__' })
    expect(encoded!.message!.key).toEqual(Buffer.from('{"x":1}'))
    const decoded = await new AvroDeserializer(admin).deserialize(
      encoded!.message!.value as Buffer,
      new SerializationContext('odd'),
    )
    expect(toJsonText(decoded, 0)).toBe(line)
    expect(Object.getPrototypeOf(decoded)).not.toHaveProperty('x')
    const [constructorKey, noKey] = await encodeLines(
      '{"constructor":"c","__proto__":{}}\n{"__proto__":{}}',
      {
        ...how,
        keyField: 'constructor',
      },
    )
    expect(constructorKey!.message!.key).toEqual(Buffer.from('c'))
    expect(noKey!.error).toBe('no field "constructor" for the key (--key-field)')
  })

  it('refuses a line nested 100 000 deep as not JSON on its line (exit 1), never a stack overflow', async () => {
    const events = await admin.registerSchema('events-value', { type: 'object' }, { artifactType: 'JSON' })
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`
    const run = await cli(['produce', 'events', '-'], {
      cwd: folder.path,
      env,
      stdin: Buffer.from(`{"a":${deep}}`),
    })
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: [
        'line 1: not JSON: JSON nested deeper than 1000 arrays and objects at position 1004',
        `x-serde: 1 of 1 lines cannot be written with default/events-value version 1 (JSON, framed, globalId ${events.globalId}); nothing was sent`,
        '',
      ].join('\n'),
    })
  })
})
