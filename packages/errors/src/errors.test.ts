import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  AuthenticationError,
  ClientClosedError,
  DeserializationError,
  RegistryConnectionError,
  ResolverError,
  SchemaNotFoundError,
  SchemaRegistrationError,
  SerdeError,
  SerializationError,
} from './index.js'

const SECRET = 'eyJhbGciOiJSUzI1NiJ9.secret-token-value'
const secretCause = () => new Error(`upstream said: Bearer ${SECRET}`)

/** Every class, built with a secret-bearing cause where it takes one, and what it must look like. */
const cases = [
  {
    error: new SchemaNotFoundError(undefined, {
      groupId: 'default',
      artifactId: 'orders-value',
      cause: secretCause(),
    }),
    name: 'SchemaNotFoundError',
    code: 'SCHEMA_NOT_FOUND',
    message: "Schema not found: artifact 'orders-value' in group 'default'",
    fields: { groupId: 'default', artifactId: 'orders-value', status: 404 },
  },
  {
    error: new RegistryConnectionError(undefined, {
      url: 'http://127.0.0.1:8080/apis/registry/v3',
      cause: secretCause(),
    }),
    name: 'RegistryConnectionError',
    code: 'REGISTRY_CONNECTION',
    message: 'Unable to use the registry at http://127.0.0.1:8080/apis/registry/v3',
    fields: { url: 'http://127.0.0.1:8080/apis/registry/v3' },
  },
  {
    error: new SchemaRegistrationError(undefined, {
      artifactId: 'orders-value',
      status: 409,
      cause: secretCause(),
    }),
    name: 'SchemaRegistrationError',
    code: 'SCHEMA_REGISTRATION',
    message: "Failed to register schema for artifact 'orders-value'",
    fields: { artifactId: 'orders-value', status: 409 },
  },
  {
    error: new SerializationError('toDict threw', { cause: secretCause() }),
    name: 'SerializationError',
    code: 'SERIALIZATION',
    message: 'toDict threw',
    fields: {},
  },
  {
    error: new ResolverError('resolver threw', { cause: secretCause() }),
    name: 'ResolverError',
    code: 'RESOLVER',
    message: 'resolver threw',
    fields: {},
  },
  {
    error: new DeserializationError('bad magic byte', { cause: secretCause(), schemaId: 2n ** 60n }),
    name: 'DeserializationError',
    code: 'DESERIALIZATION',
    message: 'bad magic byte',
    // schemaId is part of the failed message, a non-enumerable field; toJSON shows it, see failed-message.test.ts.
    fields: {},
  },
  {
    error: new AuthenticationError('token endpoint answered 401', { cause: secretCause(), status: 401 }),
    name: 'AuthenticationError',
    code: 'AUTHENTICATION',
    message: 'token endpoint answered 401',
    fields: { status: 401 },
  },
] as const

describe.each(cases)('$name', ({ error, name, code, message, fields }) => {
  it('has its class name as name, a stable code, and the message', () => {
    expect(error.name).toBe(name)
    expect(error.code).toBe(code)
    expect(error.message).toBe(message)
    expect(error.stack?.startsWith(`${name}: ${message}`)).toBe(true)
    expect(String(error)).toBe(`${name}: ${message}`)
  })

  it('is an instance of itself, SerdeError and Error', () => {
    expect(error).toBeInstanceOf(error.constructor)
    expect(error).toBeInstanceOf(SerdeError)
    expect(error).toBeInstanceOf(Error)
  })

  it('carries exactly its context attributes as own enumerable fields', () => {
    const own = Object.fromEntries(Object.entries(error).filter(([key]) => key !== 'name' && key !== 'code'))
    expect(own).toEqual(fields)
  })

  it('keeps the cause, but not enumerable, so spreading or JSON.stringify does not dump it', () => {
    expect((error.cause as Error).message).toContain(SECRET)
    const descriptor = Object.getOwnPropertyDescriptor(error, 'cause')
    expect(descriptor?.enumerable).toBe(false)
    expect(Object.keys(error)).not.toContain('cause')
    expect(inspect({ ...error })).not.toContain(SECRET)
  })

  it('serialises to JSON without the cause or its secret', () => {
    const json = JSON.stringify(error)
    expect(json).not.toContain(SECRET)
    expect(json).not.toContain('cause')
    const parsed = JSON.parse(json) as Record<string, unknown>
    expect(parsed.name).toBe(name)
    expect(parsed.code).toBe(code)
    expect(parsed.message).toBe(message)
  })

  it('prints the cause in util.inspect (Node shows [cause]): never chain a secret-bearing cause', () => {
    // Documented in the README: inspect is for debugging and shows the chain. toJSON (above) is what to ship to logs.
    const printed = inspect(error)
    expect(printed).toContain(`${name}: ${message}`)
    expect(printed).toContain(`code: '${code}'`)
    expect(printed).toContain('[cause]')
  })
})

describe('SchemaNotFoundError', () => {
  it('names the identifier for id lookups, with idType and idValue set and no artifact fields', () => {
    const error = new SchemaNotFoundError(undefined, { idType: 'globalId', idValue: 2n ** 63n - 1n })
    expect(error.message).toBe('Schema not found: globalId 9223372036854775807')
    expect(error.idType).toBe('globalId')
    expect(error.idValue).toBe(2n ** 63n - 1n)
    expect('groupId' in error).toBe(false)
    expect('artifactId' in error).toBe(false)
    expect(error.status).toBe(404)
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'SchemaNotFoundError',
      code: 'SCHEMA_NOT_FOUND',
      message: 'Schema not found: globalId 9223372036854775807',
      idType: 'globalId',
      idValue: '9223372036854775807',
      status: 404,
    })
  })

  it('mentions a version expression other than the latest, and keeps it in toJSON', () => {
    const error = new SchemaNotFoundError(undefined, {
      groupId: 'g',
      artifactId: 'a',
      version: '3',
      url: 'http://r/',
    })
    expect(error.message).toBe("Schema not found: artifact 'a' version '3' in group 'g'")
    expect(error.toJSON()).toEqual({
      name: 'SchemaNotFoundError',
      code: 'SCHEMA_NOT_FOUND',
      message: "Schema not found: artifact 'a' version '3' in group 'g'",
      groupId: 'g',
      artifactId: 'a',
      version: '3',
      url: 'http://r/',
      status: 404,
    })
  })

  it('takes an explicit message and status', () => {
    const error = new SchemaNotFoundError('gone', { idType: 'contentId', idValue: 5, status: 410 })
    expect([error.message, error.status, error.idValue]).toEqual(['gone', 410, 5])
  })
})

describe('errors without a cause', () => {
  it.each([
    ['SchemaNotFoundError', () => new SchemaNotFoundError(undefined, { idType: 'contentId', idValue: 1 })],
    [
      'RegistryConnectionError',
      () => new RegistryConnectionError(undefined, { url: 'http://r/', status: 500 }),
    ],
    ['SchemaRegistrationError', () => new SchemaRegistrationError(undefined, { artifactId: 'a' })],
    ['SerializationError', () => new SerializationError('x')],
    ['ResolverError', () => new ResolverError('x', {})],
    ['DeserializationError', () => new DeserializationError('x', { cause: undefined })],
    ['ClientClosedError', () => new ClientClosedError()],
  ])('%s has no cause property and util.inspect shows none', (_name, build) => {
    const error = build()
    expect(Object.hasOwn(error, 'cause')).toBe(false)
    expect(inspect(error)).not.toContain('[cause]')
  })
})

describe('RegistryConnectionError and SchemaRegistrationError', () => {
  it('carry the status when the registry answered', () => {
    const connection = new RegistryConnectionError('HTTP 500', { url: 'http://r/', status: 500 })
    expect([connection.url, connection.status, connection.message]).toEqual(['http://r/', 500, 'HTTP 500'])
    const registration = new SchemaRegistrationError(undefined, {
      artifactId: 'a',
      groupId: 'g',
      url: 'http://r/',
      status: 422,
    })
    expect(registration.toJSON()).toEqual({
      name: 'SchemaRegistrationError',
      code: 'SCHEMA_REGISTRATION',
      message: "Failed to register schema for artifact 'a'",
      groupId: 'g',
      artifactId: 'a',
      url: 'http://r/',
      status: 422,
    })
  })
})

describe('ClientClosedError', () => {
  it('has code CLIENT_CLOSED, a message containing "closed", and no cause', () => {
    const error = new ClientClosedError()
    expect(error.name).toBe('ClientClosedError')
    expect(error.code).toBe('CLIENT_CLOSED')
    expect(error.message).toBe('The registry client is closed')
    expect(error).toBeInstanceOf(SerdeError)
    expect(error.cause).toBeUndefined()
    expect(new ClientClosedError('client closed: call made after close()').message).toContain('closed')
  })
})

describe('SerdeError', () => {
  it('can be thrown with code NOT_PREPARED for a sync call before prepare()', () => {
    const error = new SerdeError('NOT_PREPARED', 'Call prepare() first')
    expect(error.name).toBe('SerdeError')
    expect(error.code).toBe('NOT_PREPARED')
    expect(error.toJSON()).toEqual({
      name: 'SerdeError',
      code: 'NOT_PREPARED',
      message: 'Call prepare() first',
    })
  })

  it('lets a subclass outside this package keep its own name and the brand', () => {
    class CustomError extends SerdeError {
      override name = 'CustomError'
    }
    const error = new CustomError('RESOLVER', 'x')
    expect(error.name).toBe('CustomError')
    expect(error.toJSON().name).toBe('CustomError')
  })
})
