import { casesFrom } from './random.mjs'

// A schema is a small model rendered as .proto text: messages with fields (label, type, name, number, oneof),
// reserved numbers and names, nested messages; enums; imports.

const order = {
  package: 'shop',
  imports: [],
  enums: [
    {
      name: 'Status',
      values: [
        ['NEW', 0],
        ['PAID', 1],
        ['SHIPPED', 2],
      ],
    },
  ],
  messages: [
    {
      name: 'Order',
      fields: [
        { type: 'string', name: 'id', number: 1 },
        { type: 'int32', name: 'quantity', number: 2 },
        { type: 'double', name: 'price', number: 3 },
        { type: 'Status', name: 'status', number: 4 },
        { type: 'Customer', name: 'customer', number: 5 },
        { label: 'repeated', type: 'string', name: 'tags', number: 6 },
        { type: 'map<string, int32>', name: 'counts', number: 7 },
        { type: 'string', name: 'card', number: 8, oneof: 'payment' },
        { type: 'string', name: 'iban', number: 9, oneof: 'payment' },
        { type: 'bytes', name: 'payload', number: 10 },
      ],
      reserved: [15],
      reservedNames: ['legacy'],
      nested: [],
    },
    {
      name: 'Customer',
      fields: [
        { type: 'string', name: 'name', number: 1 },
        { type: 'string', name: 'email', number: 2 },
      ],
      reserved: [],
      reservedNames: [],
      nested: [],
    },
  ],
}

const invoice = {
  package: 'billing',
  imports: ['common.proto'],
  enums: [],
  messages: [
    {
      name: 'Invoice',
      fields: [
        { type: 'string', name: 'id', number: 1 },
        { type: 'common.Money', name: 'amount', number: 2 },
        { type: 'common.Address', name: 'address', number: 3 },
      ],
      reserved: [],
      reservedNames: [],
      nested: [],
    },
  ],
}

const common = `syntax = "proto3";
package common;

message Money {
  int64 units = 1;
  string currency = 2;
}

message Address {
  string street = 1;
  string city = 2;
}
`

function renderMessage(message, indent) {
  const pad = '  '.repeat(indent)
  const lines = [`${pad}message ${message.name} {`]
  for (const nested of message.nested ?? []) lines.push(renderMessage(nested, indent + 1))
  const oneofs = new Map()
  for (const f of message.fields) {
    if (f.oneof !== undefined) {
      if (!oneofs.has(f.oneof)) {
        oneofs.set(f.oneof, [])
        lines.push(`\u0000${f.oneof}`)
      }
      oneofs.get(f.oneof).push(f)
      continue
    }
    lines.push(`${pad}  ${f.label === undefined ? '' : `${f.label} `}${f.type} ${f.name} = ${f.number};`)
  }
  if (message.reserved.length > 0) lines.push(`${pad}  reserved ${message.reserved.join(', ')};`)
  if (message.reservedNames.length > 0)
    lines.push(`${pad}  reserved ${message.reservedNames.map((n) => `"${n}"`).join(', ')};`)
  lines.push(`${pad}}`)
  return lines
    .map((line) =>
      line.startsWith('\u0000')
        ? [
            `${pad}  oneof ${line.slice(1)} {`,
            ...oneofs.get(line.slice(1)).map((f) => `${pad}    ${f.type} ${f.name} = ${f.number};`),
            `${pad}  }`,
          ].join('\n')
        : line,
    )
    .join('\n')
}

/** The .proto text of a model. */
export function renderProto(schema) {
  const parts = ['syntax = "proto3";', `package ${schema.package};`]
  if (schema.imports.length > 0) parts.push(schema.imports.map((i) => `import "${i}";`).join('\n'))
  for (const e of schema.enums) {
    parts.push(`enum ${e.name} {\n${e.values.map(([n, v]) => `  ${n} = ${v};`).join('\n')}\n}`)
  }
  for (const message of schema.messages) parts.push(renderMessage(message, 0))
  return `${parts.join('\n\n')}\n`
}

const message = (s, name) => {
  const found = s.messages.find((x) => x.name === name)
  if (found === undefined) throw new Error(`no message ${name}`)
  return found
}
const field = (msg, name) => {
  const found = msg.fields.find((f) => f.name === name)
  if (found === undefined) throw new Error(`no field ${name}`)
  return found
}
const m = (name, apply) => ({
  name,
  apply: (s) => {
    apply(s)
    return s
  },
})
const retype = (msg, name, from, to) =>
  m(`${msg}.${name} ${from} to ${to}`, (s) => {
    const f = field(message(s, msg), name)
    if (f.type !== from) throw new Error('other type')
    f.type = to
  })
const remove = (msg, name) => (s) => {
  const x = message(s, msg)
  const f = field(x, name)
  x.fields = x.fields.filter((g) => g !== f)
  return f
}
const statusEnum = (s) => {
  const found = s.enums.find((e) => e.name === 'Status')
  if (found === undefined) throw new Error('no enum')
  return found
}

const mutations = [
  m('field added', (s) => {
    const x = s.messages[0]
    x.fields.push({ type: 'string', name: 'added', number: 11 })
  }),
  m('field removed', (s) => {
    remove('Order', 'quantity')(s)
  }),
  m('field removed and its number reserved', (s) => {
    const f = remove('Order', 'quantity')(s)
    message(s, 'Order').reserved.push(f.number)
  }),
  m('field removed and its name reserved', (s) => {
    const f = remove('Order', 'quantity')(s)
    message(s, 'Order').reservedNames.push(f.name)
  }),
  m('field renamed', (s) => {
    field(message(s, 'Order'), 'quantity').name = 'qty'
  }),
  m('field number changed', (s) => {
    field(message(s, 'Order'), 'quantity').number = 12
  }),
  retype('Order', 'quantity', 'int32', 'int64'),
  retype('Order', 'quantity', 'int32', 'uint32'),
  retype('Order', 'quantity', 'int32', 'sint32'),
  retype('Order', 'quantity', 'int32', 'string'),
  retype('Order', 'id', 'string', 'bytes'),
  retype('Order', 'price', 'double', 'float'),
  retype('Order', 'customer', 'Customer', 'string'),
  retype('Order', 'status', 'Status', 'int32'),
  m('field added to oneof', (s) => {
    message(s, 'Order').fields.push({ type: 'string', name: 'voucher', number: 11, oneof: 'payment' })
  }),
  m('field removed from oneof', (s) => {
    remove('Order', 'iban')(s)
  }),
  m('existing field moved into oneof', (s) => {
    field(message(s, 'Order'), 'payload').oneof = 'payment'
  }),
  m('oneof dissolved', (s) => {
    for (const f of message(s, 'Order').fields) {
      if (f.oneof === undefined) continue
      delete f.oneof
    }
  }),
  m('oneof renamed', (s) => {
    for (const f of message(s, 'Order').fields) if (f.oneof === 'payment') f.oneof = 'method'
  }),
  retype('Order', 'counts', 'map<string, int32>', 'map<string, int64>'),
  retype('Order', 'counts', 'map<string, int32>', 'map<int32, int32>'),
  m('repeated field made singular', (s) => {
    delete field(message(s, 'Order'), 'tags').label
  }),
  m('singular field made repeated', (s) => {
    field(message(s, 'Order'), 'quantity').label = 'repeated'
  }),
  m('field made optional', (s) => {
    field(message(s, 'Order'), 'quantity').label = 'optional'
  }),
  m('nested message field added', (s) => {
    message(s, 'Customer').fields.push({ type: 'string', name: 'phone', number: 3 })
  }),
  m('nested message field removed', (s) => {
    remove('Customer', 'email')(s)
  }),
  retype('Customer', 'email', 'string', 'int32'),
  m('message renamed', (s) => {
    message(s, 'Customer').name = 'Client'
    field(message(s, 'Order'), 'customer').type = 'Client'
  }),
  m('message declared inside another', (s) => {
    const x = message(s, 'Order')
    x.nested.push({
      name: 'Line',
      fields: [
        { type: 'string', name: 'sku', number: 1 },
        { type: 'int32', name: 'count', number: 2 },
      ],
      reserved: [],
      reservedNames: [],
      nested: [],
    })
    x.fields.push({ label: 'repeated', type: 'Line', name: 'lines', number: 11 })
  }),
  m('nested declared message changed', (s) => {
    const line = message(s, 'Order').nested.find((n) => n.name === 'Line')
    if (line === undefined) throw new Error('no Line')
    field(line, 'count').type = 'string'
  }),
  m('enum value added', (s) => {
    statusEnum(s).values.push(['CANCELLED', 3])
  }),
  m('enum value removed', (s) => {
    const e = statusEnum(s)
    e.values = e.values.filter(([n]) => n !== 'SHIPPED')
  }),
  m('enum value renumbered', (s) => {
    const e = statusEnum(s)
    e.values = e.values.map(([n, v]) => [n, n === 'SHIPPED' ? 5 : v])
  }),
  m('enum value renamed', (s) => {
    const e = statusEnum(s)
    e.values = e.values.map(([n, v]) => [n === 'PAID' ? 'SETTLED' : n, v])
  }),
  m('reserved number released', (s) => {
    const x = message(s, 'Order')
    if (x.reserved.length === 0) throw new Error('none')
    x.reserved = []
  }),
  m('reserved name released', (s) => {
    const x = message(s, 'Order')
    if (x.reservedNames.length === 0) throw new Error('none')
    x.reservedNames = []
  }),
  m('number reserved', (s) => {
    s.messages[0].reserved.push(20)
  }),
  m('package renamed', (s) => {
    s.package = `${s.package}.v2`
  }),
  m('imported message replaced by a local one', (s) => {
    const x = message(s, 'Invoice')
    field(x, 'amount').type = 'Amount'
    s.messages.push({
      name: 'Amount',
      fields: [
        { type: 'int64', name: 'units', number: 1 },
        { type: 'string', name: 'currency', number: 2 },
      ],
      reserved: [],
      reservedNames: [],
      nested: [],
    })
  }),
  m('imported field removed', (s) => {
    remove('Invoice', 'address')(s)
  }),
  m('imported field type switched', (s) => {
    field(message(s, 'Invoice'), 'address').type = 'common.Money'
  }),
  m('second imported field added', (s) => {
    message(s, 'Invoice').fields.push({ type: 'common.Address', name: 'billing', number: 4 })
  }),
]

/** The Protobuf cases: mutations of an order and of an invoice importing another artifact's messages. */
export function protobufCases() {
  return casesFrom({
    format: 'PROTOBUF',
    bases: [
      { name: 'order', schema: order },
      { name: 'invoice', schema: invoice, references: { 'common.proto': common } },
    ],
    mutations,
    chains: 15,
    seed: 4029,
    render: renderProto,
  })
}
