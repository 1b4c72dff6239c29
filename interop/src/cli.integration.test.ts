import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Io, run } from '@x/cli'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { uniqueName } from './fixtures.js'
import { buildJavaHarness, javaJsonProduce, javaProduce, javaProtoProduce } from './java-harness.js'
import { consumeRaw, createTopic } from './kafka-io.js'

// x-serde against the real Apicurio Registry 3 of the integration stage: register, check (a BACKWARD rule refusing
// an incompatible Avro change), pull with its lockfile, and inspect of messages Apicurio's own Java serdes wrote
// (Avro, JSON Schema, Protobuf) on the real Kafka broker.

const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const folder = mkdtempSync(join(tmpdir(), 'x-serde-it-'))
const group = uniqueName('cli')

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    env: { REGISTRY_URL: registryUrl, REGISTRY_GROUP: group },
    cwd: folder,
    readStdin: async () => Buffer.alloc(0),
  }
  return { code: await run(args, io), stdout, stderr }
}

beforeAll(() => buildJavaHarness(), 600_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const V1 = { type: 'record', name: 'Order', namespace: 'it', fields: [{ name: 'id', type: 'long' }] }
const V2 = { ...V1, fields: [...V1.fields, { name: 'note', type: ['null', 'string'], default: null }] }
const BAD = { ...V1, fields: [...V1.fields, { name: 'qty', type: 'int' }] }

describe('register, check and pull against the real registry', () => {
  test('check refuses a backward-incompatible Avro change once a BACKWARD rule is set, and passes a compatible one', async () => {
    writeFileSync(join(folder, 'v1.avsc'), JSON.stringify(V1))
    writeFileSync(join(folder, 'v2.avsc'), JSON.stringify(V2))
    writeFileSync(join(folder, 'bad.avsc'), JSON.stringify(BAD))
    const registered = await cli(['register', 'v1.avsc', '--artifact', 'orders'])
    expect(registered.code).toBe(0)
    expect(registered.stdout).toMatch(
      new RegExp(`^v1\\.avsc → ${group}/orders version 1 \\(globalId \\d+, contentId \\d+\\)\\n$`),
    )
    // Without a rule, anything goes.
    expect((await cli(['check', 'bad.avsc', '--artifact', 'orders'])).code).toBe(0)
    const rule = await fetch(`${registryUrl}/groups/${group}/artifacts/orders/rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ruleType: 'COMPATIBILITY', config: 'BACKWARD' }),
    })
    expect(rule.status).toBe(204)
    const refused = await cli(['check', 'bad.avsc', '--artifact', 'orders'])
    expect(refused.code).toBe(1)
    expect(refused.stdout).toContain('refused  bad.avsc')
    expect(refused.stdout).toContain('         - qty at /fields/1\n')
    const accepted = await cli(['check', 'v2.avsc', '--artifact', 'orders'])
    expect([accepted.code, accepted.stdout]).toEqual([0, `ok       v2.avsc → ${group}/orders as version 2\n`])
  })

  test('pull writes the artifact and a lockfile that --check holds until a new version is registered', async () => {
    expect((await cli(['pull', '--artifact', 'orders'])).code).toBe(0)
    const same = await cli(['pull', '--artifact', 'orders', '--check'])
    expect([same.code, same.stdout]).toEqual([0, '1 artifact versions match x-serde.lock.json\n'])
    expect(
      (await cli(['register', 'v2.avsc', '--artifact', 'orders', '--if-exists', 'CREATE_VERSION'])).code,
    ).toBe(0)
    const moved = await cli(['pull', '--artifact', 'orders', '--check'])
    expect(moved.code).toBe(1)
    expect(moved.stdout).toMatch(
      new RegExp(`^moved: {2}${group}/orders version 1 \\(globalId \\d+\\) → version 2`),
    )
  })
})

describe('inspect of what Apicurio’s Java serdes wrote', () => {
  async function javaMessage(
    produce: (topic: string) => Promise<void>,
  ): Promise<{ topic: string; hex: string }> {
    const topic = uniqueName('cli-java')
    await createTopic(brokers, topic)
    await produce(topic)
    const [message] = await consumeRaw(brokers, topic, 1)
    return { topic, hex: Buffer.from(message!.value).toString('hex') }
  }

  test('an Avro record (3.x defaults: contentId frame) with its long beyond 2^53 exact', async () => {
    const { hex } = await javaMessage((t) => javaProduce(brokers, registryUrl, t, 'default', 1))
    const inspected = await cli(['inspect', hex, '--use-id', 'contentId', '--json'])
    expect(inspected.code).toBe(0)
    const out = JSON.parse(inspected.stdout.replace(/:(\d{16,})/g, ':"$1"'))
    expect(out).toMatchObject({ framing: 'framed', idType: 'contentId', format: 'AVRO' })
    // A contentId is shared by every artifact registered with the same content (other tests' topics too): inspect
    // names the first version the registry's search lists, one that holds this content.
    expect(out.artifacts).toEqual([expect.objectContaining({ artifactType: 'AVRO' })])
    const [named] = out.artifacts as { groupId: string; artifactId: string; version: string }[]
    const meta = await fetch(
      `${registryUrl}/groups/${encodeURIComponent(named!.groupId)}/artifacts/${encodeURIComponent(named!.artifactId)}/versions/${named!.version}`,
    )
    expect(((await meta.json()) as { contentId: number }).contentId).toBe(Number(out.id))
    expect(out.value).toMatchObject({
      id: 'ev-0-ü€',
      big: '9007199254740993',
      payload: 'AAD/gA==',
      note: null,
    })
  })

  test('a JSON Schema order and a Protobuf order (Apicurio Ref framing)', async () => {
    const json = await javaMessage((t) => javaJsonProduce(brokers, registryUrl, t, 'default', 1))
    const jsonOut = await cli(['inspect', json.hex, '--use-id', 'contentId', '--json'])
    expect(jsonOut.code).toBe(0)
    expect(jsonOut.stdout).toContain('"format":"JSON"')
    expect(jsonOut.stdout).toContain('9007199254740993')
    const proto = await javaMessage((t) => javaProtoProduce(brokers, registryUrl, t, 'default', 1))
    const protoOut = await cli(['inspect', proto.hex, '--use-id', 'contentId', '--json'])
    expect(protoOut.code).toBe(0)
    const parsed = JSON.parse(protoOut.stdout.replace(/:(\d{16,})/g, ':"$1"'))
    expect(parsed).toMatchObject({
      format: 'PROTOBUF',
      value: { sku: 'SKU-0', id: '9007199254740993', payment: 'card' },
    })
  })
})
