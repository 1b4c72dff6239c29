import avsc from 'avsc'
import { describe, expect, it } from 'vitest'
import { avro } from './avsc-types.js'

describe('avsc types taken from avsc/lib/types.js', () => {
  it("are the very Type and type classes `import avro from 'avsc'` hands out", () => {
    expect(avro.Type).toBe(avsc.Type)
    expect(Object.keys(avro.types).sort()).toEqual(Object.keys(avsc.types).sort())
    for (const [name, Class] of Object.entries(avsc.types))
      expect([name, avro.types[name as keyof typeof avro.types]]).toEqual([name, Class])
  })
})
