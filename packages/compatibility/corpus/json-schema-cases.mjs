// JSON Schema cases made by mutation: each edit changes one thing of a base schema (a property added, removed,
// required, retyped; additionalProperties; enum and const; numeric and string bounds; array items; combinations;
// $refs inside the document and to other artifacts), tried in both directions and at several levels, plus pairs of
// edits and chains of 3 to 5 versions for the transitive levels.

const DRAFT7 = 'http://json-schema.org/draft-07/schema#'

const address = {
  type: 'object',
  properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
  required: ['street'],
}

const BASES = {
  person: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      name: { type: 'string', maxLength: 50 },
      email: { type: 'string' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      tags: { type: 'array', items: { type: 'string' } },
      status: { type: 'string', enum: ['active', 'inactive'] },
      address,
    },
    required: ['id', 'name'],
  },
  closed: {
    $schema: DRAFT7,
    type: 'object',
    properties: {
      kind: { const: 'user' },
      score: { type: 'number', exclusiveMinimum: 0, multipleOf: 0.5 },
      level: { type: 'integer', minimum: 1, maximum: 10 },
      code: { type: 'string', minLength: 2, maxLength: 8 },
      items: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 10 },
      choice: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
      opt: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      color: { enum: ['red', 'green', 'blue'] },
    },
    additionalProperties: false,
    required: ['kind'],
  },
  referencing: {
    type: 'object',
    properties: { id: { type: 'string' }, home: { $ref: 'address.json' } },
    required: ['id'],
  },
  definitions: {
    definitions: {
      Item: {
        type: 'object',
        properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
        required: ['sku'],
      },
    },
    type: 'object',
    properties: {
      lines: { type: 'array', items: { $ref: '#/definitions/Item' } },
      main: { $ref: '#/definitions/Item' },
    },
  },
  mapLike: {
    $schema: DRAFT7,
    type: 'object',
    properties: { a: { type: 'string' }, n: { type: 'number' } },
    additionalProperties: { type: 'string' },
  },
}

const REFERENCES = {
  referencing: { 'address.json': JSON.stringify(address) },
}

const clone = (value) => structuredClone(value)

/** An edit: a name, the base it applies to, and what it does to a copy. */
const EDITS = [
  // properties and required
  [
    'person',
    'add-optional-property',
    (s) => {
      s.properties.nick = { type: 'string' }
    },
  ],
  [
    'person',
    'add-required-property',
    (s) => {
      s.properties.nick = { type: 'string' }
      s.required.push('nick')
    },
  ],
  [
    'person',
    'remove-property',
    (s) => {
      delete s.properties.email
    },
  ],
  [
    'person',
    'remove-required-property',
    (s) => {
      delete s.properties.name
      s.required = ['id']
    },
  ],
  [
    'person',
    'require-existing',
    (s) => {
      s.required.push('email')
    },
  ],
  [
    'person',
    'unrequire',
    (s) => {
      s.required = ['id']
    },
  ],
  [
    'person',
    'nested-require',
    (s) => {
      s.properties.address.required.push('zip')
    },
  ],
  [
    'person',
    'nested-add-property',
    (s) => {
      s.properties.address.properties.city = { type: 'string' }
    },
  ],
  [
    'person',
    'nested-remove-property',
    (s) => {
      delete s.properties.address.properties.zip
    },
  ],
  // types
  [
    'person',
    'integer-to-number',
    (s) => {
      s.properties.age.type = 'number'
    },
  ],
  [
    'person',
    'integer-to-string',
    (s) => {
      s.properties.id = { type: 'string' }
    },
  ],
  [
    'person',
    'string-nullable',
    (s) => {
      s.properties.email.type = ['string', 'null']
    },
  ],
  [
    'person',
    'string-to-empty',
    (s) => {
      s.properties.email = {}
    },
  ],
  [
    'person',
    'array-items-type',
    (s) => {
      s.properties.tags.items.type = 'integer'
    },
  ],
  [
    'person',
    'array-items-removed',
    (s) => {
      delete s.properties.tags.items
    },
  ],
  [
    'person',
    'array-min-items',
    (s) => {
      s.properties.tags.minItems = 1
    },
  ],
  [
    'person',
    'array-unique',
    (s) => {
      s.properties.tags.uniqueItems = true
    },
  ],
  // additionalProperties
  [
    'person',
    'close-object',
    (s) => {
      s.additionalProperties = false
    },
  ],
  [
    'person',
    'additional-schema',
    (s) => {
      s.additionalProperties = { type: 'string' }
    },
  ],
  [
    'closed',
    'open-object',
    (s) => {
      delete s.additionalProperties
    },
  ],
  [
    'closed',
    'closed-add-property',
    (s) => {
      s.properties.extra = { type: 'boolean' }
    },
  ],
  [
    'closed',
    'closed-remove-property',
    (s) => {
      delete s.properties.color
    },
  ],
  [
    'mapLike',
    'additional-schema-widened',
    (s) => {
      s.additionalProperties = {}
    },
  ],
  [
    'mapLike',
    'additional-schema-retyped',
    (s) => {
      s.additionalProperties = { type: 'integer' }
    },
  ],
  [
    'mapLike',
    'map-add-string-property',
    (s) => {
      s.properties.b = { type: 'string' }
    },
  ],
  [
    'mapLike',
    'map-remove-number-property',
    (s) => {
      delete s.properties.n
    },
  ],
  [
    'mapLike',
    'map-remove-string-property',
    (s) => {
      delete s.properties.a
    },
  ],
  // enum and const
  [
    'person',
    'enum-add',
    (s) => {
      s.properties.status.enum.push('banned')
    },
  ],
  [
    'person',
    'enum-remove',
    (s) => {
      s.properties.status.enum = ['active']
    },
  ],
  [
    'closed',
    'enum-only-add',
    (s) => {
      s.properties.color.enum.push('black')
    },
  ],
  [
    'closed',
    'enum-only-remove',
    (s) => {
      s.properties.color.enum = ['red', 'green']
    },
  ],
  [
    'closed',
    'enum-to-const',
    (s) => {
      s.properties.color = { const: 'red' }
    },
  ],
  [
    'closed',
    'const-change',
    (s) => {
      s.properties.kind.const = 'admin'
    },
  ],
  [
    'closed',
    'const-to-enum',
    (s) => {
      s.properties.kind = { enum: ['user', 'admin'] }
    },
  ],
  [
    'person',
    'draft4-const-ignored',
    (s) => {
      s.properties.email = { type: 'string', const: 'x' }
    },
  ],
  // numeric bounds
  [
    'person',
    'minimum-raised',
    (s) => {
      s.properties.age.minimum = 18
    },
  ],
  [
    'person',
    'minimum-removed',
    (s) => {
      delete s.properties.age.minimum
    },
  ],
  [
    'person',
    'maximum-lowered',
    (s) => {
      s.properties.age.maximum = 120
    },
  ],
  [
    'person',
    'maximum-raised',
    (s) => {
      s.properties.age.maximum = 200
    },
  ],
  [
    'person',
    'draft4-exclusive-flag',
    (s) => {
      s.properties.age.exclusiveMinimum = true
    },
  ],
  [
    'person',
    'multiple-of-added',
    (s) => {
      s.properties.age.multipleOf = 1
    },
  ],
  [
    'closed',
    'exclusive-minimum-raised',
    (s) => {
      s.properties.score.exclusiveMinimum = 1
    },
  ],
  [
    'closed',
    'exclusive-to-inclusive',
    (s) => {
      delete s.properties.score.exclusiveMinimum
      s.properties.score.minimum = 0
    },
  ],
  [
    'closed',
    'exclusive-maximum-added',
    (s) => {
      s.properties.level.exclusiveMaximum = 10
    },
  ],
  [
    'closed',
    'multiple-of-divisor',
    (s) => {
      s.properties.score.multipleOf = 0.25
    },
  ],
  [
    'closed',
    'multiple-of-multiple',
    (s) => {
      s.properties.score.multipleOf = 1.5
    },
  ],
  [
    'closed',
    'integer-to-number',
    (s) => {
      s.properties.level.type = 'number'
    },
  ],
  [
    'closed',
    'number-to-integer',
    (s) => {
      s.properties.score.type = 'integer'
    },
  ],
  // string bounds
  [
    'person',
    'max-length-lowered',
    (s) => {
      s.properties.name.maxLength = 20
    },
  ],
  [
    'person',
    'max-length-removed',
    (s) => {
      delete s.properties.name.maxLength
    },
  ],
  [
    'person',
    'min-length-added',
    (s) => {
      s.properties.email.minLength = 3
    },
  ],
  [
    'person',
    'pattern-added',
    (s) => {
      s.properties.email.pattern = '^.+@.+$'
    },
  ],
  [
    'person',
    'pattern-changed',
    (s) => {
      s.properties.address.properties.zip.pattern = '^[0-9]{4,5}$'
    },
  ],
  [
    'person',
    'format-added',
    (s) => {
      s.properties.email.format = 'email'
    },
  ],
  [
    'closed',
    'min-length-lowered',
    (s) => {
      s.properties.code.minLength = 1
    },
  ],
  [
    'closed',
    'max-length-raised',
    (s) => {
      s.properties.code.maxLength = 16
    },
  ],
  [
    'closed',
    'array-max-items-lowered',
    (s) => {
      s.properties.items.maxItems = 5
    },
  ],
  [
    'closed',
    'array-min-items-removed',
    (s) => {
      delete s.properties.items.minItems
    },
  ],
  // combinations
  [
    'closed',
    'one-of-branch-added',
    (s) => {
      s.properties.choice.oneOf.push({ type: 'boolean' })
    },
  ],
  [
    'closed',
    'one-of-branch-removed',
    (s) => {
      s.properties.choice.oneOf.pop()
    },
  ],
  [
    'closed',
    'one-of-to-any-of',
    (s) => {
      s.properties.choice = { anyOf: s.properties.choice.oneOf }
    },
  ],
  [
    'closed',
    'any-of-branch-removed',
    (s) => {
      s.properties.opt.anyOf.pop()
    },
  ],
  [
    'closed',
    'any-of-branch-narrowed',
    (s) => {
      s.properties.opt.anyOf[0].maxLength = 3
    },
  ],
  [
    'closed',
    'all-of-added',
    (s) => {
      s.properties.code = { allOf: [{ type: 'string' }, { minLength: 2 }] }
    },
  ],
  [
    'closed',
    'not-added',
    (s) => {
      s.properties.code = { not: { type: 'null' } }
    },
  ],
  // references
  [
    'referencing',
    'ref-inlined',
    (s) => {
      s.properties.home = clone(address)
    },
  ],
  [
    'referencing',
    'ref-inlined-narrower',
    (s) => {
      s.properties.home = clone(address)
      s.properties.home.required.push('zip')
    },
  ],
  [
    'referencing',
    'ref-sibling-added',
    (s) => {
      s.properties.work = { $ref: 'address.json' }
    },
  ],
  [
    'referencing',
    'ref-replaced-by-string',
    (s) => {
      s.properties.home = { type: 'string' }
    },
  ],
  [
    'referencing',
    'ref-required',
    (s) => {
      s.required.push('home')
    },
  ],
  [
    'definitions',
    'definition-require',
    (s) => {
      s.definitions.Item.required.push('qty')
    },
  ],
  [
    'definitions',
    'definition-add-property',
    (s) => {
      s.definitions.Item.properties.note = { type: 'string' }
    },
  ],
  [
    'definitions',
    'definition-minimum',
    (s) => {
      s.definitions.Item.properties.qty.minimum = 5
    },
  ],
  [
    'definitions',
    'definition-inlined',
    (s) => {
      s.properties.main = clone(s.definitions.Item)
    },
  ],
  [
    'definitions',
    'definition-items-string',
    (s) => {
      s.properties.lines.items = { type: 'string' }
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
  const schema = clone(BASES[baseName])
  for (const edit of edits) edit(schema)
  return schema
}

function seeded(seed) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

/** Every JSON Schema case: `{ id, level, existing, proposed, references? }`. */
export function jsonSchemaCases() {
  const cases = []
  const push = (id, level, baseName, existing, proposed) => {
    const item = {
      id,
      level,
      existing: existing.map((s) => JSON.stringify(s)),
      proposed: JSON.stringify(proposed),
    }
    if (REFERENCES[baseName] !== undefined) item.references = REFERENCES[baseName]
    cases.push(item)
  }
  let turn = 0
  for (const [baseName, name, edit] of EDITS) {
    const base = BASES[baseName]
    const edited = apply(baseName, [edit])
    // the edit made, at the three basic levels in turn, and the edit undone at another one
    push(`json-${baseName}-${name}`, LEVELS[turn % 3], baseName, [base], edited)
    push(`json-${baseName}-${name}-undone`, LEVELS[(turn + 1) % 3], baseName, [edited], base)
    push(`json-${baseName}-${name}-full`, 'FULL', baseName, [base], edited)
    turn++
  }
  const random = seeded(29)
  const byBase = new Map()
  for (const [baseName, name, edit] of EDITS) {
    if (!byBase.has(baseName)) byBase.set(baseName, [])
    byBase.get(baseName).push([name, edit])
  }
  const pick = (list) => list[Math.floor(random() * list.length)]
  // pairs of edits of one base
  for (let index = 0; index < 24; index++) {
    const baseName = pick([...byBase.keys()])
    const edits = byBase.get(baseName)
    const first = pick(edits)
    const second = pick(edits)
    if (first === second) continue
    const edited = apply(baseName, [first[1], second[1]])
    push(
      `json-pair-${index}-${first[0]}+${second[0]}`,
      pick(LEVELS.slice(0, 3)),
      baseName,
      [BASES[baseName]],
      edited,
    )
  }
  // chains: each version one edit more than the one before, checked transitively and against the latest only
  for (let index = 0; index < 16; index++) {
    const baseName = pick([...byBase.keys()])
    const edits = byBase.get(baseName)
    const length = 3 + Math.floor(random() * 3)
    const chain = [BASES[baseName]]
    const applied = []
    const names = []
    while (chain.length < length) {
      const [name, edit] = pick(edits)
      if (names.includes(name)) continue
      try {
        const next = apply(baseName, [...applied, edit])
        applied.push(edit)
        names.push(name)
        chain.push(next)
      } catch {
        names.push(name)
      }
    }
    const proposed = chain.pop()
    const level = LEVELS[3 + (index % 3)]
    push(`json-chain-${index}-${names.join('+')}`, level, baseName, chain, proposed)
    push(`json-chain-${index}-latest`, level.replace('_TRANSITIVE', ''), baseName, chain, proposed)
  }
  return dedupe(cases)
}

function dedupe(cases) {
  const seen = new Set()
  return cases.filter((item) => {
    const key = JSON.stringify([item.level, item.existing, item.proposed])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
