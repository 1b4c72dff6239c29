import { describe, expect, it } from 'vitest'
import { MessageContract, type MessageSerializer } from './index.js'

const refuse = () => Promise.reject(new Error('no lookups here'))
const client = { getSchemaByGlobalId: refuse, getSchemaByContentId: refuse }

/** A serializer writing `[tag, n]`, in headers mode adding `<field>-id: [tag]`; it records what it wrote, in order. */
function writer(
  tag: number,
  field: string,
  calls: string[],
  headersMode = false,
): MessageSerializer<{ n: number }> {
  return {
    serializeMessage: async (value) => {
      calls.push(`${field} ${value.n}`)
      return {
        payload: Uint8Array.of(tag, value.n),
        headers: headersMode ? { [`${field}-id`]: Uint8Array.of(tag) } : {},
      }
    },
  }
}

/** Microtask turns until `promise` settles, and what it resolved to. */
async function turns<T>(promise: Promise<T>): Promise<{ count: number; result: T }> {
  let settled = false
  const done = promise.finally(() => {
    settled = true
  })
  let count = 0
  while (!settled && count < 50) {
    await null
    count++
  }
  return { count, result: await done }
}

describe('MessageContract.encodeMessage', () => {
  it('writes a key of a key type at once, so a keyed message takes the turns of an unkeyed one; the headers are a copy', async () => {
    const calls: string[] = []
    const contract = new MessageContract<{ n: number }, never>(client, {
      serializer: writer(7, 'value', calls, true),
      preload: false,
    })
    const given = { trace: 't-1' }
    const plain = await turns(contract.encodeMessage('orders', { value: { n: 1 } }))
    const keyed = await turns(
      contract.encodeMessage('orders', { key: 'o-1', value: { n: 1 }, headers: given }, { partition: 3 }),
    )
    expect(keyed.count).toBe(plain.count)
    expect(plain.result).toEqual({ value: Buffer.of(7, 1), headers: { 'value-id': Buffer.of(7) } })
    expect(keyed.result).toEqual({
      partition: 3,
      key: Buffer.from('o-1'),
      value: Buffer.of(7, 1),
      headers: { trace: 't-1', 'value-id': Buffer.of(7) },
    })
    expect(given).toEqual({ trace: 't-1' })
  })

  it('writes a key by its serializer first, then the value; a null key and a tombstone stay null', async () => {
    const calls: string[] = []
    const contract = new MessageContract<{ n: number }, { n: number }>(client, {
      serializer: writer(7, 'value', calls, true),
      keys: { serializer: writer(5, 'key', calls, true) },
      preload: false,
    })
    expect(await contract.encodeMessage('orders', { key: { n: 2 }, value: { n: 3 } })).toEqual({
      key: Buffer.of(5, 2),
      value: Buffer.of(7, 3),
      headers: { 'key-id': Buffer.of(5), 'value-id': Buffer.of(7) },
    })
    expect(calls).toEqual(['key 2', 'value 3'])
    expect(await contract.encodeMessage('orders', { key: { n: 4 }, value: null, headers: null })).toEqual({
      key: Buffer.of(5, 4),
      value: null,
      headers: { 'key-id': Buffer.of(5) },
    })
    expect(await contract.encodeMessage('orders', { key: null, value: null })).toEqual({
      key: null,
      value: null,
      headers: {},
    })
    expect(calls).toEqual(['key 2', 'value 3', 'key 4'])
  })

  it('rejects, never throws, a key not of its type or a value without a serializer, saying which field', async () => {
    const calls: string[] = []
    const writes = new MessageContract<{ n: number }, never>(client, {
      serializer: writer(7, 'value', calls),
      keys: 'long',
      preload: false,
    })
    const badKey = writes.encodeMessage('orders', { key: 'x' as never, value: { n: 1 } })
    const keyError = await badKey.catch((error: unknown) => error)
    expect(keyError).toBeInstanceOf(TypeError)
    expect((keyError as { code?: string }).code).toBe('INVALID_CONFIG')
    expect((keyError as { context?: unknown }).context).toEqual({ topic: 'orders', field: 'key' })
    expect(calls).toEqual([])
    const reads = new MessageContract<{ n: number }, never>(client, { preload: false })
    const valueError = await reads
      .encodeMessage('orders', { value: { n: 1 } })
      .catch((error: unknown) => error)
    expect((valueError as Error).message).toContain('values need a serializer to be written')
    expect((valueError as { context?: unknown }).context).toEqual({ topic: 'orders', field: 'value' })
  })
})
