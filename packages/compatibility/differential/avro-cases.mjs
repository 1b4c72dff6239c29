import { casesFrom } from './random.mjs'

const order = {
  type: 'record',
  name: 'Order',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'quantity', type: 'int' },
    { name: 'price', type: 'float' },
    { name: 'total', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID', 'SHIPPED'] } },
    {
      name: 'customer',
      type: {
        type: 'record',
        name: 'Customer',
        fields: [
          { name: 'name', type: 'string' },
          { name: 'email', type: 'string', default: '' },
        ],
      },
    },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'attributes', type: { type: 'map', values: 'int' } },
    { name: 'payload', type: 'bytes' },
    { name: 'hash', type: { type: 'fixed', name: 'Hash', size: 16 } },
  ],
}

const address = {
  type: 'record',
  name: 'Address',
  namespace: 'com.example.common',
  fields: [
    { name: 'street', type: 'string' },
    { name: 'city', type: 'string' },
  ],
}

const shipment = {
  type: 'record',
  name: 'Shipment',
  namespace: 'com.example',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'weight', type: 'int' },
    { name: 'address', type: 'com.example.common.Address' },
  ],
}

const field = (schema, name) => {
  const found = schema.fields.find((f) => f.name === name)
  if (found === undefined) throw new Error(`no field ${name}`)
  return found
}
const named = (schema, name) => {
  const found = schema.fields.map((f) => f.type).find((t) => typeof t === 'object' && t.name === name)
  if (found === undefined) throw new Error(`no type ${name}`)
  return found
}
const m = (name, apply) => ({
  name,
  apply: (s) => {
    apply(s)
    return s
  },
})
const retype = (name, from, to) =>
  m(`${name} ${JSON.stringify(from)} to ${JSON.stringify(to)}`, (s) => {
    const f = field(s, name)
    if (JSON.stringify(f.type) !== JSON.stringify(from)) throw new Error('other type')
    f.type = to
  })
let added = 0

const mutations = [
  m('field added without default', (s) => s.fields.push({ name: `extra${added++ % 3}`, type: 'string' })),
  m('field added with default', (s) =>
    s.fields.push({ name: `opt${added++ % 3}`, type: 'string', default: 'x' }),
  ),
  m('nullable field added with default null', (s) =>
    s.fields.push({ name: `maybe${added++ % 3}`, type: ['null', 'int'], default: null }),
  ),
  m('field quantity removed', (s) => {
    field(s, 'quantity')
    s.fields = s.fields.filter((f) => f.name !== 'quantity')
  }),
  m('defaulted field note removed', (s) => {
    field(s, 'note')
    s.fields = s.fields.filter((f) => f.name !== 'note')
  }),
  m('field quantity renamed without alias', (s) => {
    field(s, 'quantity').name = 'qty'
  }),
  m('field quantity renamed with alias', (s) => {
    Object.assign(field(s, 'quantity'), { name: 'qty', aliases: ['quantity'] })
  }),
  m('field quantity renamed with default', (s) => {
    Object.assign(field(s, 'quantity'), { name: 'qty', default: 0 })
  }),
  m('field id renamed with alias and default', (s) => {
    Object.assign(field(s, 'id'), { name: 'key', aliases: ['id'], default: '' })
  }),
  retype('quantity', 'int', 'long'),
  retype('total', 'long', 'int'),
  retype('price', 'float', 'double'),
  retype('quantity', 'int', 'float'),
  retype('total', 'long', 'double'),
  retype('quantity', 'int', 'string'),
  retype('id', 'string', 'bytes'),
  retype('payload', 'bytes', 'string'),
  retype('quantity', 'int', ['int', 'long']),
  retype('quantity', 'int', ['null', 'int']),
  retype('price', 'float', ['null', 'string']),
  m('enum symbol added', (s) => {
    named(s, 'Status').symbols.push('CANCELLED')
  }),
  m('enum symbol removed', (s) => {
    const e = named(s, 'Status')
    e.symbols = e.symbols.filter((x) => x !== 'SHIPPED')
  }),
  m('enum default set', (s) => {
    named(s, 'Status').default = 'NEW'
  }),
  m('enum symbol removed with default', (s) => {
    const e = named(s, 'Status')
    e.symbols = e.symbols.filter((x) => x !== 'SHIPPED')
    e.default = 'NEW'
  }),
  m('enum renamed', (s) => {
    named(s, 'Status').name = 'State'
  }),
  m('enum renamed with alias', (s) => {
    Object.assign(named(s, 'Status'), { name: 'State', aliases: ['com.example.Status'] })
  }),
  m('union grown', (s) => {
    const f = field(s, 'note')
    f.type = [...f.type, 'int']
  }),
  m('union shrunk', (s) => {
    const f = field(s, 'note')
    if (!Array.isArray(f.type) || f.type.length < 2) throw new Error('no union')
    f.type = f.type.filter((t) => t !== 'string')
  }),
  m('union replaced by its branch', (s) => {
    const f = field(s, 'note')
    if (!Array.isArray(f.type)) throw new Error('no union')
    f.type = 'string'
    f.default = ''
  }),
  m('nested field added without default', (s) => {
    named(s, 'Customer').fields.push({ name: 'phone', type: 'string' })
  }),
  m('nested field added with default', (s) => {
    named(s, 'Customer').fields.push({ name: 'vip', type: 'boolean', default: false })
  }),
  m('nested field removed', (s) => {
    const c = named(s, 'Customer')
    c.fields = c.fields.filter((f) => f.name !== 'name')
  }),
  m('nested field string to bytes', (s) => {
    field(named(s, 'Customer'), 'email').type = 'bytes'
  }),
  m('nested record renamed', (s) => {
    named(s, 'Customer').name = 'Client'
  }),
  m('nested record renamed with alias', (s) => {
    Object.assign(named(s, 'Customer'), { name: 'Client', aliases: ['com.example.Customer'] })
  }),
  m('array items string to int', (s) => {
    field(s, 'tags').type.items = 'int'
  }),
  m('map values int to long', (s) => {
    field(s, 'attributes').type.values = 'long'
  }),
  m('map values int to string', (s) => {
    field(s, 'attributes').type.values = 'string'
  }),
  m('array turned into map', (s) => {
    field(s, 'tags').type = { type: 'map', values: 'string' }
  }),
  m('fixed size changed', (s) => {
    named(s, 'Hash').size = 32
  }),
  m('docs added', (s) => {
    s.doc = 'An order.'
    s.fields[0].doc = 'The key.'
  }),
  m('default changed', (s) => {
    field(named(s, 'Customer'), 'email').default = 'none'
  }),
  m('record namespace changed', (s) => {
    s.namespace = 'com.other'
  }),
  m('record renamed', (s) => {
    s.name = 'Purchase'
  }),
  m('record renamed with alias', (s) => {
    Object.assign(s, { name: 'Purchase', aliases: ['com.example.Order'] })
  }),
  m('referenced type field added without default', (s) => {
    field(s, 'address')
    s.fields.push({ name: 'billing', type: 'com.example.common.Address' })
  }),
  m('referenced type replaced by an inline record with a new field', (s) => {
    field(s, 'address').type = {
      type: 'record',
      name: 'Address',
      namespace: 'com.example.other',
      fields: [...address.fields, { name: 'zip', type: 'string' }],
    }
  }),
  m('referenced type made nullable', (s) => {
    Object.assign(field(s, 'address'), { type: ['null', 'com.example.common.Address'], default: null })
  }),
  retype('weight', 'int', 'double'),
]

/** The Avro cases: mutations of an order record and of a shipment referencing another artifact's record. */
export function avroCases() {
  return casesFrom({
    format: 'AVRO',
    bases: [
      { name: 'order', schema: order },
      {
        name: 'shipment',
        schema: shipment,
        references: { 'com.example.common.Address': JSON.stringify(address) },
      },
    ],
    mutations,
    chains: 30,
    seed: 29,
    render: (schema) => JSON.stringify(schema),
  })
}
