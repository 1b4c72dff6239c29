import type { ContractRule, ContractRuleSet } from '@x/registry-client'
import { avroJavaRecord, jsonJavaRecord, protobufJavaRecord } from './java-record.js'
import { ORDER_AVRO, ORDER_JSON, USER_FIELDS, USER_PROTO } from './schemas.js'
import { AVRO_VALUES, JSON_VALUES, PROTOBUF_VALUES } from './values.js'

/** A format of the differential. */
export type DifferentialFormat = 'avro' | 'json' | 'protobuf'

/** One ruleset of the differential, set on its own artifact (version 1) and run on every value of its format. */
export interface DifferentialRuleset {
  /** The artifact's name in the run's group (its topic, under TopicIdStrategy: `<topic>-value`). */
  topic: string
  format: DifferentialFormat
  ruleSet: ContractRuleSet
}

/** One case: a value of a ruleset's format written (`WRITE`) or read (`READ`) with rules on. */
export interface DifferentialCase {
  id: string
  ruleset: DifferentialRuleset
  mode: 'WRITE' | 'READ'
  /** The value a producer hands to the serializer. */
  value: Record<string, unknown>
  /** The record Java's serde (or, for Protobuf, proto3's JSON) sends to the registry for it, as JSON text. */
  recordJson: string
}

const when = (mode: string) => mode as ContractRule['mode']

/** A condition of both modes that sends a failed record to the dead-letter queue (so later rules still run). */
const check = (name: string, expr: string, onFailure: ContractRule['onFailure'] = 'DLQ'): ContractRule => ({
  name,
  kind: 'CONDITION',
  type: 'CEL',
  mode: when('WRITEREAD'),
  expr,
  onFailure,
})
const jsonataCheck = (name: string, expr: string): ContractRule => ({
  ...check(name, expr),
  type: 'JSONATA',
})
const transform = (name: string, mode: string, expr: string, type = 'JSONATA'): ContractRule => ({
  name,
  kind: 'TRANSFORM',
  type,
  mode: when(mode),
  expr,
})
const rules = (...domainRules: ContractRule[]): ContractRuleSet => ({ domainRules, migrationRules: [] })

const AVRO_RULESETS: ContractRuleSet[] = [
  rules(
    check('total-is-double', 'type(total) == double'),
    check('whole-is-double', 'type(whole) == double'),
    check('whole-is-five', 'whole == 5.0'),
    check('ratio-positive', 'ratio > 0.0'),
    check('total-over-ten', 'total > 10.0'),
  ),
  rules(
    check('big-beyond-2^53', 'big > 9007199254740992'),
    check('big-exact', 'big == 1152921504606846977'),
    check('big-is-int', 'type(big) == int'),
    check('id-positive', 'id > 0'),
    check('id-max', 'id == 9223372036854775807'),
  ),
  rules(
    check('payload-three-bytes', 'size(payload) == 3'),
    check('digest-four-bytes', 'size(digest) == 4'),
    check('payload-is-string', 'type(payload) == string'),
    check('digest-deadbeef', 'digest == "\\u00de\\u00ad\\u00be\\u00ef"'),
    check('payload-ends-ff', 'payload.endsWith("\\u00ff")'),
  ),
  rules(
    check('price-is-string', 'type(price) == string'),
    check('price-two-bytes', 'size(price) == 2'),
    check('price-not-empty', 'size(price) > 0'),
  ),
  rules(
    check('at-after-2020', 'at > 1600000000000'),
    check('at-is-int', 'type(at) == int'),
    check('micros-positive', 'micros > 0'),
    check('day-after-2022', 'day > 19000'),
    check('day-is-int', 'type(day) == int'),
  ),
  rules(
    check('status-active', 'status == "ACTIVE"'),
    check('status-open', 'status in ["ACTIVE", "PENDING"]'),
    check('note-missing', 'note == null'),
    check('amount-over-one', 'amount != null && amount > 1.0'),
    check('note-first', 'note == "first"'),
  ),
  rules(
    check('red', 'attrs.color == "red"'),
    check('sized', '"size" in attrs'),
    check('count-x-beyond-2^53', 'counts.x > 9007199254740992'),
    check('two-attrs', 'size(attrs) == 2'),
    check('counts-positive', 'counts.all(k, counts[k] > 0)'),
  ),
  rules(
    check('in-oslo', 'address.city == "Oslo"'),
    check('north', 'address.geo.lat > 50.0'),
    check('lines-positive', 'lines.all(l, l.qty > 0)'),
    check('a-big-line', 'lines.map(l, l.price * double(l.qty)).exists(p, p > 10.0)'),
    check('tagged-a', '"a" in tags'),
  ),
  rules(
    check('widget', 'name.startsWith("Wid")'),
    check('long-name', 'size(name) > 3'),
    check('active', 'active'),
    check('qty-three', 'qty * 2 == 6'),
  ),
  rules(
    check('huge', 'qty > 100'),
    check('positive', 'total > 0.0', 'ERROR'),
    check('long-name', 'size(name) > 100'),
  ),
  rules(check('soft', 'qty > 100', 'NONE'), check('hard', 'qty > 1', 'ERROR')),
  rules(
    jsonataCheck('j-qty', 'qty > 2'),
    jsonataCheck('j-name', 'name = "Widget"'),
    jsonataCheck('j-big', 'big > 9007199254740992'),
    jsonataCheck('j-whole', 'whole = 5'),
  ),
  rules(transform('upper', 'WRITE', '$merge([$, {"name": $uppercase(name)}])')),
  rules(transform('more', 'WRITE', '$merge([$, {"qty": qty + 1}])'), check('after', 'qty > 1')),
  rules(transform('next-big', 'WRITEREAD', '$merge([$, {"big": big + 1, "id": id}])')),
  rules(transform('mask', 'WRITE', '$merge([$, {"note": "masked", "payload": ""}])')),
  rules(transform('double', 'WRITEREAD', '$merge([$, {"total": total * 2, "whole": whole + 1}])')),
  rules(transform('later', 'WRITE', '$merge([$, {"at": at + 1000, "day": day + 1}])')),
  rules(transform('added', 'READ', '$merge([$, {"added": "x", "name": "read"}])')),
  rules(
    transform('tag', 'WRITEREAD', '$merge([$, {"tags": $append(tags, "t"), "status": "PENDING"}])'),
    check('tagged', '"t" in tags'),
  ),
  rules(transform('wrong-type', 'READ', '$merge([$, {"qty": "many"}])')),
  rules(transform('partial', 'WRITE', '{"id": id, "name": name}', 'CEL')),
]

const JSON_RULESETS: ContractRuleSet[] = [
  rules(
    check('amount-positive', 'amount > 0.0'),
    check('whole-is-int', 'type(whole) == int'),
    check('count-two', 'count == 2'),
    check('big-beyond-2^53', 'big > 9007199254740992'),
    check('big-exact', 'big == 1152921504606846977'),
  ),
  rules(
    check('email', 'email.matches("^[^@]+@[^@]+\\\\.[a-z]+$")'),
    check('has-order', 'size(orderId) > 0'),
    check('prefixed', 'orderId.startsWith("o-")'),
    check('kind-a', 'kind == "A"'),
  ),
  rules(
    check('has-items', 'size(items) > 0'),
    check('first-sku', 'items[0].sku == "x"'),
    check('all-priced', 'items.all(i, i.price > 0.0)'),
    check('a-pair', 'items.exists(i, i.qty > 1)'),
  ),
  rules(
    check('web', 'meta.source == "web"'),
    check('has-ref', '"ref" in meta'),
    check('flag', 'size(flags) > 0 && flags[0]'),
    check('before-2025', 'timestamp(when) < timestamp("2025-01-01T00:00:00Z")'),
  ),
  rules(check('huge', 'count > 100'), check('positive', 'amount > 0.0', 'ERROR'), check('more', 'count > 5')),
  rules(
    jsonataCheck('j-amount', 'amount > 0'),
    jsonataCheck('j-items', '$count(items) > 1'),
    jsonataCheck('j-big', 'big > 9007199254740992'),
  ),
  rules(transform('mask', 'WRITE', '$merge([$, {"email": "***"}])')),
  rules(transform('total', 'WRITEREAD', '$merge([$, {"amount": $sum(items.(price * qty))}])')),
  rules(transform('seen', 'READ', '$merge([$, {"meta": $merge([meta, {"seen": "yes"}]), "extra": 1}])')),
  rules(transform('step', 'WRITE', '$merge([$, {"count": count + 1}])'), check('stepped', 'count >= 1')),
  rules(transform('next-big', 'WRITEREAD', '$merge([$, {"big": big + 1}])')),
  rules(
    transform(
      'cel',
      'WRITE',
      '{"orderId": orderId, "amount": amount * 2.0, "count": count, "big": big}',
      'CEL',
    ),
  ),
  rules(transform('round', 'READ', '$merge([$, {"amount": $round(amount)}])')),
  rules(transform('drop', 'WRITE', '$sift($, function($v, $k) {$k != "optional"})')),
  rules(
    check('kind-open', 'kind in ["A", "B"]'),
    check('optional-set', 'optional != null'),
    check('all-flags', 'flags.all(f, f)'),
  ),
  rules(
    transform('cheap', 'WRITEREAD', '$merge([$, {"items": [items[price > 5]]}])'),
    check('one', 'size(items) <= 1'),
  ),
]

const PROTOBUF_RULESETS: ContractRuleSet[] = [
  rules(
    check('user-positive', 'userId > 0'),
    check('level-positive', 'level > 0'),
    check('score-half', 'score == 0.5'),
    check('active', 'active'),
    check('score-is-double', 'type(score) == double'),
    check('ratio-is-double', 'type(ratio) == double'),
  ),
  rules(
    check('admin', '"admin" in roles'),
    check('prod', 'labels.env == "prod"'),
    check('adult', 'profile.age >= 18'),
    check('nordic', 'profile.country in ["NO", "DK"]'),
  ),
  rules(
    check('updated-2025', 'timestamp(updatedAt) > timestamp("2025-01-01T00:00:00Z")'),
    check('ttl-over-a-minute', 'duration(ttl) > duration("1m")'),
    check('wrapped-text', 'type(wrapped) == string'),
    check('ratio-double', 'ratio > 0.3'),
  ),
  rules(
    check('blue', 'color == "BLUE"'),
    check('blob', 'size(blob) == 4'),
    check('counter', 'counter == 1152921504606846977'),
    check('extra', 'has(extra.source)'),
  ),
  rules(
    check('huge', 'level > 100'),
    check('scored', 'score > 1.0', 'ERROR'),
    check('named', 'size(nickname) > 2'),
  ),
  rules(jsonataCheck('j-level', 'level > 0'), jsonataCheck('j-roles', '$count(roles) > 1')),
  rules(transform('anon', 'WRITE', '$merge([$, {"nickname": "anon"}])')),
  rules(
    transform('older', 'WRITEREAD', '$merge([$, {"profile": $merge([profile, {"age": profile.age + 1}])}])'),
  ),
  rules(transform('label', 'READ', '$merge([$, {"labels": $merge([labels, {"x": "y"}]), "added": true}])')),
  rules(transform('level-up', 'WRITE', '$merge([$, {"level": level + 1}])'), check('up', 'level > 0')),
  rules(transform('later', 'WRITE', '$merge([$, {"updatedAt": "2026-01-02T03:04:05.500Z", "ttl": "60s"}])')),
  rules(transform('color', 'WRITEREAD', '$merge([$, {"color": "RED"}])')),
  rules(transform('user', 'WRITE', '$merge([$, {"userId": 5, "counter": 7}])')),
]

const SCHEMAS: Record<DifferentialFormat, string> = {
  avro: JSON.stringify(ORDER_AVRO),
  json: JSON.stringify(ORDER_JSON),
  protobuf: USER_PROTO,
}

/** The schema text of a format, as registered. */
export function differentialSchema(format: DifferentialFormat): string {
  return SCHEMAS[format]
}

/** The record Java's serde sends to the registry for a value of a format, as JSON text. */
export function javaRecordOf(format: DifferentialFormat, value: unknown): string {
  if (format === 'avro') return avroJavaRecord(ORDER_AVRO, value)
  if (format === 'json') return jsonJavaRecord(value)
  return protobufJavaRecord(USER_FIELDS, value)
}

const FORMATS: [DifferentialFormat, ContractRuleSet[], Record<string, unknown>[]][] = [
  ['avro', AVRO_RULESETS, AVRO_VALUES],
  ['json', JSON_RULESETS, JSON_VALUES],
  ['protobuf', PROTOBUF_RULESETS, PROTOBUF_VALUES],
]

/** Every ruleset of the differential. */
export function differentialRulesets(): DifferentialRuleset[] {
  return FORMATS.flatMap(([format, rulesets]) =>
    rulesets.map((ruleSet, index) => ({ topic: `${format}-r${index}`, format, ruleSet })),
  )
}

/** Every case: each value of each ruleset's format, written and read. */
export function differentialCases(): DifferentialCase[] {
  const values = Object.fromEntries(FORMATS.map(([format, , list]) => [format, list]))
  return differentialRulesets().flatMap((ruleset) =>
    (['WRITE', 'READ'] as const).flatMap((mode) =>
      values[ruleset.format]!.map((value, index) => ({
        id: `${ruleset.topic}-${mode.toLowerCase()}-${index}`,
        ruleset,
        mode,
        value,
        recordJson: javaRecordOf(ruleset.format, value),
      })),
    ),
  )
}
