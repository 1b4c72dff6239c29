import protobuf from 'protobufjs'
import { describe, expect, it } from 'vitest'
import { fromRuleMessage } from './rule-values.js'
import { planOf } from './values.js'

// The record a transform gave back is data: its own fields are read, a name it does not hold is absent whatever
// it is, and a key named __proto__ stays a key.

const root = protobuf.parse(
  'syntax = "proto3";\nmessage Odd {\n  string constructor = 1;\n  map<string, bytes> blobs = 2;\n}\n',
).root
const plan = planOf(root.lookupType('Odd'))

describe('fromRuleMessage', () => {
  it('reads only the fields the record holds: a field named constructor it lacks stays absent', () => {
    const out = fromRuleMessage(plan, { blobs: {} }) as Record<string, unknown>
    expect(Object.keys(out)).toEqual(['blobs'])
    expect(Object.hasOwn(out, 'constructor')).toBe(false)
    expect(fromRuleMessage(plan, { constructor: 'x' })).toEqual({ constructor: 'x' })
  })

  it('keeps a map key named __proto__ as an own key, its value converted like any other', () => {
    const out = fromRuleMessage(plan, { blobs: JSON.parse('{"__proto__":"AQI=","b":"Aw=="}') }) as {
      blobs: Record<string, Buffer>
    }
    expect(Object.getPrototypeOf(out.blobs)).toBe(Object.prototype)
    expect(Object.keys(out.blobs)).toEqual(['__proto__', 'b'])
    expect(Object.getOwnPropertyDescriptor(out.blobs, '__proto__')?.value).toEqual(Buffer.from([1, 2]))
  })
})
