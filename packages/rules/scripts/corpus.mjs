#!/usr/bin/env node
// Generates the differential corpus (corpus/cases.json) and records, for every case, the answer of a real Apicurio
// Registry 3.3's execute or migrate endpoint:
//
//   node packages/rules/scripts/corpus.mjs http://127.0.0.1:18080/apis/registry/v3
//
// Each case gets its own artifact in a new group `rules-engine-corpus-<time>`; rulesets are set at the artifact and
// version levels only. Records and answers are kept as JSON text, so integers beyond 2^53 stay exact.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))

/** A double whose value may be integral: written with a fraction (`5.0`), which the registry reads as a double. */
class Double {
  constructor(value) {
    this.value = value
  }
}

/** `value` as a double of a record (see {@link exactJson}). */
export function double(value) {
  return new Double(value)
}

/** JSON text of a value whose integers may be `bigint`s, and whose doubles made by {@link double} keep a fraction. */
export function exactJson(value) {
  const marks = []
  const text = JSON.stringify(value, (_key, item) => {
    if (typeof item === 'bigint') marks.push(item.toString())
    else if (item instanceof Double)
      marks.push(Number.isInteger(item.value) ? `${item.value}.0` : String(item.value))
    else return item
    return `@@number:${marks.length - 1}@@`
  })
  return text.replace(/"@@number:(\d+)@@"/g, (_match, index) => marks[Number(index)])
}

const cond = (name, expr, extra = {}) => ({
  name,
  kind: 'CONDITION',
  type: 'CEL',
  mode: 'WRITE',
  expr,
  onFailure: 'ERROR',
  ...extra,
})
const celT = (name, expr, extra = {}) => ({
  name,
  kind: 'TRANSFORM',
  type: 'CEL',
  mode: 'WRITE',
  expr,
  ...extra,
})
const jsoT = (name, expr, extra = {}) => ({
  name,
  kind: 'TRANSFORM',
  type: 'JSONATA',
  mode: 'WRITE',
  expr,
  ...extra,
})
const jsoC = (name, expr, extra = {}) => ({
  name,
  kind: 'CONDITION',
  type: 'JSONATA',
  mode: 'WRITE',
  expr,
  onFailure: 'DLQ',
  ...extra,
})

// Records as the registry is sent them: Avro as Apicurio's Java serde sends a GenericRecord (a timestamp-millis as
// its epoch-millisecond long, bytes as an ISO-8859-1 string, one character per byte), JSON as parsed, Protobuf as
// JSON; longs exact (bigints, written as JSON integers by exactJson), enums by name, maps and nested records as
// objects.
const RECORDS = {
  avro: [
    {
      id: 42,
      total: 19.99,
      qty: 3,
      name: 'Widget',
      status: 'ACTIVE',
      createdAt: 1714557600000,
      big: 9007199254740993n,
      whole: double(5),
      tags: ['a', 'b'],
      attrs: { color: 'red', size: 'L' },
      address: { city: 'Oslo', zip: '0150', geo: { lat: 59.9, lon: 10.7 } },
      note: null,
      payload: '\u0001\u0002\u0003',
    },
    {
      id: -1,
      total: -5.5,
      qty: 0,
      name: 'widget x',
      status: 'DELETED',
      createdAt: 1577836799999,
      big: -9007199254740993n,
      whole: double(-2),
      tags: [],
      attrs: {},
      address: { city: '', zip: '99999', geo: { lat: -1.5, lon: 0.25 } },
      note: 'n',
      payload: '',
    },
  ],
  json: [
    {
      orderId: 'o-1',
      amount: 250.75,
      count: 2,
      email: 'a@b.com',
      items: [
        { sku: 'x', price: 2.5, qty: 2 },
        { sku: 'y', price: 10.5, qty: 1 },
      ],
      meta: { source: 'web', ref: 'r1' },
      optional: null,
      when: '2023-12-31T23:59:59Z',
      flags: [true, false],
      ratio: 0.5,
    },
    {
      orderId: '',
      amount: -5.5,
      count: 0,
      email: 'invalid',
      items: [],
      meta: {},
      optional: 'x',
      when: '2030-01-01T00:00:00Z',
      flags: [],
      ratio: 1.25,
    },
  ],
  protobuf: [
    {
      userId: 9223372036854775807n,
      score: 0.5,
      level: 7,
      nickname: 'nick',
      roles: ['admin', 'dev'],
      labels: { env: 'prod', team: 'core' },
      profile: { age: 30, country: 'NO', emails: ['p@x.io'] },
      updatedAt: '2025-01-01T00:00:00Z',
      ttl: '3600s',
      wrapped: 12,
      nothing: null,
      color: 'BLUE',
    },
    {
      userId: 1n,
      score: 2.75,
      level: -3,
      nickname: '',
      roles: [],
      labels: {},
      profile: { age: 17, country: 'SE', emails: [] },
      updatedAt: '1999-06-30T12:30:00.500Z',
      ttl: '0.5s',
      wrapped: 0,
      nothing: null,
      color: 'COLOR_UNSPECIFIED',
    },
  ],
}

// CEL conditions per format: each runs on both records of its format.
const CONDITIONS = {
  avro: [
    'total > 0.0',
    'total > 0',
    'qty >= 1',
    'id == 42',
    'id != 42',
    'qty * 2 == 6',
    'qty + 1 > id',
    'total + 1.0 > 20.0',
    'total + 1 > 20.0',
    'qty / 0 == 0',
    'qty % 2 == 1',
    'double(qty) / 2.0 == 1.5',
    'int(total) == 19',
    'total < 100.0 && qty > 0',
    'size(name) > 3',
    'name.startsWith("Wid")',
    'name.endsWith("get")',
    'name.contains(" ")',
    'name.matches("^[A-Z][a-z]+$")',
    'name + "!" == "Widget!"',
    'name < "Z"',
    'status == "ACTIVE"',
    'status in ["ACTIVE", "PENDING"]',
    'size(tags) == 2',
    '"a" in tags',
    'tags[0] == "a"',
    'tags[5] == "a"',
    'attrs.color == "red"',
    'attrs["size"] == "L"',
    '"color" in attrs',
    'has(attrs.color)',
    'size(attrs) > 0',
    'address.city == "Oslo"',
    'address.geo.lat > 50.0',
    'has(address.geo)',
    'address.geo.lat > address.geo.lon',
    'note == null',
    'note != null',
    'note == "n"',
    'big > 9007199254740992',
    'big == 9007199254740993',
    'big + 1 > big',
    'big * 1024 > 0',
    'tags.all(t, size(t) == 1)',
    'tags.exists(t, t == "b")',
    'tags.exists_one(t, t == "a")',
    'tags.map(t, t + t) == ["aa", "bb"]',
    'tags.filter(t, t != "a") == ["b"]',
    'timestamp(createdAt) > timestamp("2020-01-01T00:00:00Z")',
    'createdAt > 1600000000000',
    'createdAt > "2020"',
    'size(payload) == 3',
    'missing > 0',
    'total > "x"',
    'name > 1',
    'qty > 0 && unknownField',
    'attrs.weight > 1',
    'type(total) == double',
    'type(qty) == int',
    'int(name) == 1',
    'total',
    'name.size() == 6',
    '[1, 2, 3].all(x, x > 0) && qty > 0',
    '{"a": 1}.a == 1',
    'qty > 0 ? total > 0.0 : false',
    'dyn(qty) == 3.0',
    'type(whole) == double',
    'whole == 5.0',
    'whole / 2.0 == 2.5',
    'whole + 1 == 6',
    'whole > 0.0 && total > whole',
  ],
  json: [
    'amount > 0.0',
    'amount > 100',
    'count == 2',
    'count > 0 || amount > 0.0',
    '!(amount < 0.0)',
    'ratio * 2.0 == 1.0',
    'ratio == 0.5',
    'count - 3 < 0',
    'email.contains("@")',
    'email.matches("^[^@]+@[^@]+\\\\.[a-z]+$")',
    'size(orderId) > 0',
    'orderId.startsWith("o-")',
    'orderId == ""',
    'size(items) > 0',
    'items[0].price > 1.0',
    'items[0].sku == "x"',
    'items.all(i, i.price > 0.0)',
    'items.exists(i, i.qty > 1)',
    'items.map(i, i.qty).size() == 2',
    'items.filter(i, i.price > 5.0).size() == 1',
    'items.map(i, i.price * double(i.qty)).exists(p, p > 10.0)',
    'items.all(i, has(i.sku))',
    'meta.source == "web"',
    'has(meta.source)',
    '"ref" in meta',
    'meta.ref.startsWith("r")',
    'optional == null',
    'optional != null && size(optional) > 0',
    'optional > 1',
    'when < "2025"',
    'timestamp(when) < timestamp("2025-01-01T00:00:00Z")',
    'timestamp(when) + duration("24h") > timestamp("2024-01-01T00:00:00Z")',
    'timestamp(when).getMonth() == 11',
    'flags[0]',
    'flags.exists(f, f)',
    'size(flags) == 2',
    'true in flags',
    'items[0].price + items[1].price == 13.0',
    'amount >= count',
    'count == 2.0',
    'nope == 1',
    'amount + count > 0.0',
    'items.all(i, i.qty > 0) && amount > 0.0 && email.endsWith(".com")',
    'meta.missing == "x"',
    'items[2].sku == "z"',
    'string(count) == "2"',
    'double(count) == 2.0',
    'items.exists(i, i.sku == sku)',
    'amount.size() > 0',
    '[amount, ratio].all(v, v > 0.0)',
    'size(meta) == 2 && size(items) == 2',
  ],
  protobuf: [
    'userId > 0',
    'userId == 9223372036854775807',
    'userId > 9007199254740993',
    'userId + 1 > 0',
    'userId - 1 < userId',
    'score > 0.1',
    'score * 2.0 >= 1.0',
    'level > 0',
    'level < 0',
    'level * level == 49',
    'nickname != ""',
    'size(nickname) == 0',
    'nickname.startsWith("n")',
    '"admin" in roles',
    'roles.all(r, r.size() > 2)',
    'roles.exists(r, r == "dev")',
    'roles.exists_one(r, r.startsWith("a"))',
    'roles.filter(r, r != "dev").size() == 1',
    'roles.map(r, size(r)) == [5, 3]',
    'labels.env == "prod"',
    'labels["team"] == "core"',
    '"env" in labels',
    'has(labels.env)',
    'labels.all(k, k.size() > 2)',
    'labels.exists(k, labels[k] == "core")',
    'profile.age >= 18',
    'profile.country in ["NO", "DK"]',
    'has(profile.emails)',
    'size(profile.emails) > 0',
    'profile.emails.all(e, e.contains("@"))',
    'timestamp(updatedAt) > timestamp("2000-01-01T00:00:00Z")',
    'timestamp(updatedAt).getFullYear() >= 2025',
    'duration(ttl) > duration("1m")',
    'duration(ttl).getSeconds() == 3600',
    'wrapped > 10',
    'wrapped == 0',
    'nothing == null',
    'nothing.x == 1',
    'color == "BLUE"',
    'color != "COLOR_UNSPECIFIED"',
    'undefinedThing',
    'userId > "1"',
    'level + score > 0.0',
    'profile.age + level > 20',
    'roles[1] == "dev"',
    'profile.address.city == "x"',
    'level > 0 && score > 0.25 && "admin" in roles',
  ],
}

// Transforms per format: CEL and JSONata, run in WRITE mode.
const TRANSFORMS = {
  avro: [
    [celT('t', '{"id": id, "name": name.upperAscii()}')],
    [celT('t', '{"id": id, "double": qty * 2}')],
    [celT('t', '{"id": id, "tags": tags.map(t, t + "!")}')],
    [celT('t', 'qty + 1')],
    [celT('t', '{"big": big + 1}')],
    [jsoT('t', '$merge([$, {"name": $uppercase(name)}])')],
    [jsoT('t', '$merge([$, {"payload": "***"}])')],
    [jsoT('t', '{"id": id, "total": total * 2}')],
    [jsoT('t', '$sift($, function($v, $k) {$k != "note"})')],
    [jsoT('t', 'address.city')],
    [jsoT('t', '{"cities": [address.city, "x"], "n": $count(tags)}')],
    [jsoT('t', '$merge([$, {"qty": qty + 1}])'), cond('c', 'qty > 1')],
    [jsoT('t', '{"id": id}'), cond('c', 'name == "Widget"')],
    [jsoT('t', '$foo(')],
    [jsoT('t', '$error("masked")')],
    [jsoC('c', 'qty > 0')],
    [jsoC('c', 'name = "Widget" and total > 0')],
    [jsoT('t', '{"w": whole * 2, "h": whole / 2}')],
    [celT('t', '{"w": whole * 2.0, "t": type(whole) == double}')],
  ],
  json: [
    [jsoT('mask', '$merge([$, {"email": "***"}])')],
    [jsoT('t', '$merge([$, {"total": $sum(items.(price * qty))}])')],
    [jsoT('t', '{"skus": items.sku}')],
    [jsoT('t', '{"n": $count(items), "first": items[0].sku}')],
    [jsoT('t', '$merge([$, {"meta": $merge([meta, {"seen": true}])}])')],
    [jsoT('t', 'items')],
    [jsoT('t', '{"amount": $round(amount)}')],
    [jsoT('t', '{"upper": $uppercase(orderId)}')],
    [celT('t', '{"orderId": orderId, "n": size(items)}')],
    [celT('t', '{"amount": amount * 2.0}')],
    [celT('t', '{"e": email.contains("@") ? "ok" : "bad"}')],
    [celT('t', 'items.map(i, i.sku)')],
    [celT('t', '{"items": items.filter(i, i.price > 5.0)}')],
    [
      jsoT('a', '$merge([$, {"step": 1}])'),
      jsoT('b', '$merge([$, {"step": step + 1}])'),
      cond('c', 'step == 2'),
    ],
    [celT('a', '{"x": 1}'), cond('c', 'amount > 0.0')],
    [jsoC('c', 'amount > 0')],
    [jsoC('c', '$count(items) > 1')],
  ],
  protobuf: [
    [jsoT('t', '$merge([$, {"nickname": "anon"}])')],
    [jsoT('t', '{"roles": $join(roles, ",")}')],
    [jsoT('t', '{"age": profile.age + 1}')],
    [jsoT('t', '$merge([$, {"labels": $merge([labels, {"x": "y"}])}])')],
    [celT('t', '{"level": level + 1, "roles": roles}')],
    [celT('t', '{"isAdult": profile.age >= 18}')],
    [celT('t', '{"userId": userId}')],
    [celT('t', '{"userId": userId - 1}')],
    [celT('t', '{"l": labels}')],
    [celT('t', 'userId > 0')],
    [jsoT('t', '"string"')],
    [jsoT('t', '{"c": color}')],
    [jsoC('c', 'level > 0')],
    [jsoC('c', 'nickname')],
    [jsoT('t', '$merge([$, {"level": "x" + 1}])')],
  ],
}

// Rulesets testing actions, modes, disabled rules, unknown types and order; each runs on the first record of a format.
function actionSets() {
  const sets = []
  for (const mode of ['WRITE', 'READ']) {
    sets.push([
      mode,
      [
        cond('r1', 'false', { onFailure: 'NONE' }),
        cond('r2', 'false', { onFailure: 'DLQ' }),
        cond('r3', 'false'),
      ],
    ])
    sets.push([
      mode,
      [
        cond('r1', 'false', { onFailure: 'DLQ' }),
        cond('r2', 'true'),
        cond('r3', 'false', { onFailure: 'NONE' }),
      ],
    ])
    sets.push([
      mode,
      [cond('r1', 'false', { onFailure: undefined }), cond('r2', 'false', { onFailure: 'NONE' })],
    ])
    sets.push([
      mode,
      [cond('w', 'false', { mode: 'WRITE' }), cond('r', 'false', { mode: 'READ', onFailure: 'NONE' })],
    ])
    sets.push([
      mode,
      [cond('wr', 'false', { mode: 'WRITEREAD', onFailure: 'DLQ' }), cond('u', 'false', { mode: 'UPGRADE' })],
    ])
    sets.push([mode, [cond('d', 'false', { disabled: true }), cond('e', 'true', { onSuccess: 'ERROR' })]])
    sets.push([mode, [{ ...cond('x', 'false'), type: 'ENCRYPT' }, cond('y', 'false', { onFailure: 'NONE' })]])
    sets.push([mode, [jsoT('t', '{"only": 1}', { mode }), cond('c', 'only == 1', { mode })]])
    sets.push([
      mode,
      [
        jsoT('t', '{"only": 1}', { mode: 'WRITEREAD' }),
        cond('c', 'has(only)', { mode: 'WRITEREAD', onFailure: 'NONE' }),
      ],
    ])
    sets.push([mode, [cond('z', '1 +'), cond('y', 'true')]])
    sets.push([mode, [cond('z', 'qty.'), cond('y', 'false', { onFailure: 'NONE' })]])
  }
  return sets
}

function versionContent(format, version) {
  if (format === 'avro')
    return {
      type: 'AVRO',
      contentType: 'application/json',
      content: JSON.stringify({ type: 'record', name: `R${version}`, fields: [] }),
    }
  if (format === 'protobuf')
    return {
      type: 'PROTOBUF',
      contentType: 'application/x-protobuf',
      content: `syntax = "proto3";\nmessage R${version} {}\n`,
    }
  return {
    type: 'JSON',
    contentType: 'application/json',
    content: JSON.stringify({ type: 'object', title: `v${version}` }),
  }
}

function migrationCases(format, record) {
  const up = (name, expr, extra = {}) => ({
    name,
    kind: 'TRANSFORM',
    type: 'JSONATA',
    mode: 'UPGRADE',
    expr,
    ...extra,
  })
  const down = (name, expr, extra = {}) => ({
    name,
    kind: 'TRANSFORM',
    type: 'JSONATA',
    mode: 'DOWNGRADE',
    expr,
    ...extra,
  })
  const celUp = (name, expr) => ({ name, kind: 'TRANSFORM', type: 'CEL', mode: 'UPGRADE', expr })
  const check = (name, expr, mode, onFailure) => ({
    name,
    kind: 'CONDITION',
    type: 'CEL',
    mode,
    expr,
    onFailure,
  })
  const add = (field, value) => `$merge([$, {"${field}": ${value}}])`
  const drop = (field) => `$sift($, function($v, $k) {$k != "${field}"})`
  const chains = [
    [
      [],
      [up('u2', add('v2', 'true')), down('d2', drop('v3'))],
      [up('u3', add('v3', 'true')), down('d3', drop('v4'))],
    ],
    [[], [up('u2', add('v2', '1'))], [celUp('u3', '{"v3": 3}')], [up('u4', add('v4', '4'))]],
    [
      [],
      [up('u2', add('v2', '1')), check('c2', 'v2 == 1', 'UPGRADE', 'ERROR')],
      [up('u3', add('v3', '$.v2 + 1')), check('c3', 'v3 == 99', 'UPGRADE', 'NONE')],
      [up('u4', add('v4', '4'))],
    ],
    [
      [],
      [up('u2', add('v2', '1'), { disabled: true }), down('d2', drop('v3'))],
      [up('u3', add('v3', '1')), { ...up('w3', add('w3', '1')), mode: 'WRITEREAD' }],
    ],
    [
      [],
      [check('c2', 'missing > 0', 'UPGRADE', 'DLQ'), up('u2', add('v2', '1'))],
      [up('u3', add('v3', '1'))],
    ],
    [[], [up('u2', '$foo(')], [up('u3', add('v3', '1'))]],
    [[], [down('d2', drop('v3')), check('dc', 'false', 'DOWNGRADE', 'NONE')], [down('d3', drop('v4'))], []],
  ]
  const hops = [
    ['1', '2'],
    ['1', '3'],
    ['2', '3'],
    ['3', '1'],
    ['2', '1'],
    ['3', '2'],
    ['1', '1'],
  ]
  const cases = []
  chains.forEach((chain, chainIndex) => {
    for (const [fromVersion, toVersion] of hops) {
      if (Number(toVersion) > chain.length || Number(fromVersion) > chain.length) continue
      const versions = chain.map((migrationRules, index) => ({
        version: String(index + 1),
        ruleSet: { domainRules: [], migrationRules },
      }))
      const input = Number(fromVersion) > 1 ? { ...record, v2: 1, v3: true, v4: 4 } : record
      cases.push({
        kind: 'migrate',
        format,
        id: `${format}-migrate-${chainIndex}-${fromVersion}-${toVersion}`,
        versions,
        fromVersion,
        toVersion,
        record: input,
      })
    }
    if (chain.length === 4) {
      const versions = chain.map((migrationRules, index) => ({
        version: String(index + 1),
        ruleSet: { migrationRules },
      }))
      cases.push({
        kind: 'migrate',
        format,
        id: `${format}-migrate-${chainIndex}-1-4`,
        versions,
        fromVersion: '1',
        toVersion: '4',
        record,
      })
      cases.push({
        kind: 'migrate',
        format,
        id: `${format}-migrate-${chainIndex}-4-1`,
        versions,
        fromVersion: '4',
        toVersion: '1',
        record: { ...record, v2: 1, v3: true, v4: 4 },
      })
    }
  })
  return cases
}

/** Every case, in a stable order, without answers. */
export function generateCases() {
  const cases = []
  for (const format of ['avro', 'json', 'protobuf']) {
    const records = RECORDS[format]
    CONDITIONS[format].forEach((expr, index) => {
      records.forEach((record, which) => {
        cases.push({
          kind: 'execute',
          format,
          id: `${format}-cel-${index}-${which}`,
          mode: 'WRITE',
          ruleSet: { domainRules: [cond('rule', expr)] },
          record,
        })
      })
    })
    TRANSFORMS[format].forEach((rules, index) => {
      records.forEach((record, which) => {
        cases.push({
          kind: 'execute',
          format,
          id: `${format}-transform-${index}-${which}`,
          mode: 'WRITE',
          ruleSet: { domainRules: rules },
          record,
        })
      })
    })
    actionSets().forEach(([mode, rules], index) => {
      cases.push({
        kind: 'execute',
        format,
        id: `${format}-actions-${index}`,
        mode,
        ruleSet: { domainRules: rules },
        record: records[0],
      })
    })
    cases.push(...migrationCases(format, records[0]))
  }
  // Merging the artifact and version levels.
  const merges = [
    [
      ['b', 'a', 'd'],
      ['e', 'c', 'a'],
    ],
    [
      ['r', 's'],
      ['v', 'r'],
    ],
    [['a'], []],
    [[], ['a', 'b']],
    [
      ['x', 'y', 'z'],
      ['z', 'y', 'x'],
    ],
    [['p', 'q'], ['q']],
  ]
  merges.forEach(([artifactNames, versionNames], index) => {
    const artifactRuleSet = {
      domainRules: artifactNames.map((name) => cond(name, 'false', { onFailure: 'NONE' })),
    }
    const ruleSet = { domainRules: versionNames.map((name) => cond(name, 'qty > 100', { onFailure: 'DLQ' })) }
    cases.push({
      kind: 'execute',
      format: 'avro',
      id: `merge-${index}`,
      mode: 'WRITE',
      artifactRuleSet,
      ruleSet,
      record: RECORDS.avro[0],
    })
  })
  return cases
}

async function call(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return text
}

/** Sets up the case's artifact on the registry and returns the registry's answer as JSON text. */
export async function askRegistry(base, group, testCase) {
  const versions =
    testCase.kind === 'migrate' ? testCase.versions : [{ version: '1', ruleSet: testCase.ruleSet }]
  const first = versionContent(testCase.format, 1)
  const artifact = encodeURIComponent(testCase.id)
  await call(base, 'POST', `/groups/${group}/artifacts`, {
    artifactId: testCase.id,
    artifactType: first.type,
    firstVersion: { version: '1', content: { content: first.content, contentType: first.contentType } },
  })
  for (const [index, { version, ruleSet }] of versions.entries()) {
    if (index > 0) {
      const content = versionContent(testCase.format, index + 1)
      await call(base, 'POST', `/groups/${group}/artifacts/${artifact}/versions`, {
        version,
        content: { content: content.content, contentType: content.contentType },
      })
    }
    await call(
      base,
      'PUT',
      `/groups/${group}/artifacts/${artifact}/versions/${version}/contract/ruleset`,
      ruleSet,
    )
  }
  if (testCase.artifactRuleSet)
    await call(
      base,
      'PUT',
      `/groups/${group}/artifacts/${artifact}/contract/ruleset`,
      testCase.artifactRuleSet,
    )
  if (testCase.kind === 'migrate') {
    return call(
      base,
      'POST',
      `/groups/${group}/artifacts/${artifact}/contract/migrate`,
      `{"fromVersion":${JSON.stringify(testCase.fromVersion)},"toVersion":${JSON.stringify(testCase.toVersion)},"record":${testCase.recordJson}}`,
    )
  }
  return call(
    base,
    'POST',
    `/groups/${group}/artifacts/${artifact}/versions/1/contract/execute`,
    `{"mode":${JSON.stringify(testCase.mode)},"record":${testCase.recordJson}}`,
  )
}

async function main() {
  const base = process.argv[2]
  if (!base) {
    console.error('usage: node packages/rules/scripts/corpus.mjs <registry v3 base URL>')
    process.exit(2)
  }
  const group = `rules-engine-corpus-${Date.now()}`
  const cases = generateCases().map(({ record, ...rest }) => ({ ...rest, recordJson: exactJson(record) }))
  const leaked = cases.find((testCase) => /@@number|\\u0000/.test(testCase.recordJson))
  if (leaked !== undefined)
    throw new Error(`${leaked.id}: a long or a double was not written as a JSON number`)
  let next = 0
  async function worker() {
    while (next < cases.length) {
      const testCase = cases[next++]
      testCase.answerJson = await askRegistry(base, group, testCase)
    }
  }
  await Promise.all([worker(), worker(), worker(), worker()])
  writeFileSync(join(here, '..', 'corpus', 'cases.json'), `${JSON.stringify(cases, null, 1)}\n`)
  console.log(`${cases.length} cases recorded from ${base} (group ${group})`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main()
