import avro from 'avsc'
import { describe, expect, test } from 'vitest'
import { type AvroOptions, normalizeAvroOptions } from './index.js'
import { thrown } from './test-support/fixtures.js'

describe('normalizeAvroOptions', () => {
  test('applies the defaults', () => {
    const options = normalizeAvroOptions()
    expect(options.longs).toBe('auto')
    expect(options.unions).toBe('auto')
    expect(options.typeHook).toBeUndefined()
    expect(Object.keys(options.logicalTypes).sort()).toEqual([
      'date',
      'decimal',
      'local-timestamp-micros',
      'local-timestamp-millis',
      'local-timestamp-nanos',
      'time-micros',
      'timestamp-micros',
      'timestamp-millis',
      'timestamp-nanos',
      'uuid',
    ])
    expect(Object.isFrozen(options)).toBe(true)
    expect(normalizeAvroOptions({})).toEqual(options)
  })

  test('merges extra logical types over the built-ins and drops those set to null', () => {
    class Custom extends (avro.types.LogicalType as unknown as new (...args: unknown[]) => object) {}
    const hook = () => undefined
    const options = normalizeAvroOptions({
      longs: 'bigint',
      unions: 'wrapped',
      logicalTypes: { custom: Custom, decimal: Custom, uuid: null },
      typeHook: hook,
    })
    expect(options.longs).toBe('bigint')
    expect(options.unions).toBe('wrapped')
    expect(options.typeHook).toBe(hook)
    expect(options.logicalTypes.custom).toBe(Custom)
    expect(options.logicalTypes.decimal).toBe(Custom)
    expect('uuid' in options.logicalTypes).toBe(false)
    expect(normalizeAvroOptions().logicalTypes.uuid).toBeDefined()
  })

  test.each([
    ['a non-object', 'auto', 'avro options must be an object, got string "auto"'],
    [
      'an unknown option',
      { wrapUnions: true },
      "Unknown avro option 'wrapUnions': expected one of longs, unions, logicalTypes, typeHook, encoding",
    ],
    [
      'a bad long mode',
      { longs: 'string' },
      `avro.longs must be 'auto', 'number' or 'bigint', got string "string"`,
    ],
    ['a bad union mode', { unions: 'never' }, `avro.unions must be 'auto' or 'wrapped', got string "never"`],
    ['a typeHook that is not a function', { typeHook: 1 }, 'avro.typeHook must be a function, got number 1'],
    [
      'logicalTypes that is not an object',
      { logicalTypes: [] },
      'avro.logicalTypes must be an object of constructors, got an array',
    ],
    [
      'a logical type that does not extend the LogicalType of the avsc this package loads',
      { logicalTypes: { x: class NotLogical {} } },
      `avro.logicalTypes['x'] must extend the LogicalType of avsc 5.7.9 that @x/avro-serde loads (import avro from 'avsc'; avro.types.LogicalType), got a function that does not; a class extending another copy of avsc (of another version) cannot be mixed with this one`,
    ],
    [
      'a logical type that is not a constructor',
      { logicalTypes: { x: 'y' } },
      `avro.logicalTypes['x'] must be a LogicalType subclass or null, got string "y"`,
    ],
  ])('refuses %s with a TypeError INVALID_CONFIG', (_name, options, message) => {
    const error = thrown(() => normalizeAvroOptions(options as AvroOptions))
    expect(error).toBeInstanceOf(TypeError)
    expect(error.code).toBe('INVALID_CONFIG')
    expect(error.message).toBe(message)
  })
})
