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
