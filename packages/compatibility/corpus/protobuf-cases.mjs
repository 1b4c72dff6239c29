// Protobuf cases made by mutation of a few .proto files held as data: fields added, removed (with and without
// `reserved`), renamed, renumbered and retyped; labels; `reserved` ranges and names; `oneof`; maps; nested and
// imported messages; enums; packages; services. Each edit is tried in both directions and at several levels, plus
// pairs of edits and chains of 3 to 5 versions for the transitive levels.

const MONEY =
  'syntax = "proto3";\npackage common;\n\nmessage Money {\n  string currency = 1;\n  int64 units = 2;\n}\n'

const BASES = {
  order: {
    syntax: 'proto3',
    package: 'shop.v1',
    imports: ['common/money.proto'],
    messages: [
      {
        name: 'Order',
        fields: [
          ['', 'string', 'id', 1],
          ['', 'int32', 'quantity', 2],
          ['repeated', 'string', 'tags', 3],
          ['', 'map<string, string>', 'labels', 4],
          ['', 'Customer', 'customer', 5],
          ['', 'common.Money', 'total', 6],
          ['', 'Status', 'status', 9],
          ['repeated', 'Line', 'lines', 10],
        ],
        oneofs: [
          {
            name: 'payment',
            fields: [
              ['', 'string', 'card', 7],
              ['', 'string', 'iban', 8],
            ],
          },
        ],
        reserved: ['15, 20 to 22', '"legacy"'],
        messages: [
          {
            name: 'Line',
            fields: [
              ['', 'string', 'sku', 1],
              ['', 'int64', 'count', 2],
            ],
            oneofs: [],
            reserved: [],
            messages: [],
            enums: [],
          },
        ],
        enums: [],
      },
      {
        name: 'Customer',
        fields: [
          ['', 'string', 'name', 1],
          ['', 'string', 'email', 2],
        ],
        oneofs: [],
        reserved: [],
        messages: [],
        enums: [],
      },
    ],
    enums: [
      {
        name: 'Status',
        values: [
          ['STATUS_UNKNOWN', 0],
          ['STATUS_NEW', 1],
          ['STATUS_DONE', 2],
        ],
      },
    ],
    services: [
      {
        name: 'OrderService',
        rpcs: [
          ['Get', 'Order', 'Order'],
          ['Watch', 'Customer', 'stream Order'],
        ],
      },
    ],
  },
  legacy: {
    syntax: 'proto2',
    package: 'legacy',
    imports: [],
    messages: [
      {
        name: 'Event',
        fields: [
          ['required', 'string', 'id', 1],
          ['optional', 'int32', 'count', 2],
          ['repeated', 'string', 'tags', 3],
          ['optional', 'Kind', 'kind', 4],
        ],
        oneofs: [],
        reserved: ['9'],
        messages: [],
        enums: [
          {
            name: 'Kind',
            values: [
              ['A', 0],
              ['B', 1],
            ],
          },
        ],
      },
    ],
    enums: [],
    services: [],
  },
  plain: {
    syntax: 'proto3',
    package: '',
    imports: [],
    messages: [
      {
        name: 'Reading',
        fields: [
          ['', 'double', 'value', 1],
          ['', 'float', 'ratio', 2],
          ['', 'sint32', 'delta', 3],
          ['', 'bytes', 'raw', 4],
          ['', 'map<string, int64>', 'counters', 5],
          ['', 'Reading.Unit', 'unit', 6],
        ],
        oneofs: [],
        reserved: [],
        messages: [],
        enums: [
          {
            name: 'Unit',
            values: [
              ['UNIT_NONE', 0],
              ['UNIT_C', 1],
            ],
          },
        ],
      },
    ],
    enums: [],
    services: [],
  },
}

const REFERENCES = { order: { 'common/money.proto': MONEY } }

function renderField([label, type, name, number, options]) {
  return `${label === '' ? '' : `${label} `}${type} ${name} = ${number}${options === undefined ? '' : ` [${options}]`};`
}

function renderMessage(message, indent) {
  const pad = ' '.repeat(indent)
  const lines = [`${pad}message ${message.name} {`]
  for (const field of message.fields) lines.push(`${pad}  ${renderField(field)}`)
  for (const oneof of message.oneofs) {
    lines.push(`${pad}  oneof ${oneof.name} {`)
    for (const field of oneof.fields) lines.push(`${pad}    ${renderField(field)}`)
    lines.push(`${pad}  }`)
  }
  for (const reserved of message.reserved) lines.push(`${pad}  reserved ${reserved};`)
  for (const nested of message.messages) lines.push(renderMessage(nested, indent + 2))
  for (const item of message.enums) lines.push(renderEnum(item, indent + 2))
  lines.push(`${pad}}`)
  return lines.join('\n')
}

function renderEnum(item, indent) {
  const pad = ' '.repeat(indent)
  return [
    `${pad}enum ${item.name} {`,
    ...item.values.map(([name, number]) => `${pad}  ${name} = ${number};`),
    `${pad}}`,
  ].join('\n')
}

/** The .proto text of a file held as data. */
export function renderProto(file) {
  const parts = [`syntax = "${file.syntax}";`]
  if (file.package !== '') parts.push(`package ${file.package};`)
  for (const path of file.imports) parts.push(`import "${path}";`)
  parts.push('')
  for (const message of file.messages) parts.push(renderMessage(message, 0))
  for (const item of file.enums) parts.push(renderEnum(item, 0))
  for (const service of file.services) {
    parts.push(`service ${service.name} {`)
    for (const [name, request, response] of service.rpcs)
      parts.push(`  rpc ${name} (${request}) returns (${response});`)
    parts.push('}')
  }
  return `${parts.join('\n')}\n`
}

const clone = (value) => structuredClone(value)
const order = (f) => f.messages[0]
const field = (message, name) => message.fields.find((item) => item[2] === name)
const without = (message, name) => {
  message.fields = message.fields.filter((item) => item[2] !== name)
}

const EDITS = [
  [
    'order',
    'add-field',
    (f) => {
      order(f).fields.push(['', 'string', 'note', 11])
    },
  ],
  [
    'order',
    'add-repeated-message-field',
    (f) => {
      order(f).fields.push(['repeated', 'Customer', 'others', 12])
    },
  ],
  [
    'order',
    'add-field-on-reserved-number',
    (f) => {
      order(f).fields.push(['', 'string', 'note', 15])
    },
  ],
  [
    'order',
    'add-field-on-reserved-name',
    (f) => {
      order(f).fields.push(['', 'string', 'legacy', 11])
    },
  ],
  [
    'order',
    'remove-field',
    (f) => {
      without(order(f), 'quantity')
    },
  ],
  [
    'order',
    'remove-field-reserve-number',
    (f) => {
      without(order(f), 'quantity')
      order(f).reserved.push('2')
    },
  ],
  [
    'order',
    'remove-field-reserve-name',
    (f) => {
      without(order(f), 'quantity')
      order(f).reserved.push('"quantity"')
    },
  ],
  [
    'order',
    'remove-field-reserve-both',
    (f) => {
      without(order(f), 'quantity')
      order(f).reserved.push('2', '"quantity"')
    },
  ],
  [
    'order',
    'rename-field',
    (f) => {
      field(order(f), 'quantity')[2] = 'qty'
    },
  ],
  [
    'order',
    'renumber-field',
    (f) => {
      field(order(f), 'quantity')[3] = 12
    },
  ],
  [
    'order',
    'int32-to-int64',
    (f) => {
      field(order(f), 'quantity')[1] = 'int64'
    },
  ],
  [
    'order',
    'int32-to-uint32',
    (f) => {
      field(order(f), 'quantity')[1] = 'uint32'
    },
  ],
  [
    'order',
    'string-to-bytes',
    (f) => {
      field(order(f), 'id')[1] = 'bytes'
    },
  ],
  [
    'order',
    'message-type-changed',
    (f) => {
      field(order(f), 'customer')[1] = 'Order.Line'
    },
  ],
  [
    'order',
    'type-qualified',
    (f) => {
      field(order(f), 'customer')[1] = 'shop.v1.Customer'
    },
  ],
  [
    'order',
    'type-fully-qualified',
    (f) => {
      field(order(f), 'customer')[1] = '.shop.v1.Customer'
    },
  ],
  [
    'order',
    'nested-type-qualified',
    (f) => {
      field(order(f), 'lines')[1] = 'Order.Line'
    },
  ],
  [
    'order',
    'label-repeated-added',
    (f) => {
      field(order(f), 'quantity')[0] = 'repeated'
    },
  ],
  [
    'order',
    'label-optional-added',
    (f) => {
      field(order(f), 'quantity')[0] = 'optional'
    },
  ],
  [
    'order',
    'label-repeated-removed',
    (f) => {
      field(order(f), 'tags')[0] = ''
    },
  ],
  [
    'order',
    'map-value-changed',
    (f) => {
      field(order(f), 'labels')[1] = 'map<string, int32>'
    },
  ],
  [
    'order',
    'map-key-changed',
    (f) => {
      field(order(f), 'labels')[1] = 'map<int32, string>'
    },
  ],
  [
    'order',
    'map-to-repeated',
    (f) => {
      field(order(f), 'labels')[0] = 'repeated'
      field(order(f), 'labels')[1] = 'string'
    },
  ],
  [
    'order',
    'reserved-range-removed',
    (f) => {
      order(f).reserved = ['"legacy"']
    },
  ],
  [
    'order',
    'reserved-name-removed',
    (f) => {
      order(f).reserved = ['15, 20 to 22']
    },
  ],
  [
    'order',
    'reserved-added',
    (f) => {
      order(f).reserved.push('30 to 40')
    },
  ],
  [
    'order',
    'oneof-field-added',
    (f) => {
      order(f).oneofs[0].fields.push(['', 'string', 'voucher', 11])
    },
  ],
  [
    'order',
    'oneof-field-removed',
    (f) => {
      order(f).oneofs[0].fields.pop()
    },
  ],
  [
    'order',
    'field-into-oneof',
    (f) => {
      without(order(f), 'quantity')
      order(f).oneofs.push({ name: 'amount', fields: [['', 'int32', 'quantity', 2]] })
    },
  ],
  [
    'order',
    'field-out-of-oneof',
    (f) => {
      order(f).oneofs[0].fields.pop()
      order(f).fields.push(['', 'string', 'iban', 8])
    },
  ],
  [
    'order',
    'oneof-renamed',
    (f) => {
      order(f).oneofs[0].name = 'method'
    },
  ],
  [
    'order',
    'nested-field-retyped',
    (f) => {
      field(order(f).messages[0], 'count')[1] = 'int32'
    },
  ],
  [
    'order',
    'nested-field-added',
    (f) => {
      order(f).messages[0].fields.push(['', 'string', 'name', 3])
    },
  ],
  [
    'order',
    'nested-field-removed',
    (f) => {
      without(order(f).messages[0], 'count')
    },
  ],
  [
    'order',
    'nested-field-renamed',
    (f) => {
      field(order(f).messages[0], 'sku')[2] = 'code'
    },
  ],
  [
    'order',
    'other-message-field-removed',
    (f) => {
      without(f.messages[1], 'email')
    },
  ],
  [
    'order',
    'other-message-removed',
    (f) => {
      f.messages.pop()
      field(order(f), 'customer')[1] = 'string'
    },
  ],
  [
    'order',
    'message-added',
    (f) => {
      f.messages.push({
        name: 'Refund',
        fields: [['', 'string', 'reason', 1]],
        oneofs: [],
        reserved: [],
        messages: [],
        enums: [],
      })
    },
  ],
  [
    'order',
    'enum-value-added',
    (f) => {
      f.enums[0].values.push(['STATUS_CANCELLED', 3])
    },
  ],
  [
    'order',
    'enum-value-removed',
    (f) => {
      f.enums[0].values.pop()
    },
  ],
  [
    'order',
    'enum-value-renumbered',
    (f) => {
      f.enums[0].values[2][1] = 5
    },
  ],
  [
    'order',
    'enum-value-renamed',
    (f) => {
      f.enums[0].values[2][0] = 'STATUS_FINISHED'
    },
  ],
  [
    'order',
    'package-changed',
    (f) => {
      f.package = 'shop.v2'
    },
  ],
  [
    'order',
    'imported-type-changed',
    (f) => {
      field(order(f), 'total')[1] = 'common.Amount'
    },
  ],
  [
    'order',
    'imported-field-removed',
    (f) => {
      without(order(f), 'total')
    },
  ],
  [
    'order',
    'rpc-removed',
    (f) => {
      f.services[0].rpcs.pop()
    },
  ],
  [
    'order',
    'rpc-signature-changed',
    (f) => {
      f.services[0].rpcs[0][2] = 'stream Order'
    },
  ],
  [
    'order',
    'rpc-added',
    (f) => {
      f.services[0].rpcs.push(['List', 'Customer', 'stream Order'])
    },
  ],
  [
    'order',
    'field-option-added',
    (f) => {
      field(order(f), 'tags')[4] = 'packed = false'
    },
  ],
  [
    'legacy',
    'required-field-added',
    (f) => {
      order(f).fields.push(['required', 'string', 'source', 5])
    },
  ],
  [
    'legacy',
    'optional-field-added',
    (f) => {
      order(f).fields.push(['optional', 'string', 'source', 5])
    },
  ],
  [
    'legacy',
    'optional-to-required',
    (f) => {
      field(order(f), 'count')[0] = 'required'
    },
  ],
  [
    'legacy',
    'required-removed',
    (f) => {
      without(order(f), 'id')
    },
  ],
  [
    'legacy',
    'default-added',
    (f) => {
      field(order(f), 'count')[4] = 'default = 1'
    },
  ],
  [
    'legacy',
    'nested-enum-value-added',
    (f) => {
      order(f).enums[0].values.push(['C', 2])
    },
  ],
  [
    'legacy',
    'reserved-reused',
    (f) => {
      order(f).fields.push(['optional', 'int32', 'size', 9])
    },
  ],
  [
    'legacy',
    'to-proto3',
    (f) => {
      f.syntax = 'proto3'
      for (const item of order(f).fields) if (item[0] !== 'repeated') item[0] = ''
    },
  ],
  [
    'plain',
    'double-to-float',
    (f) => {
      field(order(f), 'value')[1] = 'float'
    },
  ],
  [
    'plain',
    'float-to-double',
    (f) => {
      field(order(f), 'ratio')[1] = 'double'
    },
  ],
  [
    'plain',
    'sint32-to-int32',
    (f) => {
      field(order(f), 'delta')[1] = 'int32'
    },
  ],
  [
    'plain',
    'bytes-to-string',
    (f) => {
      field(order(f), 'raw')[1] = 'string'
    },
  ],
  [
    'plain',
    'map-value-int32',
    (f) => {
      field(order(f), 'counters')[1] = 'map<string, int32>'
    },
  ],
  [
    'plain',
    'nested-enum-unqualified',
    (f) => {
      field(order(f), 'unit')[1] = 'Unit'
    },
  ],
  [
    'plain',
    'package-added',
    (f) => {
      f.package = 'metrics'
    },
  ],
  [
    'plain',
    'field-removed-all',
    (f) => {
      order(f).fields = []
    },
  ],
]

const LEVELS = [
  'BACKWARD',
  'FORWARD',
  'FULL',
  'BACKWARD_TRANSITIVE',
  'FORWARD_TRANSITIVE',
  'FULL_TRANSITIVE',
  'NONE',
]

function apply(baseName, edits) {
  const file = clone(BASES[baseName])
  for (const edit of edits) edit(file)
  return file
}

function seeded(seed) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** Every Protobuf case: `{ id, level, existing, proposed, references? }`. */
export function protobufCases() {
  const cases = []
  const push = (id, level, baseName, existing, proposed) => {
    const item = { id, level, existing: existing.map(renderProto), proposed: renderProto(proposed) }
    if (REFERENCES[baseName] !== undefined) item.references = REFERENCES[baseName]
    cases.push(item)
  }
  let turn = 0
  for (const [baseName, name, edit] of EDITS) {
    const base = BASES[baseName]
    const edited = apply(baseName, [edit])
    push(`protobuf-${baseName}-${name}`, 'BACKWARD', baseName, [base], edited)
    push(`protobuf-${baseName}-${name}-forward`, 'FORWARD', baseName, [base], edited)
    push(`protobuf-${baseName}-${name}-undone`, LEVELS[turn % 3], baseName, [edited], base)
    turn++
  }
  const random = seeded(29)
  const byBase = new Map()
  for (const [baseName, name, edit] of EDITS) {
    if (!byBase.has(baseName)) byBase.set(baseName, [])
    byBase.get(baseName).push([name, edit])
  }
  const pick = (list) => list[Math.floor(random() * list.length)]
  for (let index = 0; index < 20; index++) {
    const baseName = pick([...byBase.keys()])
    const edits = byBase.get(baseName)
    const first = pick(edits)
    const second = pick(edits)
    if (first === second) continue
    let edited
    try {
      edited = apply(baseName, [first[1], second[1]])
    } catch {
      continue
    }
    push(
      `protobuf-pair-${index}-${first[0]}+${second[0]}`,
      pick(LEVELS.slice(0, 3)),
      baseName,
      [BASES[baseName]],
      edited,
    )
  }
  for (let index = 0; index < 16; index++) {
    const baseName = pick([...byBase.keys()])
    const edits = byBase.get(baseName)
    const length = 3 + Math.floor(random() * 3)
    const chain = [BASES[baseName]]
    const applied = []
    const names = []
    while (chain.length < length && names.length < edits.length) {
      const [name, edit] = pick(edits)
      if (names.includes(name)) continue
      names.push(name)
      try {
        chain.push(apply(baseName, [...applied, edit]))
        applied.push(edit)
      } catch {
        // an edit that no longer applies after the ones before it is skipped
      }
    }
    const proposed = chain.pop()
    const level = LEVELS[3 + (index % 3)]
    push(`protobuf-chain-${index}`, level, baseName, chain, proposed)
    push(`protobuf-chain-${index}-latest`, level.replace('_TRANSITIVE', ''), baseName, chain, proposed)
  }
  const seen = new Set()
  return cases.filter((item) => {
    const key = JSON.stringify([item.level, item.existing, item.proposed])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
