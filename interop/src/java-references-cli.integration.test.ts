import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ExactJson, type JsonTree, parseExactJson, parseJsonTree } from '@x/registry-client/json'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { uniqueName } from './fixtures.js'
import { buildJavaHarness, type JavaMode, javaConsume, javaRefsProduce } from './java-harness.js'
import { consumeRaw, createTopic } from './kafka-io.js'
import { repoDir } from './paths.js'
import { expectedAccountCanonical, expectedAccountJson } from './refs-fixtures.js'
import { latestVersion, versionMetadata, versionReferences } from './registry-http.js'

// A schema Java registered with references goes round through the CLI on the real broker and registry: Apicurio's
// Java Avro serde (3.1.7, auto-registering) writes interop/fixtures/account.avsc records, whose nested record Owner
// and its enum Tier it registers as artifacts of their own; `x-serde consume --json` prints them; the printed values,
// as printed, go back through `x-serde produce` with the same artifact to another topic. The messages produce writes
// equal Java's byte for byte (key, headers, value), and Java's deserializer reads them back as it wrote them.

const COUNT = 3
const registryUrl = inject('registryUrl')
const brokers = inject('kafkaBrokers')
const bin = join(repoDir, 'packages/cli/bin/x-serde.js')
const folder = mkdtempSync(join(tmpdir(), 'x-serde-java-refs-it-'))

beforeAll(() => buildJavaHarness(), 600_000)
afterAll(() => rmSync(folder, { recursive: true, force: true }))

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs the bin against the integration stage's registry and broker, in the default registry group; killed after 60 s. */
function xSerde(args: string[], input = ''): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: folder,
      env: { PATH: process.env.PATH ?? '', REGISTRY_URL: registryUrl, KAFKA_BROKERS: brokers },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk
    })
    child.stdin.end(input)
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000)
    child.on('error', fail)
    child.on('close', (code) => {
      clearTimeout(timer)
      done({ code, stdout, stderr })
    })
  })
}

/** A JSON tree written back as text, every number exactly as it was read. */
function treeText(tree: JsonTree): string {
  if (tree instanceof Map) {
    return `{${[...tree].map(([name, value]) => `${JSON.stringify(name)}:${treeText(value)}`).join(',')}}`
  }
  if (Array.isArray(tree)) return `[${tree.map(treeText).join(',')}]`
  if (tree !== null && typeof tree === 'object') return tree.text
  return JSON.stringify(tree)
}

/** A consumed message: what `consume --json` printed of it, and the `value` member's text exactly as printed. */
interface Printed {
  line: Record<string, ExactJson>
  valueText: string
}

/** `x-serde consume TOPIC --json` (which must exit 0 with no error line), each line read exactly. */
async function consumeJson(topic: string, extra: string[] = []): Promise<Printed[]> {
  const run = await xSerde(['consume', topic, '--json', ...extra])
  expect(run.stderr).toBe(`${COUNT} messages: ${COUNT} AVRO\n`)
  expect(run.code).toBe(0)
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((text) => {
      const tree = parseJsonTree(text) as Map<string, JsonTree>
      return {
        line: parseExactJson(text).value as Record<string, ExactJson>,
        valueText: treeText(tree.get('value') ?? null),
      }
    })
}

/** What identifies a message apart from where and when it was written: key, headers, schema and value. */
const content = ({ line }: Printed) => ({
  key: line.key,
  headers: line.headers,
  schema: line.schema,
  value: line.value,
})

describe("a schema Java's Avro serde registered with references, through x-serde consume --json and produce", () => {
  test.each([
    ['default', []],
    ['headers', ['--headers']],
  ] as [JavaMode, string[]][])(
    'Java in its %s mode: produce writes what consume printed byte for byte as Java wrote it, and Java reads it back',
    async (mode, produceFlags) => {
      const javaTopic = uniqueName(`java-refs-${mode}`)
      const copyTopic = `${javaTopic}-copy`
      await createTopic(brokers, javaTopic)
      await createTopic(brokers, copyTopic)
      await javaRefsProduce(brokers, registryUrl, javaTopic, mode, COUNT)

      // Java split the schema: <topic>-value references Owner, which references Tier, each in the default group.
      const latest = await latestVersion(registryUrl, 'default', `${javaTopic}-value`)
      const references = await versionReferences(registryUrl, 'default', `${javaTopic}-value`, latest.version)
      expect(references.map(({ name, artifactId }) => ({ name, artifactId }))).toEqual([
        { name: 'x.serde.refs.Owner', artifactId: 'x.serde.refs.Owner' },
      ])
      const ownerReferences = await versionReferences(
        registryUrl,
        'default',
        'x.serde.refs.Owner',
        references[0]!.version,
      )
      expect(ownerReferences.map(({ name, artifactId }) => ({ name, artifactId }))).toEqual([
        { name: 'x.serde.refs.Tier', artifactId: 'x.serde.refs.Tier' },
      ])

      // Java 3.x writes contentIds: a frame's id needs --use-id contentId; a header names its id type itself.
      const useId = ['--use-id', 'contentId']
      const printed = await consumeJson(javaTopic, useId)
      expect(printed.map(({ line }) => [line.key, line.value])).toEqual(
        Array.from({ length: COUNT }, (_, i) => [`acct-${i}-\u00fc\u20ac`, expectedAccountJson(i)]),
      )
      // A contentId names content, which every artifact version with the same text and references shares (each
      // run of this test registers the same schema): consume names one of them, a version holding that content.
      const schema = printed[0]!.line.schema as Record<string, string | number>
      expect(printed.map(({ line }) => line.schema)).toEqual(Array(COUNT).fill(schema))
      expect(schema).toMatchObject({
        format: 'AVRO',
        idType: 'contentId',
        id: latest.contentId,
        mode: mode === 'headers' ? 'headers' : 'framed',
        groupId: 'default',
      })
      const named = await versionMetadata(
        registryUrl,
        'default',
        String(schema.artifactId),
        String(schema.version),
      )
      expect(named.contentId).toBe(latest.contentId)

      const produced = await xSerde(
        [
          'produce',
          copyTopic,
          '--artifact',
          `${javaTopic}-value`,
          ...useId,
          ...produceFlags,
          '--key-field',
          'id',
        ],
        `${printed.map(({ valueText }) => valueText).join('\n')}\n`,
      )
      expect(produced.stderr).toBe(
        `sent ${COUNT} messages to ${copyTopic} (partition 0 from offset 0) with default/${javaTopic}-value ` +
          `version ${latest.version} (AVRO, ${mode === 'headers' ? 'headers mode' : 'framed'}, contentId ${latest.contentId})\n`,
      )
      expect(produced.code).toBe(0)

      // The copy's messages equal Java's: the same key, schema and value as consume prints them, and the same raw
      // value bytes and headers (in headers mode Java's 8-byte contentId header and its BINARY encoding header).
      const copied = await consumeJson(copyTopic, useId)
      expect(copied.map(content)).toEqual(printed.map(content))
      const javaMessages = await consumeRaw(brokers, javaTopic, COUNT, 30_000)
      const copyMessages = await consumeRaw(brokers, copyTopic, COUNT, 30_000)
      expect(copyMessages).toEqual(javaMessages)
      expect(Object.keys(javaMessages[0]!.headers)).toEqual(
        mode === 'headers' ? ['apicurio.value.contentId', 'apicurio.value.encoding'] : [],
      )
      const javaRead = await javaConsume(brokers, registryUrl, copyTopic, mode, COUNT)
      expect(javaRead.map((record) => record.value)).toEqual(
        Array.from({ length: COUNT }, (_, i) => expectedAccountCanonical(i)),
      )
    },
    120_000,
  )
})
