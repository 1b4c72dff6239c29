import { describe, expect, it } from 'vitest'
import { checkCompatibility } from './check-compatibility.js'

const record = (...fields: object[]) => JSON.stringify({ type: 'record', name: 'R', namespace: 'n', fields })
const v1 = record({ name: 'a', type: 'int' })
const v2 = record({ name: 'a', type: 'int' }, { name: 'b', type: 'string', default: '' })
const v3 = record({ name: 'a', type: 'int' }, { name: 'b', type: 'string' })

describe('checkCompatibility', () => {
  it('accepts anything under NONE and anything as the first version', () => {
    expect(checkCompatibility({ format: 'AVRO', level: 'NONE', existing: [v1], proposed: v3 })).toEqual({
      compatible: true,
      issues: [],
    })
    expect(checkCompatibility({ format: 'AVRO', level: 'FULL', existing: [], proposed: v3 })).toEqual({
      compatible: true,
      issues: [],
    })
  })

  it('refuses under BACKWARD a new field without default, with its path, sentence and registry cause', () => {
    expect(checkCompatibility({ format: 'AVRO', level: 'BACKWARD', existing: [v1], proposed: v3 })).toEqual({
      compatible: false,
      issues: [
        {
          path: 'fields[1]',
          message:
            'The reader\'s field "b" has no default, and the writer has no field of that name or of one of its aliases.',
          cause: { description: 'b', context: '/fields/1' },
        },
      ],
    })
  })

  it('compares with the latest version only unless the level is transitive', () => {
    // v2 → v3 is backward compatible (b is written by v2); v1 → v3 is not.
    const check = (level: 'BACKWARD' | 'BACKWARD_TRANSITIVE') =>
      checkCompatibility({ format: 'AVRO', level, existing: [v1, v2], proposed: v3 }).compatible
    expect(check('BACKWARD')).toBe(true)
    expect(check('BACKWARD_TRANSITIVE')).toBe(false)
  })

  it('swaps the direction under FORWARD and checks both under FULL', () => {
    // v1 reads v3's data (b is ignored), so v3 is forward compatible with v1 but not backward.
    const check = (level: 'FORWARD' | 'FULL') =>
      checkCompatibility({ format: 'AVRO', level, existing: [v1], proposed: v3 }).compatible
    expect(check('FORWARD')).toBe(true)
    expect(check('FULL')).toBe(false)
  })

  it('reports a schema that cannot be read as an issue at the schema itself', () => {
    const result = checkCompatibility({ format: 'AVRO', level: 'BACKWARD', existing: [v1], proposed: '{' })
    expect(result.compatible).toBe(false)
    expect(result.issues).toHaveLength(1)
    expect(result.issues[0]?.path).toBe('')
    expect(result.issues[0]?.message).toMatch(/^The schemas cannot be compared: SchemaParseException: /)
    expect(result.unreadable).toMatch(/^SchemaParseException: /)
  })

  it('throws a TypeError for an unknown level or format', () => {
    expect(() =>
      checkCompatibility({ format: 'AVRO', level: 'LOOSE' as never, existing: [], proposed: v1 }),
    ).toThrow(TypeError)
    expect(() =>
      checkCompatibility({ format: 'XML' as never, level: 'NONE', existing: [], proposed: v1 }),
    ).toThrow(TypeError)
  })
})
