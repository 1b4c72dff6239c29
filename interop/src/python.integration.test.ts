import { AvroDeserializer, AvroSerializer } from '@x/avro-serde'
import { decodeFrame, MessageField, SerializationContext } from '@x/wire-format'
import { beforeAll, describe, expect, inject, test } from 'vitest'
import { canonicalEvent, eventSchema, expectedEvents, uniqueName } from './fixtures.js'
import { ensureVenv, pythonConsume, pythonProduce } from './python-harness.js'
import { registryClients } from './registry-clients.js'
import { listVersions } from './registry-http.js'

// The Python reference library, apicurio-serdes 0.5.0 (interop/python, in .it/venv), and @x/avro-serde exchange
// framed bytes through one real Apicurio Registry 3. No Kafka: the frames are the whole message.

const COUNT = 4
const registryUrl = inject('registryUrl')

const client = registryClients(registryUrl)

beforeAll(() => ensureVenv(), 600_000)

const ctx = new SerializationContext('interop', MessageField.VALUE)

describe.each(['contentId', 'globalId'] as const)('with %s in the frame', (useId) => {
  test(`apicurio-serdes frames (use_id=${useId}) carry the id of its registration and decode exactly`, async () => {
    const group = uniqueName('interop-py')
    const artifactId = uniqueName('py-events')
    const frames = await pythonProduce(registryUrl, group, artifactId, useId, COUNT)
    const versions = await listVersions(registryUrl, group, artifactId)
    const deserializer = new AvroDeserializer(client(group), { useId })

    expect(versions).toHaveLength(1)
    const values = []
    for (const frame of frames) {
      expect(decodeFrame(frame).schemaId).toBe(versions[0]![useId])
      values.push(await deserializer.deserialize(frame, ctx))
    }
    expect(values).toEqual(expectedEvents(COUNT))
  })

  test(`our frames (useId ${useId}) decode exactly with apicurio-serdes (use_id=${useId})`, async () => {
    const group = uniqueName('interop-py')
    const artifactId = uniqueName('ts-events')
    const serializer = new AvroSerializer(client(group), artifactId, {
      useId,
      autoRegister: true,
      schema: eventSchema,
    })

    const frames = []
    for (const event of expectedEvents(COUNT)) frames.push(await serializer.serialize(event, ctx))

    expect(await pythonConsume(registryUrl, group, useId, frames)).toEqual(
      expectedEvents(COUNT).map(canonicalEvent),
    )
  })
})

describe('registering the same schema from both libraries', () => {
  test('spaced JSON from apicurio-serdes and compact JSON from us become two versions, each side reusing its own', async () => {
    const group = uniqueName('interop-py')
    const artifactId = uniqueName('shared-events')

    const [pythonFrame] = await pythonProduce(registryUrl, group, artifactId, 'contentId', 1)
    const ours = await client(group).registerSchema(artifactId, eventSchema)
    const [pythonAgain] = await pythonProduce(registryUrl, group, artifactId, 'contentId', 1)
    const versions = await listVersions(registryUrl, group, artifactId)

    expect(versions.map((v) => v.version)).toEqual(['1', '2'])
    expect(versions[0]!.contentId).not.toBe(versions[1]!.contentId)
    expect(decodeFrame(pythonFrame!).schemaId).toBe(versions[0]!.contentId)
    expect(decodeFrame(pythonAgain!).schemaId).toBe(versions[0]!.contentId)
    expect({ version: ours.version, contentId: ours.contentId }).toEqual({
      version: '2',
      contentId: versions[1]!.contentId,
    })
  })

  test('with canonical: true our registration finds the version apicurio-serdes registered', async () => {
    const group = uniqueName('interop-py')
    const artifactId = uniqueName('shared-events')

    const [pythonFrame] = await pythonProduce(registryUrl, group, artifactId, 'contentId', 1)
    const ours = await client(group).registerSchema(artifactId, eventSchema, { canonical: true })
    const versions = await listVersions(registryUrl, group, artifactId)

    expect(versions.map((v) => v.version)).toEqual(['1'])
    expect({ version: ours.version, contentId: ours.contentId }).toEqual({
      version: '1',
      contentId: decodeFrame(pythonFrame!).schemaId,
    })
  })
})
