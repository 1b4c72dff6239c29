import { SerializationContext } from '@x/wire-format'
import { describe, expect, it } from 'vitest'
import { MessageContract, type PreparedSerializer, PreparedWrites } from './index.js'

const refuse = () => Promise.reject(new Error('no lookups here'))
const contract = () =>
  new MessageContract<unknown, unknown>(
    { getSchemaByGlobalId: refuse, getSchemaByContentId: refuse },
    { preload: false },
  )

/** A framed serializer that counts its `prepare` calls and writes `[n]` for `{ n }`. */
function framed(): PreparedSerializer<{ n: number }> & { prepared: SerializationContext[] } {
  const prepared: SerializationContext[] = []
  return {
    prepared,
    wireFormat: 'FRAMED_PAYLOAD',
    prepare: async (ctx) => {
      prepared.push(ctx!)
    },
    serializeSync: (value) => Uint8Array.of(value.n),
    serializeMessageSync: (value) => ({ payload: Uint8Array.of(value.n), headers: {} }),
    serializeMessage: async (value) => ({ payload: Uint8Array.of(value.n), headers: {} }),
  }
}

describe('PreparedWrites', () => {
  it('says a field needs preparing only when it has a serializer and data, and prepares nothing else', async () => {
    const value = framed()
    const writes = new PreparedWrites(contract(), { value })
    expect(writes.needsPreparing('value', { n: 1 })).toBe(true)
    expect(writes.needsPreparing('value', null)).toBe(false)
    expect(writes.needsPreparing('value', undefined)).toBe(false)
    expect(writes.needsPreparing('key', 'k')).toBe(false)
    const message = {}
    expect(await writes.prepare('t', 'key', 'k', message)).toBeUndefined()
    expect(await writes.prepare('t', 'value', null, message)).toBeUndefined()
    expect(value.prepared).toEqual([])
    expect(await writes.prepare('t', 'value', { n: 1 }, message)).toBeUndefined()
    expect(value.prepared).toEqual([new SerializationContext('t', 'value')])
    expect(writes.writeNow('t', 'value', { n: 7 }, message)).toEqual(Buffer.of(7))
    expect(writes.writeNow('t', 'key', 'k', message)).toEqual(Buffer.from('k'))
  })

  it('rejects, never throws, when the serializer’s prepare throws at once', async () => {
    const value = framed()
    value.prepare = () => {
      throw new RangeError('bad artifact')
    }
    const writes = new PreparedWrites(contract(), { value })
    const prepared = writes.prepare('t', 'value', { n: 1 }, {})
    await expect(prepared).rejects.toThrow(RangeError)
  })
})

/** A headers-mode serializer: writes `[n]` and the 8-byte globalId header of `id`. */
function headersMode(id: number): PreparedSerializer<{ n: number }> {
  const header = Buffer.alloc(8)
  header.writeBigInt64BE(BigInt(id))
  const written = (value: { n: number }) => ({
    payload: Uint8Array.of(value.n),
    headers: { 'apicurio.value.globalId': Uint8Array.from(header) },
  })
  return {
    wireFormat: 'MESSAGE_HEADERS',
    prepare: async () => {},
    serializeSync: (value) => Uint8Array.of(value.n),
    serializeMessageSync: written,
    serializeMessage: async (value) => written(value),
  }
}

/** Runs `prepareField` and says how many microtask turns it took to call back, and with what. */
async function prepared(
  writes: Pick<PreparedWrites<unknown>, 'prepareField'>,
  field: string,
  data: unknown,
  message: Parameters<PreparedWrites<unknown>['prepareField']>[2],
) {
  let error: Error | null | undefined
  let sync = false
  let returned = false
  writes.prepareField(field, data, message, (given) => {
    error = given
    sync = !returned
  })
  returned = true
  let turns = 0
  while (error === undefined && turns < 50) {
    await null
    turns++
  }
  return { error, sync, turns }
}

describe('PreparedWrites.prepareField', () => {
  it('calls back for a header, a key of a key type and no data at once, preparing nothing, and for a cold value later', async () => {
    const value = framed()
    const writes = new PreparedWrites(contract(), { value })
    const message = { topic: 't', headers: new Map() }
    const atOnce = { error: null, sync: true, turns: 0 }
    expect(await prepared(writes, 'headerKey', 'trace', message)).toEqual(atOnce)
    expect(await prepared(writes, 'key', 'k-1', message)).toEqual(atOnce)
    expect(await prepared(writes, 'value', null, message)).toEqual(atOnce)
    expect(value.prepared).toEqual([])
    const framedValue = await prepared(writes, 'value', { n: 1 }, message)
    expect(framedValue.error).toBeNull()
    expect(framedValue.sync).toBe(false)
    expect(framedValue.turns).toBeLessThanOrEqual(2)
    expect(value.prepared).toEqual([new SerializationContext('t', 'value')])
    expect(message.headers.size).toBe(0)
  })

  it('calls back for a value whose serializer is prepared at once, without preparing it again', async () => {
    const value = framed()
    const ready = new Set<string>()
    value.isPrepared = (ctx) => ready.has(ctx!.topic)
    const prepare = value.prepare
    value.prepare = async (ctx) => {
      await prepare(ctx)
      ready.add(ctx!.topic)
    }
    const writes = new PreparedWrites(contract(), { value })
    const message = { topic: 't', headers: new Map() }
    expect((await prepared(writes, 'value', { n: 1 }, message)).sync).toBe(false)
    expect(await prepared(writes, 'value', { n: 2 }, message)).toEqual({ error: null, sync: true, turns: 0 })
    expect(value.prepared).toEqual([new SerializationContext('t', 'value')])
    // Another topic is not prepared yet.
    expect((await prepared(writes, 'value', { n: 3 }, { topic: 'u' })).sync).toBe(false)
  })

  it('writes a prepared headers-mode value at once and adds its id header; its error comes in a microtask', async () => {
    const value = headersMode(9)
    value.isPrepared = () => true
    const writes = new PreparedWrites(contract(), { value })
    const message = { topic: 't', headers: new Map<unknown, unknown>() }
    expect(await prepared(writes, 'value', { n: 4 }, message)).toEqual({ error: null, sync: true, turns: 0 })
    expect(message.headers.get('apicurio.value.globalId')).toEqual(Buffer.from([0, 0, 0, 0, 0, 0, 0, 9]))
    expect(writes.writeNow('t', 'value', { n: 5 }, message)).toEqual(Buffer.of(4))
    value.serializeMessageSync = () => {
      throw new RangeError('not a record')
    }
    const refused = await prepared(writes, 'value', { n: 6 }, { topic: 't' })
    expect([refused.sync, refused.turns, refused.error?.message]).toEqual([false, 1, 'not a record'])
  })

  it('nests at most 32 callbacks at once: a client that calls the next hook from inside one is deferred past that', async () => {
    const writes = new PreparedWrites(contract(), { value: framed() })
    let depth = 0
    let deepest = 0
    await new Promise<void>((resolve) => {
      const next = (index: number): void => {
        if (index === 1000) {
          resolve()
          return
        }
        depth++
        deepest = Math.max(deepest, depth)
        writes.prepareField('headerKey', 'trace', { topic: 't' }, () => next(index + 1))
        depth--
      }
      next(0)
    })
    expect(deepest).toBe(33)
  })

  it('adds the id headers of headers mode to a Map of headers, or to a copy of a record, and writes that payload', async () => {
    const writes = new PreparedWrites(contract(), { value: headersMode(9) })
    const map = { topic: 't', headers: new Map<unknown, unknown>([['trace', 'x']]) }
    expect((await prepared(writes, 'value', { n: 4 }, map)).error).toBeNull()
    expect([...map.headers.keys()]).toEqual(['trace', 'apicurio.value.globalId'])
    expect(map.headers.get('apicurio.value.globalId')).toEqual(Buffer.from([0, 0, 0, 0, 0, 0, 0, 9]))
    expect(writes.writeNow('t', 'value', { n: 5 }, map)).toEqual(Buffer.of(4))
    const given = { trace: 'y' }
    const record: { topic: string; headers?: Record<string, unknown> } = { topic: 't', headers: given }
    expect((await prepared(writes, 'value', { n: 6 }, record)).error).toBeNull()
    expect(record.headers).toEqual({
      trace: 'y',
      'apicurio.value.globalId': Buffer.from([0, 0, 0, 0, 0, 0, 0, 9]),
    })
    expect(given).toEqual({ trace: 'y' })
  })

  it('calls back with the error when preparing fails or the id headers cannot be added, a thrown non-Error wrapped', async () => {
    const failing = framed()
    failing.prepare = () => Promise.reject('registry said no')
    const refused = await prepared(
      new PreparedWrites(contract(), { value: failing }),
      'value',
      { n: 1 },
      { topic: 't' },
    )
    expect(refused.error).toBeInstanceOf(Error)
    expect(refused.error?.message).toBe('registry said no')
    expect(refused.sync).toBe(false)
    const headers = new Map()
    headers.set = () => {
      throw new TypeError('frozen headers')
    }
    const frozen = await prepared(
      new PreparedWrites(contract(), { value: headersMode(9) }),
      'value',
      { n: 1 },
      { topic: 't', headers },
    )
    expect(frozen.error).toBeInstanceOf(TypeError)
    expect(frozen.error?.message).toBe('frozen headers')
    const none = await prepared(
      new PreparedWrites(contract(), { value: framed() }),
      'value',
      { n: 1 },
      null as never,
    )
    expect(none.error).toBeInstanceOf(TypeError)
  })
})

describe('PreparedWrites.schemaIdOf', () => {
  it('reads the id of a frame, or of a field it wrote in headers mode; none for a message it did not write', async () => {
    const writes = new PreparedWrites(contract(), { value: headersMode(9) })
    expect(writes.schemaIdOf(Buffer.from([0, 0, 0, 0, 42, 1]), 'key')).toBe(42)
    expect(writes.schemaIdOf(Buffer.from([1, 2]), 'value')).toBeUndefined()
    const message = { topic: 't', headers: new Map() }
    expect(writes.schemaIdOf(message, 'value')).toBeUndefined()
    await prepared(writes, 'value', { n: 3 }, message)
    expect(writes.schemaIdOf(message, 'value')).toBe(9)
    expect(writes.schemaIdOf(message, 'key')).toBeUndefined()
  })
})
