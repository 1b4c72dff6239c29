/// <reference path="../../../scripts/integration/context.d.ts" />
import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { AnyDeserializer, AnySerializer } from '@x/message-contract'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import {
  DIFFERENTIAL_EXCEPTIONS,
  type DifferentialCase,
  type DifferentialFormat,
  type DifferentialRuleset,
  describeOutcome,
  differentialCases,
  differentialRulesets,
  differentialSchema,
  exactParse,
  javaRecordOf,
  type MigrationCase,
  migrationCases,
  migrationJavaRecord,
  migrationVersions,
  nodeOutcome,
  type Outcome,
  outcomeOf,
  registryOutcome,
  sameOutcome,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { KafkaJsSerde } from './index.js'

// The serde-level differential: every case of @x/test-support's differential (values of every kind of the three
// formats, CEL and JSONata conditions and transforms of both modes) run through each format's serializer and
// deserializer, AnySerializer / AnyDeserializer (each asynchronous and synchronous) and KafkaJsSerde with rules on,
// against a real Apicurio Registry 3.3 (`inject('registryUrl')`): each must come to what the registry's
// `contract/execute` answers for the record Apicurio's Java serde sends for the same value — the same refusal (rule
// names and actions) or the same record, transformed or not — and each migration to what its `contract/migrate`
// answers, but for the exceptions listed (with both answers and why) in @x/test-support. Requests go out eight at a
// time; the file runs in well under a minute.

const url = (inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL ?? '').replace(/\/+$/, '')
const group = `serde-differential-${Date.now()}`
const cases = differentialCases()
const rulesets = differentialRulesets()
const migrations = migrationCases()
let client: RegistryClient

const ARTIFACT_TYPES: Record<DifferentialFormat, [string, string]> = {
  avro: ['AVRO', 'application/json'],
  json: ['JSON', 'application/json'],
  protobuf: ['PROTOBUF', 'application/x-protobuf'],
}

async function call(method: string, path: string, body: string): Promise<string> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body,
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text
}

const artifactPath = (ruleset: DifferentialRuleset) =>
  `/groups/${group}/artifacts/${encodeURIComponent(`${ruleset.topic}-value`)}`

async function createArtifact(ruleset: DifferentialRuleset): Promise<void> {
  const [artifactType, contentType] = ARTIFACT_TYPES[ruleset.format]
  await call(
    'POST',
    `/groups/${group}/artifacts`,
    JSON.stringify({
      artifactId: `${ruleset.topic}-value`,
      artifactType,
      firstVersion: { version: '1', content: { content: differentialSchema(ruleset.format), contentType } },
    }),
  )
  await call('PUT', `${artifactPath(ruleset)}/versions/1/contract/ruleset`, JSON.stringify(ruleset.ruleSet))
}

/** The migration artifact of a format: its three versions, each with its ruleset. */
async function createMigrationArtifact(format: 'avro' | 'json'): Promise<void> {
  const [artifactType, contentType] = ARTIFACT_TYPES[format]
  const path = `/groups/${group}/artifacts/${format}-m-value`
  for (const { version, schema, ruleSet } of migrationVersions(format)) {
    const content = { content: schema, contentType }
    if (version === '1') {
      await call(
        'POST',
        `/groups/${group}/artifacts`,
        JSON.stringify({ artifactId: `${format}-m-value`, artifactType, firstVersion: { version, content } }),
      )
    } else {
      await call('POST', `${path}/versions`, JSON.stringify({ version, content }))
    }
    await call('PUT', `${path}/versions/${version}/contract/ruleset`, JSON.stringify(ruleSet))
  }
}

/** Runs `task` on every item, `width` at a time. */
async function pool<T, R>(items: readonly T[], width: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const at = next++
      results[at] = await task(items[at]!)
    }
  }
  await Promise.all(Array.from({ length: width }, worker))
  return results
}

/** The registry's answer for a case, as a serde acts on it. */
async function askRegistry(testCase: DifferentialCase): Promise<Outcome> {
  const answer = await call(
    'POST',
    `${artifactPath(testCase.ruleset)}/versions/1/contract/execute`,
    `{"mode":"${testCase.mode}","record":${testCase.recordJson}}`,
  )
  return registryOutcome(answer, testCase.recordJson)
}

type Path = (testCase: DifferentialCase, ctx: SerializationContext) => Promise<unknown>

interface Serdes {
  serializer: { serialize(value: unknown, ctx: SerializationContext): Promise<Uint8Array> } & {
    serializeSync(value: unknown, ctx: SerializationContext): Uint8Array
  }
  plain: { deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown> }
  checked: { deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown> } & {
    deserializeSync(bytes: Uint8Array, ctx: SerializationContext): unknown
  }
}

let writePaths: Record<string, Path>
let readPaths: Record<string, Path>
let written: AnySerializer

function formatSerdes(): Record<DifferentialFormat, Serdes> {
  const rules = { enabled: true }
  const artifactResolver = new TopicIdStrategy()
  return {
    avro: {
      serializer: new AvroSerializer(client, { artifactResolver, rules }),
      plain: new AvroDeserializer(client),
      checked: new AvroDeserializer(client, { rules }),
    },
    json: {
      serializer: new JsonSchemaSerializer(client, { artifactResolver, rules }),
      plain: new JsonSchemaDeserializer(client),
      checked: new JsonSchemaDeserializer(client, { rules }),
    },
    protobuf: {
      serializer: new ProtobufSerializer(client, { artifactResolver, rules }),
      plain: new ProtobufDeserializer(client),
      checked: new ProtobufDeserializer(client, { rules }),
    },
  }
}

beforeAll(async () => {
  if (url === '') return
  client = new RegistryClient({ url, groupId: group })
  await pool(rulesets, 6, createArtifact)
  await Promise.all([createMigrationArtifact('avro'), createMigrationArtifact('json')])
  const serdes = formatSerdes()
  const rules = { enabled: true }
  const any = new AnySerializer(client, { rules })
  const anyPlain = new AnyDeserializer(client)
  const anyChecked = new AnyDeserializer(client, { rules })
  const producer = new KafkaJsSerde(client, { serializer: new AnySerializer(client, { rules }) })
  const consumer = new KafkaJsSerde(client, { rules })
  written = new AnySerializer(client)
  const of = (testCase: DifferentialCase) => serdes[testCase.ruleset.format]
  writePaths = {
    serializer: async (testCase, ctx) =>
      of(testCase).plain.deserialize(await of(testCase).serializer.serialize(testCase.value, ctx), ctx),
    'serializer (sync)': async (testCase, ctx) =>
      of(testCase).plain.deserialize(of(testCase).serializer.serializeSync(testCase.value, ctx), ctx),
    AnySerializer: async (testCase, ctx) =>
      anyPlain.deserialize(await any.serialize(testCase.value, ctx), ctx),
    'AnySerializer (sync)': async (testCase, ctx) =>
      anyPlain.deserialize(any.serializeSync(testCase.value, ctx), ctx),
    KafkaJsSerde: async (testCase, ctx) => {
      const message = await producer.encodeMessage(ctx.topic, { value: testCase.value })
      return anyPlain.deserialize(message.value as Buffer, ctx)
    },
  }
  readPaths = {
    deserializer: async (testCase, ctx) =>
      of(testCase).checked.deserialize(await written.serialize(testCase.value, ctx), ctx),
    'deserializer (sync)': async (testCase, ctx) =>
      of(testCase).checked.deserializeSync(await written.serialize(testCase.value, ctx), ctx),
    AnyDeserializer: async (testCase, ctx) =>
      anyChecked.deserialize(await written.serialize(testCase.value, ctx), ctx),
    'AnyDeserializer (sync)': async (testCase, ctx) =>
      anyChecked.deserializeSync(await written.serialize(testCase.value, ctx), ctx),
    KafkaJsSerde: async (testCase, ctx) => {
      const bytes = await written.serialize(testCase.value, ctx)
      const decoded = await consumer.decodeMessage(ctx.topic, 0, {
        key: null,
        value: Buffer.from(bytes),
        headers: {},
        offset: '0',
        timestamp: '0',
      })
      return decoded.value
    },
  }
}, 120_000)

afterAll(async () => {
  if (url === '') return
  await client.close()
  await fetch(`${url}/groups/${group}`, { method: 'DELETE' })
})

/**
 * Each path's answer beside the registry's: a difference on a case not listed in DIFFERENTIAL_EXCEPTIONS, and a
 * listed case whose answers are no longer the listed ones (a stale entry), each as a line naming both answers.
 */
class Verdicts {
  readonly unlisted: string[] = []
  readonly stale: string[] = []

  judge(id: string, path: string, node: Outcome, registry: Outcome): void {
    const listed = DIFFERENTIAL_EXCEPTIONS[id]
    const line = `${id} ${path}: node ${describeOutcome(node)} registry ${describeOutcome(registry)}`
    if (listed === undefined) {
      if (!sameOutcome(node, registry)) this.unlisted.push(line)
    } else if (
      !sameOutcome(node, outcomeOf(listed.node)) ||
      !sameOutcome(registry, outcomeOf(listed.registry))
    ) {
      this.stale.push(line)
    }
  }
}

/** What the registry's answers came to: refusals, transformed records, records passed as sent. */
function tally(): { counts: Record<string, number>; add(registry: Outcome, recordJson: string): void } {
  const counts = { refused: 0, transformed: 0, passed: 0 }
  return {
    counts,
    add(registry, recordJson) {
      if ('refused' in registry) counts.refused++
      else if ('record' in registry && !sameOutcome(registry, { record: exactParse(recordJson) }))
        counts.transformed++
      else counts.passed++
    },
  }
}

/** Every path of a case, with what it came to. */
async function runPaths(testCase: DifferentialCase): Promise<[string, Outcome][]> {
  const ctx = new SerializationContext(testCase.ruleset.topic)
  const paths = testCase.mode === 'WRITE' ? writePaths : readPaths
  const outcomes: [string, Outcome][] = []
  for (const [name, path] of Object.entries(paths)) {
    const toJava = (value: unknown) => javaRecordOf(testCase.ruleset.format, value)
    outcomes.push([name, await nodeOutcome(toJava, () => path(testCase, ctx))])
  }
  return outcomes
}

/** A migration case's writer: a serializer of the `fromVersion` schema (found, not registered again). */
function migrationWriter(testCase: MigrationCase) {
  const schema = migrationVersions(testCase.format).find((v) => v.version === testCase.fromVersion)!.schema
  const options = { artifactResolver: new TopicIdStrategy(), schema, autoRegister: true }
  return testCase.format === 'avro'
    ? new AvroSerializer(client, options)
    : new JsonSchemaSerializer(client, options)
}

/** The deserializers of each path migrating to a version, made once per version. */
const migrators = new Map<
  string,
  Record<string, (bytes: Uint8Array, ctx: SerializationContext) => Promise<unknown>>
>()

function migratorsTo(format: 'avro' | 'json', targetVersion: string) {
  const key = `${format} ${targetVersion}`
  let paths = migrators.get(key)
  if (paths === undefined) {
    const rules = { enabled: true, migration: { enabled: true, targetVersion } }
    const checked =
      format === 'avro'
        ? new AvroDeserializer(client, { rules })
        : new JsonSchemaDeserializer(client, { rules })
    const any = new AnyDeserializer(client, { rules })
    const consumer = new KafkaJsSerde(client, { rules })
    paths = {
      deserializer: (bytes, ctx) => checked.deserialize(bytes, ctx),
      'deserializer (sync)': async (bytes, ctx) => checked.deserializeSync(bytes, ctx),
      AnyDeserializer: (bytes, ctx) => any.deserialize(bytes, ctx),
      'AnyDeserializer (sync)': async (bytes, ctx) => any.deserializeSync(bytes, ctx),
      KafkaJsSerde: async (bytes, ctx) =>
        (
          await consumer.decodeMessage(ctx.topic, 0, {
            key: null,
            value: Buffer.from(bytes),
            headers: {},
            offset: '0',
            timestamp: '0',
          })
        ).value,
    }
    migrators.set(key, paths)
  }
  return paths
}

describe.skipIf(url === '')('every serde path against the live registry', () => {
  it('holds at least 300 cases of the three formats, written and read', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300)
    expect(new Set(cases.map((testCase) => testCase.ruleset.format))).toEqual(
      new Set(['avro', 'json', 'protobuf']),
    )
  })

  it('comes to the registry answer on every case, but the listed exceptions, which still answer as listed', async () => {
    const verdicts = new Verdicts()
    const answers = tally()
    await pool(cases, 8, async (testCase) => {
      const [registry, paths] = await Promise.all([askRegistry(testCase), runPaths(testCase)])
      answers.add(registry, testCase.recordJson)
      for (const [path, node] of paths) verdicts.judge(testCase.id, path, node, registry)
    })
    expect(verdicts.unlisted.sort()).toEqual([])
    expect(verdicts.stale.sort()).toEqual([])
    // Not a vacuous agreement: the cases come to refusals, transformed records and records passed as sent.
    expect(answers.counts.refused).toBeGreaterThan(80)
    expect(answers.counts.transformed).toBeGreaterThan(60)
    expect(answers.counts.passed).toBeGreaterThan(60)
  }, 120_000)

  it('migrates every record as the registry migrates it, but the listed exceptions', async () => {
    expect(migrations.length).toBeGreaterThanOrEqual(30)
    const verdicts = new Verdicts()
    const answers = tally()
    // One case first per writer version and target, so that the others find the schemas and rulesets cached.
    await pool(migrations, 4, async (testCase) => {
      const ctx = new SerializationContext(testCase.topic)
      const bytes = await migrationWriter(testCase).serialize(testCase.value, ctx)
      const answer = await call(
        'POST',
        `/groups/${group}/artifacts/${testCase.topic}-value/contract/migrate`,
        `{"fromVersion":"${testCase.fromVersion}","toVersion":"${testCase.toVersion}","record":${testCase.recordJson}}`,
      )
      const registry = registryOutcome(answer, testCase.recordJson)
      answers.add(registry, testCase.recordJson)
      const toJava = (value: unknown) => migrationJavaRecord(testCase.format, testCase.toVersion, value)
      for (const [path, read] of Object.entries(migratorsTo(testCase.format, testCase.toVersion))) {
        verdicts.judge(testCase.id, path, await nodeOutcome(toJava, () => read(bytes, ctx)), registry)
      }
    })
    expect(verdicts.unlisted.sort()).toEqual([])
    expect(verdicts.stale.sort()).toEqual([])
    expect(answers.counts.refused).toBeGreaterThan(3)
    expect(answers.counts.transformed).toBeGreaterThan(15)
  }, 120_000)
})
