import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AvroSerializer } from '@x/avro-serde'
import { SerializationContext } from '@x/wire-format'
import { Kafka, logLevel } from 'kafkajs'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { uniqueName } from './fixtures.js'
import { createTopic, produceRaw } from './kafka-io.js'
import { repoDir } from './paths.js'
import { registryClients } from './registry-clients.js'

// `x-serde produce` and `x-serde consume` as a shell runs them (the built bin, spawned) against the real Apicurio
// Registry 3 and Kafka broker of the integration stage: every format in both modes written by produce and read back
// exactly by consume, a message that does not decode, a line that does not match its schema, and SIGTERM.

const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const bin = join(repoDir, 'packages/cli/bin/x-serde.js')
const folder = mkdtempSync(join(tmpdir(), 'x-serde-kafka-it-'))
const group = uniqueName('clikafka')
const env = { REGISTRY_URL: registryUrl, REGISTRY_GROUP: group, KAFKA_BROKERS: brokers }
const client = registryClients(registryUrl)(group)
// One topic for every format and mode (the Avro artifact by the topic strategy, the others by --artifact).
const mixed = uniqueName('cli-mixed')

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the bin; `stopWhen` sends SIGTERM once stdout satisfies it. Killed (SIGKILL) after 60 s. */
function xSerde(
  args: string[],
  options: { input?: string; stopWhen?: (stdout: string) => boolean } = {},
): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    let signalled = false
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
      if (!signalled && options.stopWhen?.(stdout)) {
        signalled = true
        child.kill('SIGTERM')
      }
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.stdin.end(options.input ?? '')
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

async function endOffset(topic: string): Promise<string> {
  const admin = new Kafka({ clientId: 'it', brokers: [brokers], logLevel: logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    return (await admin.fetchTopicOffsets(topic))[0]!.high
  } finally {
    await admin.disconnect()
  }
}

const ORDER = {
  type: 'record',
  name: 'Order',
  namespace: 'it',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'sku', type: 'string' },
    { name: 'tag', type: 'bytes' },
    { name: 'at', type: { type: 'long', logicalType: 'timestamp-millis' } },
  ],
}
const PAYMENT = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Payment',
  type: 'object',
  properties: { id: { type: 'integer' }, cents: { type: 'integer' }, memo: { type: 'string' } },
  required: ['id', 'cents'],
  additionalProperties: false,
}
const LINE =
  'syntax = "proto3";\npackage it;\nmessage Line { string sku = 1; int64 qty = 2; bytes tag = 3; }\n'

// One line per format: a long beyond 2^53 and bytes (base64) in each, as consume --json prints them back.
const AVRO_VALUE = '{"id":9007199254740993,"sku":"A-1","tag":"AAEC/w==","at":"2026-11-25T18:00:00.000Z"}'
const JSON_VALUE = '{"id":2,"cents":-9223372036854775808,"memo":"AAEC/w=="}'
const PROTO_VALUE = '{"sku":"L-1","qty":9223372036854775807,"tag":"AAEC/w=="}'

/** AVRO_VALUE written by this library's Avro serializer with the mixed topic's Avro artifact. */
async function avroFrame(topic: string): Promise<Buffer> {
  const value = {
    id: 9007199254740993n,
    sku: 'A-1',
    tag: Buffer.from([0, 1, 2, 255]),
    at: new Date('2026-11-25T18:00:00Z'),
  }
  const serializer = new AvroSerializer(client, `${mixed}-value`)
  return Buffer.from(await serializer.serialize(value, new SerializationContext(topic)))
}

beforeAll(async () => {
  await createTopic(brokers, mixed)
  await client.registerSchema(`${mixed}-value`, ORDER, { artifactType: 'AVRO' })
  await client.registerSchema('payments', PAYMENT, { artifactType: 'JSON' })
  await client.registerSchema('lines', LINE, { artifactType: 'PROTOBUF' })
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('x-serde produce and consume on the real broker and registry', () => {
  test('produce writes Avro, JSON Schema and Protobuf, framed and in headers mode; consume reads them all back exactly from one topic', async () => {
    const topic = mixed
    const runs: [string[], string][] = [
      [['--key-field', 'sku'], AVRO_VALUE],
      [['--key-field', 'sku', '--headers'], AVRO_VALUE],
      [['--artifact', 'payments', '--key', 'p'], JSON_VALUE],
      [['--artifact', 'payments', '--key', 'p', '--headers'], JSON_VALUE],
      [['--artifact', 'lines'], PROTO_VALUE],
      [['--artifact', 'lines', '--headers'], PROTO_VALUE],
    ]
    for (const [flags, line] of runs) {
      const produced = await xSerde(['produce', topic, ...flags], { input: `${line}\n` })
      expect([produced.code, produced.stdout]).toEqual([0, ''])
      expect(produced.stderr).toMatch(
        new RegExp(`^sent 1 message to ${topic} \\(partition 0 from offset \\d\\) with ${group}/`),
      )
    }
    expect(await endOffset(topic)).toBe('6')

    const consumed = await xSerde(['consume', topic, '--json'])
    expect(consumed.code).toBe(0)
    expect(consumed.stderr).toBe('6 messages: 2 AVRO, 2 JSON, 2 PROTOBUF\n')
    const lines = consumed.stdout.split('\n').filter((line) => line !== '')
    const expected: [string, string, string, string, string][] = [
      ['AVRO', 'framed', `${topic}-value`, '"A-1"', AVRO_VALUE],
      ['AVRO', 'headers', `${topic}-value`, '"A-1"', AVRO_VALUE],
      ['JSON', 'framed', 'payments', '"p"', JSON_VALUE],
      ['JSON', 'headers', 'payments', '"p"', JSON_VALUE],
      ['PROTOBUF', 'framed', 'lines', 'null', PROTO_VALUE],
      ['PROTOBUF', 'headers', 'lines', 'null', PROTO_VALUE],
    ]
    expect(lines).toHaveLength(6)
    lines.forEach((line, offset) => {
      const [format, mode, artifact, key, value] = expected[offset]!
      expect(line).toMatch(
        new RegExp(
          `^\\{"topic":"${topic}","partition":0,"offset":${offset},"timestamp":"\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z","key":${key.replace(/"/g, '"')},`,
        ),
      )
      expect(line).toMatch(
        new RegExp(
          `"schema":\\{"format":"${format}","idType":"globalId","id":\\d+,"mode":"${mode}","groupId":"${group}","artifactId":"${artifact}","version":"1"\\}`,
        ),
      )
      // Exact: the value as it went in (longs beyond 2^53 digit for digit, bytes as base64).
      expect(line.endsWith(`"value":${value}}`)).toBe(true)
      expect(line.includes('"headers":{"apicurio.value.globalId":{"base64":"')).toBe(mode === 'headers')
    })

    const readable = await xSerde(['consume', topic, '--offset', '4', '--max', '1'])
    expect(readable.code).toBe(0)
    expect(readable.stdout).toMatch(
      new RegExp(
        `^${topic}/0@4  \\S+  PROTOBUF ${group}/lines v1 \\(globalId \\d+, framed\\)\\n  \\{\\n    "sku": "L-1",\\n    "qty": 9223372036854775807,\\n    "tag": "AAEC/w=="\\n  \\}\\n$`,
      ),
    )
    expect(readable.stderr).toBe('1 message: 1 PROTOBUF\n')
  })

  test('consume prints a message that does not decode as an error line with its offset and raw bytes, goes on, and exits 1', async () => {
    const topic = uniqueName('cli-poison')
    await createTopic(brokers, topic)
    const frame = await avroFrame(topic)
    await produceRaw(brokers, topic, [
      { value: frame },
      { value: Buffer.from('{"not":"framed"}') },
      { value: frame },
    ])

    const consumed = await xSerde(['consume', topic, '--json'])
    expect(consumed.code).toBe(1)
    const lines = consumed.stdout.split('\n').filter((line) => line !== '')
    expect(lines).toHaveLength(3)
    expect(lines[0]!.endsWith(`"value":${AVRO_VALUE}}`)).toBe(true)
    expect(lines[1]).toMatch(
      new RegExp(
        `^\\{"topic":"${topic}","partition":0,"offset":1,"timestamp":"[^"]+","key":null,"headers":\\{\\},"error":\\{"name":"DeserializationError","code":"DESERIALIZATION","field":"value","message":"Cannot decode a frame: expected magic byte 0x00, got 0x7b[^"]*"\\},"raw":"${Buffer.from('{"not":"framed"}').toString('base64')}"\\}$`,
      ),
    )
    expect(lines[2]!.endsWith(`"value":${AVRO_VALUE}}`)).toBe(true)
    expect(consumed.stderr).toBe(
      `3 messages: 2 AVRO; 1 did not decode\nx-serde: 1 message of ${topic} did not decode (printed as errors)\n`,
    )
  })

  test('consume stops with exit 3 when the registry cannot be reached, instead of blaming the messages', async () => {
    const topic = uniqueName('cli-outage')
    await createTopic(brokers, topic)
    await produceRaw(brokers, topic, [{ value: await avroFrame(topic) }])
    const consumed = await xSerde([
      'consume',
      topic,
      '--json',
      '--registry',
      'http://127.0.0.1:1/apis/registry/v3',
    ])
    expect([consumed.code, consumed.stdout]).toEqual([3, ''])
    expect(consumed.stderr).toMatch(
      /^0 messages\nx-serde: Unable to reach the registry at http:\/\/127\.0\.0\.1:1\/apis\/registry\/v3/,
    )
  })

  test('produce reports a line that does not match the schema with its number and sends nothing', async () => {
    const topic = uniqueName('cli-badline')
    await createTopic(brokers, topic)
    const produced = await xSerde(['produce', topic, '--artifact', 'payments'], {
      input: `${JSON_VALUE}\n{"id":3,"cents":"ten"}\n${JSON_VALUE}\n`,
    })
    expect(produced.code).toBe(1)
    expect(produced.stderr).toMatch(
      /^line 2: Value does not match the JSON Schema: cents: expected integer, got string "ten"/,
    )
    expect(produced.stderr).toMatch(/\nx-serde: 1 of 3 lines cannot be written with .*; nothing was sent\n$/)
    expect(await endOffset(topic)).toBe('0')
  })

  test('consume --follow runs until SIGTERM, then disconnects and prints its summary', async () => {
    const topic = uniqueName('cli-follow')
    await createTopic(brokers, topic)
    await produceRaw(brokers, topic, [{ value: await avroFrame(topic) }])
    const started = Date.now()
    const followed = await xSerde(['consume', topic, '--follow', '--offset', '0'], {
      stopWhen: (stdout) => stdout.includes('"sku": "A-1"'),
    })
    expect(followed.code).toBe(0)
    expect(followed.stdout).toMatch(new RegExp(`^${topic}/0@0 `))
    expect(followed.stderr).toBe('1 message: 1 AVRO\n')
    expect(Date.now() - started).toBeLessThan(30_000)
  })
})
