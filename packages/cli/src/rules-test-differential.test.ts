import { AvroDeserializer, AvroSerializer, TopicIdStrategy } from '@x/avro-serde'
import { JsonSchemaDeserializer, JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import {
  DIFFERENTIAL_EXCEPTIONS,
  type DifferentialCase,
  type DifferentialFormat,
  describeOutcome,
  differentialCases,
  differentialRulesets,
  differentialSchema,
  exactParse,
  javaRecordOf,
  nodeOutcome,
  type Outcome,
  outcomeOf,
  RULES_TEST_EXCEPTIONS,
  sameOutcome,
} from '@x/test-support'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cli, workFolder } from './test-support/cli-harness.js'

// `x-serde rules test` predicts the serializer: on every case of the serde-level differential (see
// @x/test-support), the verdict `rules test` prints for the record Java's serde sends for a value — the rules that
// refuse it, or the record that goes on — is what the format's serializer (WRITE) or deserializer (READ) with rules
// on does with the value, both against one InMemoryRegistry. Where the differential lists the library's answer as
// an exception, `rules test` gives the answer the exception names: the registry's where the serializer refuses a
// transformed record for not fitting the schema (no ruleset verdict can tell), the library's engine's where the
// engine itself differs.

const ARTIFACT_TYPES: Record<DifferentialFormat, 'AVRO' | 'JSON' | 'PROTOBUF'> = {
  avro: 'AVRO',
  json: 'JSON',
  protobuf: 'PROTOBUF',
}

let registry: InMemoryRegistry
let client: RegistryClient
const folder = workFolder()
const cases = differentialCases()

interface Serdes {
  serializer: { serialize(value: unknown, ctx: SerializationContext): Promise<Uint8Array> }
  writer: { serialize(value: unknown, ctx: SerializationContext): Promise<Uint8Array> }
  plain: { deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown> }
  checked: { deserialize(bytes: Uint8Array, ctx: SerializationContext): Promise<unknown> }
}
let serdes: Record<DifferentialFormat, Serdes>

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  for (const ruleset of differentialRulesets()) {
    const artifactId = `${ruleset.topic}-value`
    await client.registerSchema(artifactId, differentialSchema(ruleset.format), {
      artifactType: ARTIFACT_TYPES[ruleset.format],
    })
    await client.setVersionRuleset(artifactId, '1', ruleset.ruleSet)
  }
  const artifactResolver = new TopicIdStrategy()
  const rules = { enabled: true }
  serdes = {
    avro: {
      serializer: new AvroSerializer(client, { artifactResolver, rules }),
      writer: new AvroSerializer(client, { artifactResolver }),
      plain: new AvroDeserializer(client),
      checked: new AvroDeserializer(client, { rules }),
    },
    json: {
      serializer: new JsonSchemaSerializer(client, { artifactResolver, rules }),
      writer: new JsonSchemaSerializer(client, { artifactResolver }),
      plain: new JsonSchemaDeserializer(client),
      checked: new JsonSchemaDeserializer(client, { rules }),
    },
    protobuf: {
      serializer: new ProtobufSerializer(client, { artifactResolver, rules }),
      writer: new ProtobufSerializer(client, { artifactResolver }),
      plain: new ProtobufDeserializer(client),
      checked: new ProtobufDeserializer(client, { rules }),
    },
  }
})

afterAll(async () => {
  await client.close()
  await registry.close()
  folder.done()
})

/** What the serializer (WRITE) or the deserializer (READ) of the case's format does with its value. */
function serdeOutcome(testCase: DifferentialCase): Promise<Outcome> {
  const ctx = new SerializationContext(testCase.ruleset.topic)
  const format = testCase.ruleset.format
  const { serializer, writer, plain, checked } = serdes[format]
  return nodeOutcome(
    (value) => javaRecordOf(format, value),
    async () =>
      testCase.mode === 'WRITE'
        ? plain.deserialize(await serializer.serialize(testCase.value, ctx), ctx)
        : checked.deserialize(await writer.serialize(testCase.value, ctx), ctx),
  )
}

const VIOLATION = /^ {9}- (.+) \[(.+)\]: /
const TRANSFORMED = /^ {9}transformed: (.*)$/

/** What `rules test` prints for the case's record, read as a serde acts on it. */
async function rulesTestOutcome(testCase: DifferentialCase): Promise<Outcome> {
  const run = await cli(
    [
      'rules',
      'test',
      testCase.recordJson,
      '--artifact',
      `${testCase.ruleset.topic}-value`,
      '--mode',
      testCase.mode,
    ],
    { cwd: folder.path, env: { REGISTRY_URL: registry.url } },
  )
  const lines = run.stdout.split('\n')
  const violations = lines.flatMap((line) => {
    const match = VIOLATION.exec(line)
    return match === null
      ? []
      : [[match[1]!, match[2] === 'no action' ? null : match[2]!] as [string, string | null]]
  })
  if (violations.some(([, action]) => action === 'ERROR' || action === 'DLQ')) return { refused: violations }
  const transformed = lines.map((line) => TRANSFORMED.exec(line)).find((match) => match !== null)
  return { record: exactParse(transformed?.[1] ?? testCase.recordJson) }
}

describe('x-serde rules test against the serializer', () => {
  it('gives the verdict the serializer or deserializer acts on, for every case of the serde-level differential', async () => {
    expect(cases.length).toBeGreaterThanOrEqual(300)
    const disagreements: string[] = []
    let next = 0
    const worker = async () => {
      while (next < cases.length) {
        const testCase = cases[next++]!
        const [serde, rulesTest] = await Promise.all([serdeOutcome(testCase), rulesTestOutcome(testCase)])
        const listed = DIFFERENTIAL_EXCEPTIONS[testCase.id]
        const alone = RULES_TEST_EXCEPTIONS[testCase.id]
        if (alone !== undefined) {
          if (
            !sameOutcome(rulesTest, outcomeOf(alone.rulesTest)) ||
            !sameOutcome(serde, outcomeOf(alone.serializer))
          ) {
            disagreements.push(
              `${testCase.id} (listed): rules test ${describeOutcome(rulesTest)} serializer ${describeOutcome(serde)}`,
            )
          }
          continue
        }
        const expected =
          listed === undefined || !sameOutcome(serde, outcomeOf(listed.node))
            ? serde
            : outcomeOf(listed[listed.rulesTest])
        if (!sameOutcome(rulesTest, expected)) {
          disagreements.push(
            `${testCase.id}: rules test ${describeOutcome(rulesTest)} serializer ${describeOutcome(expected)}`,
          )
        }
      }
    }
    await Promise.all([worker(), worker(), worker(), worker()])
    expect(disagreements.sort()).toEqual([])
  }, 120_000)
})
