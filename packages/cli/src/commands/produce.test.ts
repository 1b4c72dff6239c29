import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { KafkaJsSerde } from '@x/kafka'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { avroInput } from '../json-input.js'
import { cli, workFolder } from '../test-support/cli-harness.js'
import { encodeLines } from './produce.js'

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
