import { execFileSync } from 'node:child_process'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { AnyDeserializer, MessageContract } from './index.js'

let registry: InMemoryRegistry

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
})

afterAll(async () => {
  await registry.close()
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('MessageContract', () => {
  it('starts loading every format reader on the next turn of the event loop, making no request', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const before = registry.requests.length
    new MessageContract(client)
    expect(preload).not.toHaveBeenCalled()
    await nextTurn()
    expect(preload).toHaveBeenCalledTimes(1)
    expect(preload.mock.calls[0]![0]).toBeUndefined()
    expect(preload.mock.calls[0]![1]!.signal!.aborted).toBe(false)
    await preload.mock.results[0]!.value
    expect(registry.requests.length).toBe(before)
    await client.close()
  })

  it('stops preloading once a message needs the registry, so that its lookup has the process to itself', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const contract = new MessageContract(client)
    const unknownId = Buffer.from([0, 0, 0, 0x7f, 0x7f, 2])
    const read = contract.decode('t', null, unknownId, {}).catch((error: unknown) => error)
    await nextTurn()
    expect(preload).toHaveBeenCalledTimes(1)
    expect(preload.mock.calls[0]![1]!.signal!.aborted).toBe(true)
    await expect(preload.mock.results[0]!.value).rejects.toMatchObject({ name: 'AbortError' })
    expect(await read).toMatchObject({ name: 'SchemaNotFoundError' })
    await client.close()
  })

  it('loads Node’s fetch in the background once constructed, which a fresh process has not loaded; not with preload false', () => {
    const entry = new URL('../dist/index.js', import.meta.url).href
    const script = (preload: boolean) => `const { MessageContract } = await import(${JSON.stringify(entry)})
const loaded = () => process.moduleLoadList.some((name) => name.includes('undici'))
const before = loaded()
const refuse = () => { throw new Error('no request is made') }
new MessageContract({ getSchemaByGlobalId: refuse, getSchemaByContentId: refuse }, { preload: ${preload} })
await new Promise((resolve) => setImmediate(resolve))
await new Promise((resolve) => setImmediate(resolve))
process.stdout.write(JSON.stringify([before, loaded()]))`
    const run = (preload: boolean): unknown =>
      JSON.parse(
        execFileSync(process.execPath, ['--input-type=module', '-e', script(preload)], { encoding: 'utf8' }),
      )
    expect(run(true)).toEqual([false, true])
    expect(run(false)).toEqual([false, false])
  })

  it('loads nothing ahead with preload false, or when values have a deserializer of their own', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    new MessageContract(client, { preload: false })
    new MessageContract(client, {
      deserializer: { deserializeMessage: async () => 'value' },
    })
    await nextTurn()
    await nextTurn()
    expect(preload).not.toHaveBeenCalled()
    await client.close()
  })

  it('stops preloading once a value written needs the registry, as a read does', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const serializer = { serializeMessage: async () => ({ payload: Buffer.from([1]), headers: {} }) }
    const contract = new MessageContract(client, { serializer })
    contract.preloadReaders()
    expect(await contract.encodeValue('t', 'v', {})).toEqual(Buffer.from([1]))
    await nextTurn()
    expect(preload).toHaveBeenCalledTimes(1)
    expect(preload.mock.calls[0]![1]!.signal!.aborted).toBe(true)
    await expect(preload.mock.results[0]!.value).rejects.toMatchObject({ name: 'AbortError' })
    await client.close()
  })

  it('loads no reader for a contract that writes (values, or keys with a serde) until a reader is bound, then once', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const serializer = { serializeMessage: async () => ({ payload: Buffer.from([1]), headers: {} }) }
    const values = new MessageContract(client, { serializer })
    new MessageContract(client, { keys: { serializer } })
    await nextTurn()
    await nextTurn()
    expect(preload).not.toHaveBeenCalled()
    values.preloadReaders()
    values.preloadReaders()
    await nextTurn()
    expect(preload).toHaveBeenCalledTimes(1)
    expect(preload.mock.calls[0]![1]!.signal!.aborted).toBe(false)
    await preload.mock.results[0]!.value
    await client.close()
  })

  it('preloads when a reader is bound (preloadReaders) never after it was stopped, with preload false, nor for values with a deserializer of their own', async () => {
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload')
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    const serializer = { serializeMessage: async () => ({ payload: Buffer.from([1]), headers: {} }) }
    const stopped = new MessageContract(client, { serializer })
    const off = new MessageContract(client, { preload: false })
    const own = new MessageContract(client, {
      serializer,
      deserializer: { deserializeMessage: async () => 'value' },
    })
    stopped.stopPreloading()
    stopped.preloadReaders()
    off.preloadReaders()
    own.preloadReaders()
    await nextTurn()
    await nextTurn()
    expect(preload).not.toHaveBeenCalled()
    await client.close()
  })

  it('swallows a preload that fails: no unhandled rejection, nothing thrown at the constructor', async () => {
    const failure = new Error('cannot load')
    const preload = vi.spyOn(AnyDeserializer.prototype, 'preload').mockRejectedValueOnce(failure)
    const client = new RegistryClient({ url: registry.url, groupId: 'default' })
    new MessageContract(client)
    await nextTurn()
    expect(preload).toHaveBeenCalledTimes(1)
    await expect(preload.mock.results[0]!.value).rejects.toBe(failure)
    await client.close()
  })
})
