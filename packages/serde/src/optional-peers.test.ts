import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AvroSerializer, RegistryClient, SerializationContext } from './index.js'
import { InMemoryRegistry } from './testing.js'

// `@x/rules` (an optional peer of @x/serde-core) and `@x/registry-testing` (an optional peer of @x/serde, for the
// testing subpath) are installed only by those who use them. Each case runs the built umbrella in a fresh `node`
// where one of them cannot be found from the package that imports it, as in an application that did not install it:
// a resolve hook sends that one import to a directory with no node_modules, so Node answers as it does for a
// package that is not installed.

const run = promisify(execFile)
const dist = new URL('../dist/', import.meta.url).href

/** A hook that resolves `specifier`, imported from a file whose URL contains `from`, as if it were not installed. */
const hideHook = (specifier: string, from: string): string => `
export async function resolve(specifier, context, next) {
  if (specifier === ${JSON.stringify(specifier)} && context.parentURL?.includes(${JSON.stringify(from)})) {
    return next(specifier, { ...context, parentURL: 'file:///nonexistent-${Date.now()}/app.js' })
  }
  return next(specifier, context)
}`

/** Runs `body` (an ES module's text) in a fresh node, with `hook` registered first when given; answers its stdout. */
async function inNode(body: string, hook?: string): Promise<unknown> {
  const script = `${
    hook === undefined
      ? ''
      : `import { register } from 'node:module'\nregister('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}))\n`
  }${body}`
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  return JSON.parse(stdout)
}

/** Deserializes FRAME_HEX (from the env) with a rules-enabled AvroDeserializer of the umbrella; prints what came. */
const DESERIALIZE_WITH_RULES = `
const { AvroDeserializer, RegistryClient, SerializationContext } = await import(${JSON.stringify(`${dist}index.js`)})
const client = new RegistryClient({ url: process.env.REGISTRY_URL, groupId: 'default', maxRetries: 0 })
const deserializer = new AvroDeserializer(client, { rules: { enabled: true } })
let out
try {
  out = { value: await deserializer.deserialize(Buffer.from(process.env.FRAME_HEX, 'hex'), new SerializationContext('orders', 'value')) }
} catch (error) {
  out = { name: error.name, code: error.code, message: error.message, causeCode: error.cause?.code }
}
await client.close()
process.stdout.write(JSON.stringify(out))`

let registry: InMemoryRegistry
let client: RegistryClient
let frameHex: string

beforeAll(async () => {
  registry = await InMemoryRegistry.start()
  client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
  const serializer = new AvroSerializer(client, 'orders-value', {
    autoRegister: true,
    schema: { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }] },
  })
  frameHex = Buffer.from(
    await serializer.serialize({ id: 'o-1' }, new SerializationContext('orders', 'value')),
  ).toString('hex')
  process.env.REGISTRY_URL = registry.url
  process.env.FRAME_HEX = frameHex
})

afterAll(async () => {
  delete process.env.REGISTRY_URL
  delete process.env.FRAME_HEX
  await client.close()
  await registry.close()
})

describe('a deserializer with rules enabled', () => {
  it('reads the record when @x/rules is installed', async () => {
    expect(await inNode(DESERIALIZE_WITH_RULES)).toEqual({ value: { id: 'o-1' } })
  })

  it('fails with INVALID_CONFIG naming `npm install @x/rules` when @x/rules is not installed', async () => {
    expect(await inNode(DESERIALIZE_WITH_RULES, hideHook('@x/rules', '/serde-core/dist/'))).toEqual({
      name: 'TypeError',
      code: 'INVALID_CONFIG',
      message:
        'AvroDeserializer: rules.enabled needs the rules engine @x/rules, which is not installed ' +
        '(it is an optional peer dependency): npm install @x/rules',
      causeCode: 'ERR_MODULE_NOT_FOUND',
    })
  })
})

describe('@x/serde/testing', () => {
  it('needs @x/registry-testing as an optional peer: no runtime dependency of @x/serde brings it', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(Object.keys(pkg.dependencies)).not.toContain('@x/registry-testing')
    expect(pkg.peerDependencies).toEqual({ '@x/registry-testing': 'workspace:>=0.2.0' })
    expect(pkg.peerDependenciesMeta).toEqual({ '@x/registry-testing': { optional: true } })
  })

  const IMPORT_TESTING = `
let out
try {
  const testing = await import(${JSON.stringify(`${dist}testing.js`)})
  out = { exports: Object.keys(testing) }
} catch (error) {
  out = { code: error.code, message: error.message.split(' imported from ')[0] }
}
process.stdout.write(JSON.stringify(out))`

  it('exports InMemoryRegistry and makeTestCertificates when @x/registry-testing is installed', async () => {
    expect(await inNode(IMPORT_TESTING)).toEqual({ exports: ['InMemoryRegistry', 'makeTestCertificates'] })
  })

  it('fails to load, naming @x/registry-testing, when it is not installed', async () => {
    expect(await inNode(IMPORT_TESTING, hideHook('@x/registry-testing', '/serde/dist/testing.js'))).toEqual({
      code: 'ERR_MODULE_NOT_FOUND',
      message: "Cannot find package '@x/registry-testing'",
    })
  })
})
