import { casesFrom } from './random.mjs'

const properties = () => ({
  id: { type: 'string' },
  quantity: { type: 'integer', minimum: 0, maximum: 100 },
  price: { type: 'number' },
  status: { type: 'string', enum: ['NEW', 'PAID', 'SHIPPED'] },
  kind: { const: 'order' },
  name: { type: 'string', minLength: 1, maxLength: 50 },
  tags: { type: 'array', items: { type: 'string' }, maxItems: 10 },
  customer: {
    type: 'object',
    properties: { email: { type: 'string' }, age: { type: 'integer' } },
    required: ['email'],
  },
  payment: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
})

const closed = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: properties(),
  required: ['id', 'quantity'],
  additionalProperties: false,
}

const open = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: properties(),
  required: ['id', 'quantity'],
}

const withRefs = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    id: { type: 'string' },
    address: { $ref: 'address.json' },
    price: { $ref: '#/definitions/money' },
  },
  required: ['id', 'address'],
  definitions: { money: { type: 'number' } },
}

const address = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { street: { type: 'string' }, city: { type: 'string' } },
  required: ['street'],
}
const addressV2 = {
  ...address,
  properties: { ...address.properties, zip: { type: 'string' } },
  required: ['street', 'zip'],
}

const prop = (schema, name) => {
  const found = schema.properties?.[name]
  if (found === undefined) throw new Error(`no property ${name}`)
  return found
}
const m = (name, apply) => ({
  name,
  apply: (s) => {
    apply(s)
    return s
  },
})
const set = (name, key, value) =>
  m(`${name} ${key} set to ${JSON.stringify(value).replace(/^-/, 'minus ')}`, (s) => {
    const p = prop(s, name)
    if (JSON.stringify(p[key]) === JSON.stringify(value)) throw new Error('same')
    p[key] = value
  })
const drop = (name, key) =>
  m(`${name} ${key} removed`, (s) => {
    const p = prop(s, name)
    if (!(key in p)) throw new Error('absent')
    delete p[key]
  })

const mutations = [
  m('optional property added', (s) => {
    s.properties.note = { type: 'string' }
  }),
  m('required property added', (s) => {
    s.properties.owner = { type: 'string' }
    s.required = [...(s.required ?? []), 'owner']
  }),
  m('optional property removed', (s) => {
    prop(s, 'price')
    delete s.properties.price
  }),
  m('required property removed', (s) => {
    prop(s, 'quantity')
    delete s.properties.quantity
    s.required = s.required.filter((x) => x !== 'quantity')
  }),
  m('property made required', (s) => {
    prop(s, 'price')
    if (s.required.includes('price')) throw new Error('already')
    s.required = [...s.required, 'price']
  }),
  m('property made optional', (s) => {
    if (!s.required.includes('id')) throw new Error('already')
    s.required = s.required.filter((x) => x !== 'id')
  }),
  m('property renamed', (s) => {
    s.properties.title = prop(s, 'name')
    delete s.properties.name
  }),
  set('quantity', 'type', 'number'),
  set('price', 'type', 'integer'),
  set('id', 'type', 'integer'),
  set('id', 'type', ['string', 'null']),
  m('enum value added', (s) => {
    prop(s, 'status').enum.push('CANCELLED')
  }),
  m('enum value removed', (s) => {
    const p = prop(s, 'status')
    p.enum = p.enum.filter((x) => x !== 'SHIPPED')
  }),
  drop('status', 'enum'),
  set('kind', 'const', 'purchase'),
  drop('kind', 'const'),
  set('quantity', 'minimum', 1),
  set('quantity', 'minimum', -1),
  set('quantity', 'maximum', 50),
  set('quantity', 'maximum', 1000),
  drop('quantity', 'maximum'),
  set('quantity', 'exclusiveMinimum', 0),
  set('price', 'multipleOf', 0.01),
  set('name', 'maxLength', 20),
  set('name', 'maxLength', 80),
  set('name', 'minLength', 3),
  set('name', 'pattern', '^[A-Z]'),
  set('tags', 'maxItems', 5),
  set('tags', 'minItems', 1),
  set('tags', 'uniqueItems', true),
  m('array items string to integer', (s) => {
    prop(s, 'tags').items = { type: 'integer' }
  }),
  m('additionalProperties false', (s) => {
    if (s.additionalProperties === false) throw new Error('already')
    s.additionalProperties = false
  }),
  m('additionalProperties true', (s) => {
    if (s.additionalProperties === true) throw new Error('already')
    s.additionalProperties = true
  }),
  m('additionalProperties a string schema', (s) => {
    s.additionalProperties = { type: 'string' }
  }),
  m('nested required property added', (s) => {
    const c = prop(s, 'customer')
    c.properties.phone = { type: 'string' }
    c.required = [...c.required, 'phone']
  }),
  m('nested property type changed', (s) => {
    prop(s, 'customer').properties.age = { type: 'string' }
  }),
  m('nested additionalProperties false', (s) => {
    prop(s, 'customer').additionalProperties = false
  }),
  m('oneOf grown', (s) => {
    prop(s, 'payment').oneOf.push({ type: 'boolean' })
  }),
  m('oneOf shrunk', (s) => {
    const p = prop(s, 'payment')
    p.oneOf = p.oneOf.slice(0, 1)
  }),
  m('oneOf turned into anyOf', (s) => {
    const p = prop(s, 'payment')
    p.anyOf = p.oneOf
    delete p.oneOf
  }),
  m('external $ref switched to a stricter artifact', (s) => {
    if (prop(s, 'address').$ref !== 'address.json') throw new Error('other')
    s.properties.address = { $ref: 'address-v2.json' }
  }),
  m('external $ref inlined', (s) => {
    prop(s, 'address')
    s.properties.address = structuredClone(address)
    delete s.properties.address.$schema
  }),
  m('external $ref replaced by a string', (s) => {
    prop(s, 'address')
    s.properties.address = { type: 'string' }
  }),
  m('local definition narrowed', (s) => {
    s.definitions.money = { type: 'integer' }
  }),
  m('second property using the external $ref', (s) => {
    prop(s, 'address')
    s.properties.billing = { $ref: 'address.json' }
    s.required = [...s.required, 'billing']
  }),
]

/** The JSON Schema cases: mutations of a closed and an open object schema, and of one with `$ref`s. */
export function jsonCases() {
  return casesFrom({
    format: 'JSON',
    bases: [
      { name: 'closed', schema: closed },
      { name: 'open', schema: open },
      {
        name: 'refs',
        schema: withRefs,
        references: { 'address.json': JSON.stringify(address), 'address-v2.json': JSON.stringify(addressV2) },
      },
    ],
    mutations,
    chains: 15,
    seed: 2029,
    render: (schema) => JSON.stringify(schema),
  })
}
