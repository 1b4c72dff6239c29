import type { FieldPlan, MessagePlan } from './values.js'

/**
 * How the data-contract rules name and shape the fields of a Protobuf message (proto3's JSON mapping), shared by
 * the mapping into rule records (`rule-record.ts`) and back (`rule-values.ts`).
 */

/** The brand of `RuleDouble` of `@x/rules`, a registered symbol. */
const RULE_DOUBLE = Symbol.for('@x/rules.RuleDouble')

/** How deep messages, lists and `Struct`s may nest for the rules (as `MAX_RECORD_DEPTH` of `@x/rules`). */
export const MAX_DEPTH = 1000

/** What the rules are told about one field of a message, found once per message type. */
export interface RuleField {
  readonly field: FieldPlan
  /** Its proto3 JSON name: `json_name`, else the lowerCamelCase of its `.proto` name (`userId` for `user_id`). */
  readonly json: string
  /** Whether it has presence (a message, `optional`, a oneof member): then a default value is written too. */
  readonly presence: boolean
  /** The full name of its type when a well-known type (`google.protobuf.Timestamp`), else undefined. */
  readonly wellKnown: string | undefined
}

interface RuleShape {
  readonly fields: readonly RuleField[]
  /** The `.proto` and JSON names of the fields, and the names of the oneofs (protobufjs's virtual fields). */
  readonly names: ReadonlySet<string>
}

const shapes = new WeakMap<MessagePlan, RuleShape>()

export function shapeOf(plan: MessagePlan): RuleShape {
  let shape = shapes.get(plan)
  if (shape === undefined) {
    const names = new Set<string>(Object.keys(plan.type.oneofs ?? {}))
    const fields = plan.fields.map((field): RuleField => {
      const declared = plan.type.fields[field.name] as
        | { jsonName?: string; hasPresence?: boolean; partOf?: unknown }
        | undefined
      const json = declared?.jsonName ?? camel(field.name)
      names.add(field.name)
      names.add(json)
      const fullName = field.message?.type.fullName
      return {
        field,
        json,
        presence:
          !field.repeated &&
          !field.map &&
          (field.message !== undefined ||
            field.oneof !== undefined ||
            declared?.partOf != null ||
            declared?.hasPresence === true),
        wellKnown: fullName?.startsWith('.google.protobuf.') ? fullName.slice(1) : undefined,
      }
    })
    shape = { fields, names }
    shapes.set(plan, shape)
  }
  return shape
}

/** Whether `key` names a field of `plan`'s message, by its JSON or `.proto` name, or one of its oneofs. */
export function declaresField(plan: MessagePlan, key: string): boolean {
  return shapeOf(plan).names.has(key)
}

/** protoc's JSON name of a field: each letter after an underscore upper-cased, the underscores dropped. */
function camel(name: string): string {
  return name.replace(/_([a-z0-9])?/g, (_all, next: string | undefined) => next?.toUpperCase() ?? '')
}

/** A tree of messages, lists or `Struct`s deeper than the rules read. */
export function tooDeep(): Error {
  return new RangeError(
    `The record nests messages and lists deeper than ${MAX_DEPTH} levels, more than data-contract rules read`,
  )
}

/** Sets an own data property: assigned, but defined for `__proto__` (whose assignment would set the prototype). */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  } else {
    out[key] = value
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Uint8Array) &&
    !isRuleDouble(value)
  )
}

export function isRuleDouble(value: unknown): value is { value: number } {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { [RULE_DOUBLE]?: unknown })[RULE_DOUBLE] === true
  )
}
