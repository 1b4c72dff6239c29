import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AvroSerializer } from '@x/avro-serde'
import { type Io, run } from '@x/cli'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { propertyTests } from './support/entry-tests.js'
import { byteInputs, hostileJsonTexts } from './support/frames.js'
import {
  hostileKey,
  hostileRecord,
  hostileValue,
  KIB64,
  LONE_SURROGATES,
  PROTOTYPE_NAMES,
  preview,
  samples,
} from './support/hostile.js'
import { ANY_JSON_SCHEMA, EDGE_PROTO, EDGE_SCHEMA } from './support/hostile-schemas.js'
import { EntryPoint, type Outcome, type PropertyName } from './support/probe.js'
import { count, recordFigures } from './support/scale.js'

// Hostile input at InMemoryRegistry's HTTP routes (random methods, paths, bodies, artifact names) and at the CLI's
// inputs (a record for `rules test`, JSON lines for `produce`, a message for `inspect`), run in process. The registry
// must answer every request (never reset it, never a 500 of its own), keep what it stores under any name; the CLI
// must exit with a code it documents (never "unreachable" for bad data) and a message of its own, fast, and leave
// Object.prototype alone.

const SEED = Number(process.env.RELIABILITY_SEED ?? 20_261_207)
const N_REGISTRY = count('hostileRegistry')
const N_CLI = count('hostileCli')
/** The JSON lines one `produce` run is given (see its test). */
const PRODUCE_LINES = 40
const figures: Record<string, string | number> = {}
let registry: InMemoryRegistry
let client: RegistryClient
const folder = mkdtempSync(join(tmpdir(), 'x-serde-hostile-'))
const frames: Buffer[] = []

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  // retries only for a kept-alive connection the registry closed meanwhile (it injects no faults here)
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 2, retryBackoffMs: 1 })
  const avro = new AvroSerializer(client, 'hostile-edge-value', { autoRegister: true, schema: EDGE_SCHEMA })
  const json = new JsonSchemaSerializer(client, 'hostile-json-value', {
    autoRegister: true,
    schema: ANY_JSON_SCHEMA,
  })
  const proto = new ProtobufSerializer(client, 'hostile-proto-value', {
    autoRegister: true,
    schema: EDGE_PROTO,
  })
  const edge = {
    s: 'x',
    l: 1,
    d: 1.5,
    b: Buffer.from([1]),
    m: { a: 1 },
    a: ['b'],
    n: null,
    e: 'toString',
    child: null,
  }
  frames.push(
    Buffer.from(await avro.serialize(edge, new SerializationContext('hostile-edge'))),
    Buffer.from(await json.serialize({ a: [1, 'x'] }, new SerializationContext('hostile-json'))),
    Buffer.from(await proto.serialize({ id: 1, card: 'x' }, new SerializationContext('hostile-proto'))),
  )
})

afterAll(async () => {
  await client.close()
  await registry.close()
  rmSync(folder, { recursive: true, force: true })
  recordFigures('hostile-registry-cli', figures)
})

const entries = new Map<string, EntryPoint>()
const get = (name: string) => () => entries.get(name) as EntryPoint

/** A name that can travel in a URL (a lone surrogate cannot be percent-encoded, so no client can send one). */
const urlName = hostileKey
  .filter((name) => name !== '' && !LONE_SURROGATES.some((s) => name.includes(s)))
  .filter((name) => {
    try {
      encodeURIComponent(name)
      return true
    } catch {
      return false
    }
  })

const TEMPLATES = [
  'system/info',
  'admin/rules',
  'admin/rules/:r',
  'search/versions',
  'admin/contracts/ruleset',
  'groups/:g',
  'groups/:g/rules',
  'groups/:g/artifacts',
  'groups/:g/artifacts/:a',
  'groups/:g/artifacts/:a/rules',
  'groups/:g/artifacts/:a/versions',
  'groups/:g/artifacts/:a/versions/:v',
  'groups/:g/artifacts/:a/versions/:v/content',
  'groups/:g/artifacts/:a/versions/:v/references',
  'groups/:g/artifacts/:a/versions/:v/state',
  'groups/:g/artifacts/:a/versions/:v/contract/execute',
  'groups/:g/artifacts/:a/contract/ruleset',
  'groups/:g/artifacts/:a/contract/migrate',
  'groups/:g/artifacts/:a/branches',
  'ids/globalIds/:id',
  'ids/contentIds/:id',
  'ids/contentIds/:id/references',
  'ids/contentHashes/:id',
]
const segment = fc.oneof(
  urlName.map(encodeURIComponent),
  fc.constantFrom(
    'default',
    'hostile-edge-value',
    'branch=latest',
    '1',
    '2',
    '%',
    '%zz',
    '..',
    '',
    '-1',
    '9223372036854775808',
    'x'.repeat(KIB64),
  ),
  fc.constantFrom(...PROTOTYPE_NAMES),
)
const path = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...TEMPLATES), fc.array(segment, { minLength: 5, maxLength: 5 }))
      .map(([template, parts]) => {
        let i = 0
        return template.replace(/:[a-z]+/g, () => parts[i++] as string)
      }),
  },
  { weight: 1, arbitrary: fc.array(segment, { maxLength: 6 }).map((parts) => parts.join('/')) },
)
const query = fc.constantFrom(
  '',
  '?ifExists=FIND_OR_CREATE_VERSION',
  '?ifExists=__proto__',
  '?limit=-1&offset=1e400',
  '?canonical=constructor',
  '?references=PREHYDRATE&returnArtifactType=true',
)
const jsonBody = fc.oneof(
  fc.constantFrom(...hostileJsonTexts().filter((text) => text.length < 2 * KIB64)),
  hostileRecord.map((record) => {
    try {
      return (
        JSON.stringify(record, (_key, item) => (typeof item === 'bigint' ? item.toString() : item)) ?? 'null'
      )
    } catch {
      return '{'
    }
  }),
  fc
    .record({
      artifactId: urlName,
      artifactType: fc.constantFrom('AVRO', 'JSON', 'PROTOBUF', '__proto__'),
      content: fc.oneof(fc.constant(JSON.stringify(EDGE_SCHEMA)), fc.string()),
    })
    .map(({ artifactId, artifactType, content }) =>
      JSON.stringify({
        artifactId,
        artifactType,
        firstVersion: { content: { content, contentType: 'application/json', references: [] } },
      }),
    ),
  fc.string({ unit: 'binary', maxLength: 40 }),
)

/** Runs `x-serde` in process; a rejection of `run` itself is kept as the outcome's error. */
async function cli(
  args: readonly string[],
  stdin?: Buffer,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = ''
  let stderr = ''
  const io: Io = {
    stdout: (text) => {
      stdout += text
    },
    stderr: (text) => {
      stderr += text
    },
    env: { REGISTRY_URL: registry.url, KAFKA_BROKERS: '127.0.0.1:1' },
    cwd: folder,
    readStdin: async () => stdin ?? Buffer.alloc(0),
  }
  const code = await run(args, io)
  return { code, stdout, stderr }
}

/** Messages of JavaScript itself: a CLI that prints one let an error from deep inside through. */
const FOREIGN = [
  'Maximum call stack',
  'Cannot read propert',
  'is not a function',
  'is not iterable',
  'Cannot convert a',
  'Converting circular',
  'Invalid array length',
  'Invalid string length',
  'out of memory',
  'undefined (reading',
]

/** Where the first of the {@link FOREIGN} messages is in `text`, or -1 (plain searches: a run's output can be long). */
function foreignAt(text: string): number {
  let first = -1
  for (const message of FOREIGN) {
    const at = text.indexOf(message)
    if (at >= 0 && (first < 0 || at < first)) first = at
  }
  return first
}

/**
 * What is wrong with a CLI run, property by property: an exit code it does not document, "unreachable" (bad data is
 * no outage), a foreign message. A run that rejected is the probe's to judge.
 */
function runProblems(outcome: Outcome<unknown>, allowed: readonly number[]): [PropertyName, string][] {
  if (!outcome.ok) return []
  const result = outcome.value as { code: number; stderr: string }
  const problems: [PropertyName, string][] = []
  if (result.code === 3)
    problems.push(['poison', `exit 3 (unreachable) for bad data: ${result.stderr.slice(0, 160)}`])
  else if (!allowed.includes(result.code))
    problems.push(['error', `exit ${result.code}: ${result.stderr.slice(0, 160)}`])
  const foreign = foreignAt(result.stderr)
  if (foreign >= 0)
    problems.push([
      'error',
      `a foreign message: ${result.stderr.slice(Math.max(0, foreign - 60), foreign + 80)}`,
    ])
  return problems
}

/** Checks a CLI run (see {@link runProblems}). */
function checkRun(
  entry: EntryPoint,
  input: unknown,
  outcome: Outcome<unknown>,
  allowed: readonly number[],
): void {
  for (const [property, text] of runProblems(outcome, allowed)) entry.find(property, input, text)
}

/** JSON texts of hostile values (bigints as integer text), hostile JSON documents, and texts that are not JSON. */
const jsonText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.oneof(hostileRecord, hostileValue).map((value) => {
      try {
        return (
          JSON.stringify(value, (_key, item) =>
            typeof item === 'bigint' ? `__BIG${item}__` : item,
          )?.replace(/"__BIG(-?\d+)__"/g, '$1') ?? 'null'
        )
      } catch {
        return '{"a":'
      }
    }),
  },
  { weight: 2, arbitrary: fc.constantFrom(...hostileJsonTexts()) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
)

describe('x-serde rules test, with a record given as JSON text', () => {
  it(`tests ${N_CLI} hostile records against rulesets`, async () => {
    const entry = new EntryPoint('x-serde rules test', { read: true })
    entries.set(entry.name, entry)
    const rulesets = [
      {
        domainRules: [
          {
            name: 'positive',
            kind: 'CONDITION',
            type: 'CEL',
            mode: 'WRITE',
            expr: 'total > 0.0',
            onFailure: 'ERROR',
          },
        ],
      },
      {
        domainRules: [
          {
            name: 'proto',
            kind: 'CONDITION',
            type: 'CEL',
            mode: 'WRITE',
            expr: 'has(__proto__.a)',
            onFailure: 'ERROR',
          },
        ],
      },
      {
        domainRules: [
          {
            name: 'copy',
            kind: 'TRANSFORM',
            type: 'JSONATA',
            mode: 'READ',
            expr: '$merge([$, {"__proto__": {"polluted": 1}}])',
          },
        ],
      },
      { domainRules: [{ name: 'same', kind: 'TRANSFORM', type: 'JSONATA', mode: 'READ', expr: '$' }] },
    ]
    for (const [i, ruleset] of rulesets.entries()) {
      writeFileSync(join(folder, `ruleset-${i}.json`), JSON.stringify(ruleset))
    }
    const inputs = fc.record({
      record: jsonText,
      ruleset: fc.nat({ max: rulesets.length - 1 }),
      mode: fc.constantFrom('WRITE', 'READ'),
      stdin: fc.boolean(),
    })
    for (const input of samples(inputs, N_CLI, SEED + 320)) {
      const args = [
        'rules',
        'test',
        input.stdin ? '-' : input.record,
        '--artifact',
        'a',
        '--ruleset',
        `ruleset-${input.ruleset}.json`,
        '--mode',
        input.mode,
      ]
      const shown = { ...input, record: input.record.slice(0, 200) }
      const outcome = await entry.probe(shown, input.record.length * 2, () =>
        cli(args, input.stdin ? Buffer.from(input.record) : undefined),
      )
      checkRun(entry, shown, outcome, [0, 1, 2])
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('x-serde rules test'), ['error', 'poison', 'time', 'prototype'], {})
})

describe('x-serde produce, with JSON lines on standard input', () => {
  it(`refuses or converts ${N_CLI} hostile lines, sending nothing`, async () => {
    const entry = new EntryPoint('x-serde produce', { read: true })
    entries.set(entry.name, entry)
    const inputs = fc.record({
      line: jsonText,
      topic: fc.constantFrom('hostile-edge', 'hostile-json', 'hostile-proto'),
    })
    type Input = { line: string; topic: string }
    // a last line that is not JSON: whatever the lines before it are, nothing is sent
    const stdinOf = (lines: readonly Input[]) =>
      Buffer.from(`${lines.map((input) => input.line.replace(/\n/g, ' ')).join('\n')}\nnot json\n`)
    const shown = (input: Input) => ({ ...input, line: input.line.slice(0, 200) })
    /** One run of `produce` for one line, as a user's file of one line. */
    const alone = async (input: Input) => {
      const stdin = stdinOf([input])
      const outcome = await entry.probe(shown(input), stdin.length, () =>
        cli(['produce', input.topic], stdin),
      )
      checkRun(entry, shown(input), outcome, [1])
    }
    // Lines of one topic go in runs of up to PRODUCE_LINES lines and 64 KiB (each line is encoded and reported on its
    // own, and a line that fails is named by its number), so that the CLI's start is not paid for every line; lines
    // over 64 KiB go in runs of their own, as the time bound is only for inputs up to 64 KiB.
    const pending = new Map<string, { bounded: boolean; lines: Input[]; bytes: number }>()
    const flush = async (group: { bounded: boolean; lines: Input[]; bytes: number }) => {
      const { bounded, lines } = group
      if (lines.length === 0) return
      await entry.probeMany(
        lines.map(shown),
        bounded,
        () => cli(['produce', (lines[0] as Input).topic], stdinOf(lines)),
        (outcome) => runProblems(outcome, [1])[0],
        (index) => alone(lines[index] as Input),
      )
      lines.length = 0
      group.bytes = 0
    }
    for (const input of samples(inputs, N_CLI, SEED + 330)) {
      const bytes = stdinOf([input]).length
      const bounded = bytes <= KIB64
      const key = `${input.topic}${bounded ? '' : ' over 64 KiB'}`
      const group = pending.get(key) ?? { bounded, lines: [], bytes: 0 }
      pending.set(key, group)
      if (bounded && group.bytes + bytes > KIB64) await flush(group)
      group.lines.push(input)
      group.bytes += bytes
      if (group.lines.length === PRODUCE_LINES) await flush(group)
    }
    for (const group of pending.values()) await flush(group)
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('x-serde produce'), ['error', 'poison', 'time', 'prototype'], {})
})

describe('x-serde inspect, with a message given as hex', () => {
  it(`inspects ${N_CLI} hostile messages`, async () => {
    const entry = new EntryPoint('x-serde inspect', { read: true })
    entries.set(entry.name, entry)
    const inputs = fc.record({
      bytes: fc.oneof(...frames.map((frame) => byteInputs([frame], []))),
      json: fc.boolean(),
      form: fc.constantFrom('hex', 'base64'),
    })
    for (const input of samples(inputs, N_CLI, SEED + 340)) {
      const text = input.bytes.toString(input.form as 'hex' | 'base64')
      const args = ['inspect', text === '' ? '00' : text, ...(input.json ? ['--json'] : [])]
      const shown = { bytes: preview(input.bytes), json: input.json, form: input.form }
      const outcome = await entry.probe(shown, text.length * 2, () => cli(args))
      checkRun(entry, shown, outcome, [0, 1, 2])
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('x-serde inspect'), ['error', 'poison', 'time', 'prototype'], {})
})

// The registry's own routes run after the CLI: they register as many artifacts as they have inputs, and a registry
// that holds them answers the CLI's lookups (a search by id) more slowly with every one, which would time the
// registry's size instead of the CLI.
describe("InMemoryRegistry's HTTP routes", () => {
  it(`answers ${N_REGISTRY} hostile requests`, async () => {
    const entry = new EntryPoint('InMemoryRegistry routes', { read: false })
    entries.set(entry.name, entry)
    const requests = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'),
      path,
      query,
      body: jsonBody,
      contentType: fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-protobuf',
      ),
    })
    for (const request of samples(requests, N_REGISTRY, SEED + 300)) {
      const input = { ...request, body: request.body.slice(0, 200) }
      const outcome = await entry.probe(input, request.path.length + request.body.length, async () => {
        const withBody = request.method !== 'GET' && request.method !== 'HEAD'
        const response = await fetch(`${registry.url}/${request.path}${request.query}`, {
          method: request.method,
          headers: { 'Content-Type': request.contentType },
          ...(withBody ? { body: request.body } : {}),
        })
        return { status: response.status, text: await response.text() }
      })
      if (!outcome.ok)
        entry.find('error', input, `no answer: ${String((outcome.error as Error).cause ?? outcome.error)}`)
      else if (outcome.value.status >= 500)
        entry.find('error', input, `answered ${outcome.value.status}: ${outcome.value.text.slice(0, 160)}`)
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('InMemoryRegistry routes'), ['error', 'time', 'prototype'], {})
})

describe('InMemoryRegistry under hostile artifact and group names', () => {
  it(`keeps ${N_REGISTRY} artifacts under hostile names and gives each back as registered`, async () => {
    const entry = new EntryPoint('InMemoryRegistry names', { read: false })
    entries.set(entry.name, entry)
    // Apicurio takes printable ASCII but for % in group and artifact ids (and refuses the rest with 400)
    const idName = urlName.filter((name) => /^[\x20-\x7e]+$/.test(name) && !name.includes('%'))
    // a group named `.` or `..` cannot be addressed in a path: URLs (and Apicurio's HTTP server) remove dot
    // segments, `%2E` included, so `/groups/./artifacts` is `/groups/artifacts` (405) in any registry
    const groupName = idName.filter((name) => name !== '.' && name !== '..')
    const artifacts = fc.record({
      groupId: fc.oneof(fc.constant('default'), groupName),
      artifactId: idName,
      content: fc.string({ unit: 'binary', maxLength: 30 }),
    })
    let i = 0
    for (const artifact of samples(artifacts, N_REGISTRY, SEED + 310)) {
      // each name once: a second registration of the same name is another version, not this check
      const artifactId = `${artifact.artifactId}${i++}`
      const content = JSON.stringify({ type: 'record', name: 'R', doc: artifact.content, fields: [] })
      const input = { groupId: artifact.groupId, artifactId }
      const base = `${registry.url}/groups/${encodeURIComponent(artifact.groupId)}/artifacts`
      const outcome = await entry.probe(input, content.length, async () => {
        const created = await fetch(base, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({
            artifactId,
            artifactType: 'AVRO',
            firstVersion: { content: { content, contentType: 'application/json', references: [] } },
          }),
        })
        const createdText = await created.text()
        const read = await fetch(`${base}/${encodeURIComponent(artifactId)}/versions/branch=latest/content`)
        const metadata = await fetch(`${base}/${encodeURIComponent(artifactId)}`)
        return {
          created: created.status,
          createdText,
          read: read.status,
          content: await read.text(),
          metadata: await metadata.text(),
        }
      })
      if (!outcome.ok) {
        entry.find('error', input, `no answer: ${String((outcome.error as Error).cause ?? outcome.error)}`)
        continue
      }
      const answer = outcome.value
      if (answer.created >= 500)
        entry.find(
          'error',
          input,
          `registration answered ${answer.created}: ${answer.createdText.slice(0, 160)}`,
        )
      else if (answer.created !== 200)
        entry.find(
          'roundTrip',
          input,
          `registration refused with ${answer.created}: ${answer.createdText.slice(0, 160)}`,
        )
      else if (answer.read !== 200 || answer.content !== content)
        entry.find('roundTrip', input, `read back with ${answer.read}: ${answer.content.slice(0, 160)}`)
      else if (!answer.metadata.includes(`"artifactId":${JSON.stringify(artifactId)}`))
        entry.find(
          'roundTrip',
          input,
          `its metadata names another artifact: ${answer.metadata.slice(0, 160)}`,
        )
    }
    Object.assign(figures, entry.figures())
  })
  propertyTests(get('InMemoryRegistry names'), ['error', 'time', 'roundTrip', 'prototype'], {})
})

describe('after every input', () => {
  it('ran every entry point', () => {
    expect(entries.size).toBe(5)
  })
})
