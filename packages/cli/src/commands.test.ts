import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { DeserializationError } from '@x/errors'
import { JsonSchemaSerializer } from '@x/jsonschema-serde'
import { ProtobufDeserializer, ProtobufSerializer } from '@x/protobuf-serde'
import { RegistryClient, readSnapshot } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { SerializationContext } from '@x/wire-format'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inspect } from './commands/inspect.js'
import { cli, workFolder } from './test-support/cli-harness.js'

// Every command end to end against InMemoryRegistry (in process), as a shell would run it.

let registry: InMemoryRegistry
let admin: RegistryClient
let env: Record<string, string>
const folder = workFolder()
const ctx = new SerializationContext('orders')

const ORDER_V1 = { type: 'record', name: 'Order', namespace: 'shop', fields: [{ name: 'id', type: 'long' }] }
const ORDER_V2 = {
  ...ORDER_V1,
  fields: [...ORDER_V1.fields, { name: 'note', type: ['null', 'string'], default: null }],
}
const ORDER_BAD = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: 'qty', type: 'int' }] }

beforeAll(async () => {
  registry = await InMemoryRegistry.start({ firstGlobalId: 40, firstContentId: 7 })
  admin = new RegistryClient({ url: registry.url, groupId: 'default' })
  env = { REGISTRY_URL: registry.url }
  writeFileSync(join(folder.path, 'order.avsc'), JSON.stringify(ORDER_V1))
  writeFileSync(join(folder.path, 'order-v2.avsc'), JSON.stringify(ORDER_V2))
  writeFileSync(join(folder.path, 'order-bad.avsc'), JSON.stringify(ORDER_BAD))
})

afterAll(async () => {
  await admin.close()
  await registry.close()
  folder.done()
})

describe('register', () => {
  it('registers a file under its artifact and prints the ids; again it finds the same version', async () => {
    const first = await cli(['register', 'order.avsc', '--artifact', 'orders-value'], {
      cwd: folder.path,
      env,
    })
    expect(first).toEqual({
      code: 0,
      stdout: 'order.avsc → default/orders-value version 1 (globalId 40, contentId 7)\n',
      stderr: '',
    })
    const again = await cli(['register', 'order.avsc', '--artifact', 'orders-value'], {
      cwd: folder.path,
      env,
    })
    expect(again.stdout).toBe('order.avsc → default/orders-value version 1 (globalId 40, contentId 7)\n')
    const refused = await cli(
      ['register', 'order.avsc', '--artifact', 'orders-value', '--if-exists', 'FAIL'],
      {
        cwd: folder.path,
        env,
      },
    )
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^x-serde: .*orders-value.*409/)
  })
})

describe('inspect', () => {
  it('decodes an Avro frame, names its artifact and prints the value with exact longs', async () => {
    const serializer = new AvroSerializer(admin, 'orders-value')
    const bytes = Buffer.from(await serializer.serialize({ id: 2n ** 60n }, ctx))
    const human = await cli(['inspect', bytes.toString('hex')], { cwd: folder.path, env })
    expect(human).toEqual({
      code: 0,
      stdout: [
        'framing:  framed (0x00 + 4-byte id)',
        'magic:    0x00',
        'id:       globalId 40',
        'payload:  9 bytes',
        'artifact: default/orders-value version 1',
        'format:   AVRO',
        'value:    {',
        '            "id": 1152921504606846976',
        '          }',
        '',
      ].join('\n'),
      stderr: '',
    })
    const machine = await cli(['inspect', bytes.toString('base64'), '--json'], { cwd: folder.path, env })
    expect(machine.stdout).toBe(
      '{"framing":"framed","magic":0,"idSize":4,"idType":"globalId","id":40,"payloadBytes":9,"format":"AVRO","artifacts":[{"groupId":"default","artifactId":"orders-value","version":"1","artifactType":"AVRO"}],"value":{"id":1152921504606846976}}\n',
    )
    writeFileSync(join(folder.path, 'message.bin'), bytes)
    expect((await cli(['inspect', '@message.bin', '--json'], { cwd: folder.path, env })).stdout).toBe(
      machine.stdout,
    )
    expect(
      (
        await cli(['inspect', '-', '--json'], {
          cwd: folder.path,
          env,
          stdin: Buffer.from(bytes.toString('hex')),
        })
      ).stdout,
    ).toBe(machine.stdout)
  })

  it('prints a value of a union whose bare values would print alike wrapped by its branch, as consume does', async () => {
    await admin.registerSchema(
      'notes-value',
      { type: 'record', name: 'Note', fields: [{ name: 'body', type: ['null', 'string', 'bytes'] }] },
      { artifactType: 'AVRO' },
    )
    const serializer = new AvroSerializer(admin, 'notes-value')
    const printed: string[] = []
    for (const body of [Buffer.from([1, 2, 3]), 'AQID']) {
      const bytes = Buffer.from(await serializer.serialize({ body }, ctx))
      const run = await cli(['inspect', bytes.toString('hex'), '--json'], { cwd: folder.path, env })
      printed.push(JSON.parse(run.stdout).value)
    }
    expect(printed).toEqual([{ body: { bytes: 'AQID' } }, { body: { string: 'AQID' } }])
  })

  it('reads a bare payload with its id from --headers (headers mode)', async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', {
      wireFormat: 'MESSAGE_HEADERS',
      useId: 'contentId',
    })
    const { payload } = await serializer.serializeMessage({ id: 5 }, ctx)
    const run = await cli(
      ['inspect', Buffer.from(payload).toString('hex'), '--headers', 'apicurio.value.contentId=7', '--json'],
      {
        cwd: folder.path,
        env,
      },
    )
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({
      framing: 'headers',
      idType: 'contentId',
      id: 7,
      value: { id: 5 },
    })
  })

  it("reads a bare payload's id from Confluent 8's __value_schema_id header, as the consumers do", async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', { wireFormat: 'MESSAGE_HEADERS' })
    const { payload } = await serializer.serializeMessage({ id: 5 }, ctx)
    const hex = Buffer.from(payload).toString('hex')
    // 0x00 and the 4-byte id, as Confluent 8 writes it; a decimal id is written so too.
    const human = await cli(['inspect', hex, '--headers', '__value_schema_id=0x0000000028'], {
      cwd: folder.path,
      env,
    })
    expect(human).toEqual({
      code: 0,
      stdout: [
        'framing:  headers mode (__value_schema_id)',
        'headers:  __value_schema_id=40',
        'id:       globalId 40',
        'payload:  1 byte',
        'artifact: default/orders-value version 1',
        'format:   AVRO',
        'value:    {',
        '            "id": 5',
        '          }',
        '',
      ].join('\n'),
      stderr: '',
    })
    const machine = await cli(['inspect', hex, '--headers', '__value_schema_id=40', '--json'], {
      cwd: folder.path,
      env,
    })
    expect(machine).toEqual({
      code: 0,
      stdout:
        '{"framing":"headers","header":"__value_schema_id","idHeaders":[{"name":"__value_schema_id","value":"40"}],"idType":"globalId","id":40,"payloadBytes":1,"format":"AVRO","artifacts":[{"groupId":"default","artifactId":"orders-value","version":"1","artifactType":"AVRO"}],"value":{"id":5}}\n',
      stderr: '',
    })
  })

  it("refuses an apicurio.value.globalId header repeated with different ids with the deserializers' DeserializationError (exit 1); the same id twice is read as one", async () => {
    // The same schema under another artifact: another globalId that decodes the payload too.
    const copy = await admin.registerSchema('orders-copy-value', ORDER_V1, { artifactType: 'AVRO' })
    expect(copy.globalId).not.toBe(40)
    const serializer = new AvroSerializer(admin, 'orders-value', { wireFormat: 'MESSAGE_HEADERS' })
    const hex = Buffer.from((await serializer.serializeMessage({ id: 5 }, ctx)).payload).toString('hex')
    const headers = ['apicurio.value.globalId=40', `apicurio.value.globalId=${copy.globalId}`]
    const run = await cli(['inspect', hex, ...headers.flatMap((header) => ['--headers', header])], {
      cwd: folder.path,
      env,
    })
    const other = Number(copy.globalId).toString(16).padStart(16, '0')
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: `x-serde: A message of topic 'inspect' carries the header apicurio.value.globalId 2 times with different ids (0x0000000000000028, 0x${other}): which schema wrote its value cannot be told\n`,
    })
    const io = {
      stdout: () => {},
      stderr: () => {},
      env,
      cwd: folder.path,
      readStdin: async () => Buffer.alloc(0),
    }
    const thrown = await inspect(hex, { headers }, io).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(DeserializationError)
    expect(thrown).toMatchObject({ name: 'DeserializationError', code: 'DESERIALIZATION' })
    const same = await cli(
      [
        'inspect',
        hex,
        '--headers',
        'apicurio.value.globalId=40',
        '--headers',
        'apicurio.value.globalId=40',
        '--json',
      ],
      { cwd: folder.path, env },
    )
    expect([same.code, JSON.parse(same.stdout)]).toEqual([
      0,
      expect.objectContaining({ header: 'apicurio.value.globalId', id: 40, value: { id: 5 } }),
    ])
  })

  it("reads an 8-byte frame with --id-size 8 or auto; read with the default, the deserializers' error names idSize 8 (exit 1)", async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', { idSize: 8 })
    const bytes = Buffer.from(await serializer.serialize({ id: 5 }, ctx))
    expect(bytes.subarray(0, 9).toString('hex')).toBe('000000000000000028')
    for (const size of ['8', 'auto']) {
      const run = await cli(['inspect', bytes.toString('hex'), '--id-size', size], { cwd: folder.path, env })
      expect(run.code).toBe(0)
      expect(run.stdout.split('\n').slice(0, 4)).toEqual([
        'framing:  framed (0x00 + 8-byte id)',
        'magic:    0x00',
        'id:       globalId 40',
        'payload:  1 byte',
      ])
    }
    const machine = await cli(['inspect', bytes.toString('hex'), '--id-size', 'auto', '--json'], {
      cwd: folder.path,
      env,
    })
    expect(JSON.parse(machine.stdout)).toMatchObject({
      framing: 'framed',
      idSize: 8,
      id: 40,
      value: { id: 5 },
    })
    const refused = await cli(['inspect', bytes.toString('hex')], { cwd: folder.path, env })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      "x-serde: Cannot read the frame: its 4-byte schema id is 0, which no registry assigns. The bytes look like a frame with an 8-byte id (Apicurio 2.x's default, 3.x's Legacy8ByteIdHandler): 00 0000000000000028, id 40 as 8 bytes; read this topic with idSize: 8, or idSize: 'auto' when it holds both widths\n",
    )
    const bad = await cli(['inspect', bytes.toString('hex'), '--id-size', '16'], { cwd: folder.path, env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("'16' is invalid")
  })

  it('says when a frame read by globalId carries a contentId, naming --use-id contentId (exit 1)', async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', { useId: 'contentId' })
    const bytes = Buffer.from(await serializer.serialize({ id: 5 }, ctx))
    expect(bytes.subarray(0, 5).toString('hex')).toBe('0000000007')
    const run = await cli(['inspect', bytes.toString('hex')], { cwd: folder.path, env })
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'x-serde: Schema not found: no globalId 7, but a contentId 7 exists: the producer writes contentIds, as ' +
        'Java 3.x does by default: pass --use-id contentId\n',
    })
    const read = await cli(['inspect', bytes.toString('hex'), '--use-id', 'contentId', '--json'], {
      cwd: folder.path,
      env,
    })
    expect([read.code, JSON.parse(read.stdout).value]).toEqual([0, { id: 5 }])
  })

  it("reads a frame in Avro's JSON encoding with --encoding json or auto; read as binary, the error says it looks like JSON", async () => {
    const serializer = new AvroSerializer(admin, 'orders-value', { avro: { encoding: 'json' } })
    const bytes = Buffer.from(await serializer.serialize({ id: 2n ** 60n }, ctx))
    expect(bytes.subarray(5).toString()).toBe('{"id":1152921504606846976}')
    for (const encoding of ['json', 'auto']) {
      const run = await cli(['inspect', bytes.toString('hex'), '--encoding', encoding, '--json'], {
        cwd: folder.path,
        env,
      })
      expect([run.code, run.stdout]).toEqual([
        0,
        expect.stringContaining(',"value":{"id":1152921504606846976}}\n'),
      ])
    }
    const binary = await cli(['inspect', bytes.toString('hex')], { cwd: folder.path, env })
    expect(binary).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'x-serde: Cannot decode the Avro payload of globalId 40: Invalid Avro data for schema shop.Order: ' +
        '25 trailing bytes after a complete value (it ends at offset 6 of 31); the payload looks like JSON text: ' +
        "Avro's JSON encoding? pass --encoding json or auto\n",
    })
    const bad = await cli(['inspect', bytes.toString('hex'), '--encoding', 'xml'], { cwd: folder.path, env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain("'xml' is invalid")
  })

  it('decodes JSON Schema and Protobuf frames (both Protobuf framings)', async () => {
    const json = new JsonSchemaSerializer(admin, 'payments-value', {
      autoRegister: true,
      schema: { type: 'object', properties: { cents: { type: 'integer' } } },
    })
    const jsonFrame = Buffer.from(await json.serialize({ cents: 9007199254740993n }, ctx))
    const jsonRun = await cli(['inspect', jsonFrame.toString('hex'), '--json'], { cwd: folder.path, env })
    expect(jsonRun.stdout).toContain('"format":"JSON"')
    expect(jsonRun.stdout).toContain('"value":{"cents":9007199254740993}')
    const proto =
      'syntax = "proto3";\npackage shop;\nmessage Line { string sku = 1; int64 qty = 2; bytes tag = 3; }\n'
    for (const framing of ['apicurio', 'confluent'] as const) {
      const serializer = new ProtobufSerializer(admin, 'lines-value', {
        autoRegister: true,
        schema: proto,
        framing,
      })
      const frame = Buffer.from(
        await serializer.serialize({ sku: 'a', qty: 3, tag: Buffer.from([1, 2]) }, ctx),
      )
      const run = await cli(['inspect', frame.toString('hex'), '--framing', framing, '--json'], {
        cwd: folder.path,
        env,
      })
      expect(run.code).toBe(0)
      expect(JSON.parse(run.stdout)).toMatchObject({
        format: 'PROTOBUF',
        value: { sku: 'a', qty: 3, tag: 'AQI=' },
      })
    }
  })

  it('falls back to the id lookup where /search/versions lists nothing: the format from its answer or the text', async () => {
    const object = { type: 'object', properties: { n: { type: 'integer' } } }
    const byContent = new JsonSchemaSerializer(admin, 'unlisted-value', {
      autoRegister: true,
      schema: object,
      useId: 'contentId',
    })
    const contentFrame = Buffer.from(await byContent.serialize({ n: 1 }, ctx))
    // `{"type":"string"}` reads as Avro and as JSON Schema: only the registry can say which.
    const text = new JsonSchemaSerializer(admin, 'unlisted-text', {
      autoRegister: true,
      schema: { type: 'string' },
    })
    const textFrame = Buffer.from(await text.serialize('hi', ctx))
    const textByContent = new JsonSchemaSerializer(admin, 'unlisted-text', { useId: 'contentId' })
    const textContentFrame = Buffer.from(await textByContent.serialize('hi', ctx))
    const empty = registry.inject({
      path: '/search/versions',
      status: 200,
      body: { count: 0, versions: [] },
      times: 3,
    })
    const run = (frame: Buffer, ...flags: string[]) =>
      cli(['inspect', frame.toString('hex'), ...flags], { cwd: folder.path, env })
    const fromText = await run(contentFrame, '--use-id', 'contentId')
    const fromLookup = await run(textFrame)
    const ambiguous = await run(textContentFrame, '--use-id', 'contentId')
    empty.remove()
    expect([fromText.code, fromText.stderr]).toEqual([0, ''])
    expect(fromText.stdout).toContain('artifact: (the registry names none for this id)\nformat:   JSON\n')
    expect(fromText.stdout).toContain('"n": 1')
    expect([fromLookup.code, fromLookup.stderr]).toEqual([0, ''])
    expect(fromLookup.stdout).toContain('format:   JSON\nvalue:    "hi"\n')
    expect(ambiguous).toEqual({
      code: 2,
      stdout: '',
      stderr: `x-serde: The registry does not say which format contentId ${textContentFrame.readUInt32BE(1)} is, and its text does not tell (it reads as Avro and as JSON Schema, or as neither): inspect the message by its globalId\n`,
    })
  })

  it("refuses input that is not a frame with the deserializers' error (exit 1) naming what came", async () => {
    const short = await cli(['inspect', '0102'], { cwd: folder.path, env })
    expect(short).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'x-serde: Cannot decode a frame: expected at least 5 bytes (magic byte 0x00 + 4-byte schema id), got 2\n',
    })
    const text = await cli(['inspect', Buffer.from('{"id":1}').toString('hex')], { cwd: folder.path, env })
    expect([text.code, text.stderr]).toEqual([
      1,
      'x-serde: Cannot decode a frame: expected magic byte 0x00, got 0x7b (in 8 bytes); the data is not in the framed wire format (written as JSON/text, or with WireFormat.MESSAGE_HEADERS?)\n',
    ])
    const unknown = await cli(['inspect', '00000f423f02'], { cwd: folder.path, env })
    expect([unknown.code, unknown.stderr]).toEqual([
      1,
      `x-serde: Schema not found: globalId 999999 (the registry at ${registry.url} answered HTTP 404 (No version with global ID '999999' found.))\n`,
    ])
  })
})

describe('pull', () => {
  it('writes the artifacts with their references and a lockfile; --check passes until the registry moves', async () => {
    const address = await admin.registerSchema('shop.Address', {
      type: 'record',
      name: 'Address',
      namespace: 'shop',
      fields: [{ name: 'city', type: 'string' }],
    })
    await admin.registerSchema(
      'customers-value',
      {
        type: 'record',
        name: 'Customer',
        namespace: 'shop',
        fields: [{ name: 'home', type: 'shop.Address' }],
      },
      { references: [{ name: 'shop.Address', artifactId: 'shop.Address', version: address.version! }] },
    )
    writeFileSync(
      join(folder.path, 'x-serde.config.json'),
      JSON.stringify({
        outDir: 'pulled',
        artifacts: [{ artifactId: 'customers-value' }, { artifactId: 'orders-value' }],
      }),
    )
    const rule = await fetch(`${registry.url}/groups/default/artifacts/shop.Address/rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ruleType: 'COMPATIBILITY', config: 'FULL' }),
    })
    expect(rule.status).toBe(204)
    const pulled = await cli(['pull'], { cwd: folder.path, env })
    expect(pulled.code).toBe(0)
    expect(pulled.stderr).toBe('pulling default/customers-value (1/2)\npulling default/orders-value (2/2)\n')
    expect(pulled.stdout).toContain('pulled/default/shop.Address.avsc  default/shop.Address version 1')
    expect(pulled.stdout).toContain('wrote x-serde.lock.json (3 artifact versions)')
    const lock = JSON.parse(readFileSync(join(folder.path, 'x-serde.lock.json'), 'utf8'))
    expect(lock.artifacts.map((v: { artifactId: string }) => v.artifactId)).toEqual([
      'customers-value',
      'orders-value',
      'shop.Address',
    ])
    expect(lock.artifacts[0]).toMatchObject({
      references: [{ name: 'shop.Address', groupId: 'default', artifactId: 'shop.Address', version: '1' }],
    })
    expect(lock.artifacts[1].sha256).toMatch(/^[0-9a-f]{64}$/)
    // The COMPATIBILITY rule in force is recorded where one is set (check --offline takes it as its level).
    expect(lock.artifacts.map((v: { compatibility?: string }) => v.compatibility)).toEqual([
      undefined,
      undefined,
      'FULL',
    ])
    expect(readFileSync(join(folder.path, 'pulled/default/orders-value.avsc'), 'utf8')).toBe(
      JSON.stringify(ORDER_V1),
    )
    const unchanged = await cli(['pull', '--check'], { cwd: folder.path, env })
    expect([unchanged.code, unchanged.stdout]).toEqual([0, '3 artifact versions match x-serde.lock.json\n'])
    await admin.registerSchema('orders-value', ORDER_V2, { ifExists: 'CREATE_VERSION' })
    const moved = await cli(['pull', '--check'], { cwd: folder.path, env })
    expect(moved.code).toBe(1)
    expect(moved.stdout).toMatch(
      /^moved: {2}default\/orders-value version 1 \(globalId 40\) → version 2 \(globalId \d+\)\n$/,
    )
  })

  it('pulls a chain of references as the deserializers load it, each version once, dependencies first', async () => {
    const country = await admin.registerSchema(
      'geo.Country',
      { type: 'enum', name: 'Country', namespace: 'geo', symbols: ['FR', 'DE'] },
      { artifactType: 'AVRO' },
    )
    const city = await admin.registerSchema(
      'geo.City',
      { type: 'record', name: 'City', namespace: 'geo', fields: [{ name: 'in', type: 'geo.Country' }] },
      {
        artifactType: 'AVRO',
        references: [{ name: 'geo.Country', artifactId: 'geo.Country', version: country.version! }],
      },
    )
    await admin.registerSchema(
      'places-value',
      {
        type: 'record',
        name: 'Place',
        namespace: 'geo',
        fields: [
          { name: 'home', type: 'geo.City' },
          { name: 'born', type: 'geo.Country' },
        ],
      },
      {
        artifactType: 'AVRO',
        references: [
          { name: 'geo.City', artifactId: 'geo.City', version: city.version! },
          { name: 'geo.Country', artifactId: 'geo.Country', version: country.version! },
        ],
      },
    )
    const run = await cli(
      ['pull', '--artifact', 'places-value', '--out-dir', 'chain', '--lockfile', 'chain.lock.json'],
      { cwd: folder.path, env },
    )
    expect([run.code, run.stderr]).toEqual([0, 'pulling default/places-value (1/1)\n'])
    expect(run.stdout.split('\n').map((line) => line.split('  ')[0])).toEqual([
      'chain/default/places-value.avsc',
      'chain/default/geo.Country.avsc',
      'chain/default/geo.City.avsc',
      'wrote chain.lock.json (3 artifact versions)',
      '',
    ])
    const lock = JSON.parse(readFileSync(join(folder.path, 'chain.lock.json'), 'utf8'))
    expect(
      lock.artifacts.map((v: { artifactId: string; references: { name: string }[] }) => [
        v.artifactId,
        v.references.map((r) => r.name),
      ]),
    ).toEqual([
      ['geo.City', ['geo.Country']],
      ['geo.Country', []],
      ['places-value', ['geo.City', 'geo.Country']],
    ])
    expect(JSON.parse(readFileSync(join(folder.path, 'chain/default/geo.Country.avsc'), 'utf8'))).toEqual({
      type: 'enum',
      name: 'Country',
      namespace: 'geo',
      symbols: ['FR', 'DE'],
    })
  })
  it('--snapshot writes the versions and what they reference into one snapshot a client reads with no request', async () => {
    const run = await cli(['pull', '--artifact', 'places-value', '--snapshot', 'places.snapshot.json'], {
      cwd: folder.path,
      env,
    })
    expect([run.code, run.stderr]).toEqual([0, ''])
    expect(run.stdout.split('\n').map((line) => line.split(' (')[0])).toEqual([
      'default/geo.City version 1',
      'default/geo.Country version 1',
      'default/places-value version 1',
      'wrote places.snapshot.json',
      '',
    ])
    const snapshot = await readSnapshot(join(folder.path, 'places.snapshot.json'))
    expect(snapshot.versions.map((v) => [v.artifactId, v.latest, v.references.map((r) => r.name)])).toEqual([
      ['geo.City', false, ['geo.Country']],
      ['geo.Country', false, []],
      ['places-value', true, ['geo.City', 'geo.Country']],
    ])
    registry.clearRequests()
    await using offline = new RegistryClient({
      url: registry.url,
      groupId: 'default',
      snapshot,
      offline: true,
    })
    const place = await offline.getSchema('places-value')
    const deserializer = new AvroDeserializer(offline)
    const serializer = new AvroSerializer(admin, { artifactId: 'places-value' })
    const bytes = await serializer.serialize({ home: { in: 'DE' }, born: 'FR' }, ctx)
    registry.clearRequests()
    expect(await deserializer.deserialize(bytes, ctx)).toEqual({ home: { in: 'DE' }, born: 'FR' })
    expect(place.globalId).toBe(Number(snapshot.versions[2]!.globalId))
    expect(registry.requests).toEqual([])
    const both = await cli(['pull', '--artifact', 'places-value', '--snapshot', 's.json', '--check'], {
      cwd: folder.path,
      env,
    })
    expect([both.code, both.stderr]).toEqual([2, 'x-serde: give --snapshot or --check, not both\n'])
  })
})

describe('register with files that use each other', () => {
  it('registers what a file imports, refers to or takes a type from first, and links it as a reference', async () => {
    const files: Record<string, unknown> = {
      'proto/shop/order.proto':
        'syntax = "proto3";\npackage shop;\nimport "shop/money.proto";\nmessage Order { int64 id = 1; shop.Money total = 2; }\n',
      'proto/shop/money.proto':
        'syntax = "proto3";\npackage shop;\nmessage Money { string currency = 1; int64 units = 2; }\n',
      'json/purchase.json': JSON.stringify({
        type: 'object',
        properties: { ship: { $ref: 'address.json#' } },
      }),
      'json/address.json': JSON.stringify({ type: 'object', properties: { city: { type: 'string' } } }),
      'avro/line.avsc': JSON.stringify({
        type: 'record',
        name: 'Line',
        namespace: 'shop',
        fields: [{ name: 'price', type: 'Price' }],
      }),
      'avro/price.avsc': JSON.stringify({
        type: 'record',
        name: 'Price',
        namespace: 'shop',
        fields: [{ name: 'cents', type: 'long' }],
      }),
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(folder.path, dirname(path)), { recursive: true })
      writeFileSync(join(folder.path, path), text as string)
    }
    const run = await cli(['register', ...Object.keys(files)], { cwd: folder.path, env })
    expect([run.code, run.stderr]).toEqual([0, ''])
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => line.replace(/ \(globalId \d+, contentId \d+/, ' ('))
    expect(lines).toEqual([
      'proto/shop/money.proto → default/money version 1 ()',
      'proto/shop/order.proto → default/order version 1 (, referencing shop/money.proto)',
      'json/address.json → default/address version 1 ()',
      'json/purchase.json → default/purchase version 1 (, referencing address.json)',
      'avro/price.avsc → default/price version 1 ()',
      'avro/line.avsc → default/line version 1 (, referencing shop.Price)',
    ])
    const order = await admin.getSchemaVersion('order', '1')
    expect(await admin.getReferencesByGlobalId(order.globalId!)).toEqual([
      { artifactId: 'money', version: '1', name: 'shop/money.proto' },
    ])
    const line = await admin.getSchema('line')
    expect(await admin.getReferencesByGlobalId(line.globalId!)).toEqual([
      { artifactId: 'price', version: '1', name: 'shop.Price' },
    ])
    // The linked artifacts are usable: a reader resolves the import through the reference.
    const writer = new ProtobufSerializer(admin, 'order')
    const frame = await writer.serialize({ id: 1, total: { currency: 'EUR', units: 5 } }, ctx)
    expect(await new ProtobufDeserializer(admin).deserialize(frame, ctx)).toEqual({
      id: 1,
      total: { currency: 'EUR', units: 5 },
    })
  })

  it('refuses files that use each other in a cycle, naming it', async () => {
    writeFileSync(join(folder.path, 'a.json'), JSON.stringify({ $ref: 'b.json' }))
    writeFileSync(join(folder.path, 'b.json'), JSON.stringify({ $ref: 'a.json' }))
    const run = await cli(['register', 'a.json', 'b.json'], { cwd: folder.path, env })
    expect([run.code, run.stderr]).toEqual([
      2,
      'x-serde: The schema files use each other in a cycle: a.json → b.json → a.json\n',
    ])
  })
})

describe('codegen of a .proto that imports', () => {
  const expected = [
    'export interface Order {',
    '  id: number | bigint',
    '  total: Money | null',
    '}',
    '',
    'export interface Money {',
    '  currency: string',
    '  units: number | bigint',
    '}',
  ].join('\n')

  it('finds the import among the files given or in --proto-path, and declares each type once by its plain name', async () => {
    const given = await cli(['codegen', 'proto/shop/order.proto', 'proto/shop/money.proto'], {
      cwd: folder.path,
      env,
    })
    expect([given.code, given.stderr]).toEqual([0, ''])
    expect(given.stdout).toContain(expected)
    expect(given.stdout.match(/export interface Money/g)).toHaveLength(1)
    const viaPath = await cli(['codegen', 'proto/shop/order.proto', '--proto-path', 'proto'], {
      cwd: folder.path,
      env,
    })
    expect(viaPath.stdout).toContain(expected)
    const alone = await cli(['codegen', 'proto/shop/order.proto'], { cwd: folder.path, env })
    expect([alone.code, alone.stdout, alone.stderr]).toEqual([
      2,
      '',
      "x-serde: Cannot find a .proto import: proto/shop/order.proto imports 'shop/money.proto', which is found " +
        'neither beside it (give the file, or its folder with --proto-path)\n',
    ])
  })

  it('finds an import beside the importing file as protoc does, then in each --proto-path, and names one it cannot find', async () => {
    const files: Record<string, string> = {
      'beside/order.proto':
        'syntax = "proto3";\nimport "money.proto";\nmessage Order { int64 id = 1; Money total = 2; }\n',
      'beside/money.proto':
        'syntax = "proto3";\nimport "units/unit.proto";\nmessage Money { string currency = 1; Unit unit = 2; }\n',
      'beside/units/unit.proto': 'syntax = "proto3";\nmessage Unit { int64 units = 1; }\n',
      'lib/rate.proto': 'syntax = "proto3";\nmessage Rate { double value = 1; }\n',
      'quote.proto': 'syntax = "proto3";\nimport "rate.proto";\nmessage Quote { Rate rate = 1; }\n',
    }
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(folder.path, dirname(path)), { recursive: true })
      writeFileSync(join(folder.path, path), text)
    }
    const beside = await cli(['codegen', 'beside/order.proto'], { cwd: folder.path, env })
    expect([beside.code, beside.stderr]).toEqual([0, ''])
    expect(beside.stdout).toContain(
      'export interface Order {\n  id: number | bigint\n  total: Money | null\n}',
    )
    expect(beside.stdout).toContain('export interface Money {\n  currency: string\n  unit: Unit | null\n}')
    expect(beside.stdout).toContain('export interface Unit {\n  units: number | bigint\n}')
    expect(beside.stdout).not.toContain('unknown')
    const viaPath = await cli(['codegen', 'quote.proto', '--proto-path', 'missing', 'lib'], {
      cwd: folder.path,
      env,
    })
    expect([viaPath.code, viaPath.stderr]).toEqual([0, ''])
    expect(viaPath.stdout).toContain('export interface Quote {\n  rate: Rate | null\n}')
    const notFound = await cli(['codegen', 'quote.proto', '--proto-path', 'beside'], {
      cwd: folder.path,
      env,
    })
    expect([notFound.code, notFound.stdout, notFound.stderr]).toEqual([
      2,
      '',
      "x-serde: Cannot find a .proto import: quote.proto imports 'rate.proto', which is found neither beside it " +
        'nor in --proto-path beside (give the file, or its folder with --proto-path)\n',
    ])
  })

  it("follows an artifact's references in the registry", async () => {
    const fromRegistry = await cli(['codegen', '--artifact', 'order', '--version', '1'], {
      cwd: folder.path,
      env,
    })
    expect([fromRegistry.code, fromRegistry.stderr]).toEqual([0, ''])
    expect(fromRegistry.stdout).toContain(expected)
  })
})

describe('check', () => {
  it('passes a compatible change, fails an incompatible one with the rule violations (exit 1)', async () => {
    await fetch(`${registry.url}/groups/default/artifacts/orders-value/rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ruleType: 'COMPATIBILITY', config: 'BACKWARD' }),
    })
    const ok = await cli(['check', 'order-v2.avsc', '--artifact', 'orders-value'], { cwd: folder.path, env })
    expect([ok.code, ok.stdout]).toEqual([0, 'ok       order-v2.avsc → default/orders-value as version 3\n'])
    const bad = await cli(['check', 'order-bad.avsc', '--artifact', 'orders-value'], {
      cwd: folder.path,
      env,
    })
    expect(bad.code).toBe(1)
    expect(bad.stdout).toBe(
      [
        'refused  order-bad.avsc → default/orders-value: Incompatible artifact: orders-value [AVRO], num of incompatible diffs: {1}, list of diff types: [qty at /fields/1]',
        '         - qty at /fields/1',
        '',
      ].join('\n'),
    )
    expect(bad.stderr).toBe('x-serde: 1 of 1 schemas would be refused\n')
    const fresh = await cli(['check', 'order.avsc', '--artifact', 'brand-new'], { cwd: folder.path, env })
    expect([fresh.code, fresh.stdout]).toEqual([
      0,
      'ok       order.avsc → default/brand-new as a new artifact\n',
    ])
    // Nothing was stored by the dry runs.
    expect((await admin.getSchema('orders-value')).version).toBe('2')
  })
})

describe('check against a rule the registry cannot evaluate', () => {
  it("quotes the registry's own report and exits 1 (refused), not 3 (unreachable)", async () => {
    const schema = { type: 'object', properties: { cents: { type: 'integer' } } }
    writeFileSync(join(folder.path, 'payment.json'), JSON.stringify(schema))
    const registered = await cli(['register', 'payment.json', '--artifact', 'payments-value'], {
      cwd: folder.path,
      env,
    })
    expect(registered.code).toBe(0)
    await fetch(`${registry.url}/groups/default/artifacts/payments-value/rules`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ ruleType: 'COMPATIBILITY', config: 'LOOSE' }),
    })
    const checked = await cli(['check', 'payment.json', '--artifact', 'payments-value'], {
      cwd: folder.path,
      env,
    })
    // A level Apicurio does not know is stored, and answered with a 500 when the rule is applied.
    expect(checked).toEqual({
      code: 1,
      stdout:
        'refused  payment.json → default/payments-value: IllegalArgumentException: No enum constant io.apicurio.registry.rules.compatibility.CompatibilityLevel.LOOSE\n',
      stderr: 'x-serde: 1 of 1 schemas would be refused\n',
    })
  })
})

describe('a registry that refuses with a report of its own', () => {
  it('is quoted and exits 1; a 503 from an outage still means unreachable (exit 3)', async () => {
    const refused = registry.inject({
      path: /\/groups\/default\/artifacts\/orders-value\/versions\//,
      status: 500,
      body: { title: 'Internal error', detail: 'IllegalStateException: storage is read-only', status: 500 },
    })
    const pulled = await cli(
      ['pull', '--artifact', 'orders-value', '--out-dir', 'refused', '--lockfile', 'refused.lock.json'],
      { cwd: folder.path, env },
    )
    refused.remove()
    expect([pulled.code, pulled.stderr]).toEqual([
      1,
      `pulling default/orders-value (1/1)\nx-serde: The registry at ${registry.url} refused GET /groups/default/artifacts/orders-value/versions/branch=latest (HTTP 500): Internal error: IllegalStateException: storage is read-only\n`,
    ])
    const outage = registry.inject({ path: /\/groups\//, status: 503 })
    const down = await cli(
      ['pull', '--artifact', 'orders-value', '--out-dir', 'refused', '--lockfile', 'refused.lock.json'],
      { cwd: folder.path, env },
    )
    outage.remove()
    expect(down.code).toBe(3)
  })
})

describe('exit codes and errors', () => {
  it('0 for help with an example, 2 for usage errors, 3 for an unreachable registry; never a secret', async () => {
    const help = await cli(['check', '--help'], { cwd: folder.path, env })
    expect(help.code).toBe(0)
    expect(help.stdout).toContain('Example (a CI gate):')
    const usage = await cli(['register'], { cwd: folder.path, env })
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("missing required argument 'files'")
    const noRegistry = await cli(['pull', '--artifact', 'x'], { cwd: folder.path, env: {} })
    expect([noRegistry.code, noRegistry.stderr]).toEqual([
      2,
      'x-serde: No registry: pass --registry <url> or set REGISTRY_URL (the v3 API root, …/apis/registry/v3)\n',
    ])
    const secret = 'pa55-w0rd-never-shown'
    const down = await cli(['pull', '--artifact', 'x'], {
      cwd: folder.path,
      env: { REGISTRY_URL: `http://user:${secret}@127.0.0.1:9/apis/registry/v3` },
    })
    expect(down.code).toBe(3)
    expect(down.stderr).toMatch(
      /\nx-serde: Unable to reach the registry at http:\/\/127\.0\.0\.1:9\/apis\/registry\/v3/,
    )
    const verbose = await cli(['pull', '--artifact', 'x', '--verbose'], {
      cwd: folder.path,
      env: { REGISTRY_URL: `http://user:${secret}@127.0.0.1:9/apis/registry/v3` },
    })
    expect(verbose.stderr).toContain('RegistryConnectionError')
    expect(`${down.stdout}${down.stderr}${verbose.stdout}${verbose.stderr}`).not.toContain(secret)
  })
})
