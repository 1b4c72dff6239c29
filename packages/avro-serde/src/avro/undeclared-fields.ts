import { formatPath, type PathSegment } from '@x/errors'
import type { AvscField, AvscType } from './avsc-internals.js'
import { fieldValue, isMap, isObjectValue } from './js-values.js'

/**
 * Strict mode: the properties of a value that its record schemas do not declare, at any depth. Runs on every
 * strict `serialize`, so it enters only the parts of a value whose type can hold a record, and keeps a plan per
 * record type.
 */

interface RecordPlan {
  /** The declared field names. */
  readonly names: ReadonlySet<string>
  /** The fields whose values can hold records, the only ones worth entering. */
  readonly nested: readonly AvscField[]
}

const recordPlans = new WeakMap<AvscType, RecordPlan>()

function recordPlan(type: AvscType): RecordPlan {
  let plan = recordPlans.get(type)
  if (plan === undefined) {
    const fields = type.fields ?? []
    plan = {
      names: new Set(fields.map((field) => field.name)),
      nested: fields.filter((field) => holdsRecords(field.type)),
    }
    recordPlans.set(type, plan)
  }
  return plan
}

const recordsWithin = new WeakMap<AvscType, boolean>()

/** True when a value of `type` can hold a record (the only place an undeclared field can be). */
function holdsRecords(type: AvscType, visiting: Set<AvscType> = new Set()): boolean {
  const known = recordsWithin.get(type)
  if (known !== undefined) return known
  if (visiting.has(type)) return false
  visiting.add(type)
  let holds: boolean
  switch (type.typeName) {
    case 'record':
    case 'error':
      holds = true
      break
    case 'array':
      holds = holdsRecords(type.itemsType!, visiting)
      break
    case 'map':
      holds = holdsRecords(type.valuesType!, visiting)
      break
    case 'union:wrapped':
    case 'union:unwrapped':
      holds = (type.types ?? []).some((branch) => holdsRecords(branch, visiting))
      break
    default:
      holds = false
  }
  visiting.delete(type)
  recordsWithin.set(type, holds)
  return holds
}

/** Walks `value` for properties its record schemas do not declare; types without records are not entered. */
class UndeclaredFinder {
  readonly found: string[] = []
  readonly #path: PathSegment[] = []

  visit(type: AvscType, value: unknown): void {
    switch (type.typeName) {
      case 'record':
      case 'error': {
        if (!isObjectValue(value)) return
        const plan = recordPlan(type)
        for (const key of Object.keys(value)) {
          if (!plan.names.has(key)) this.found.push(formatPath([...this.#path, key]))
        }
        for (const field of plan.nested) {
          const child = fieldValue(value, field.name)
          if (child !== undefined) this.within(field.name, field.type, child)
        }
        return
      }
      case 'array':
        if (Array.isArray(value) && holdsRecords(type.itemsType!)) {
          for (let i = 0; i < value.length; i++) this.within(i, type.itemsType!, value[i])
        }
        return
      case 'map':
        if (!holdsRecords(type.valuesType!)) return
        if (isMap(value)) {
          for (const [key, item] of value) {
            if (typeof key === 'string') this.within({ key }, type.valuesType!, item)
          }
          return
        }
        if (isObjectValue(value)) {
          for (const key of Object.keys(value)) this.within({ key }, type.valuesType!, value[key])
        }
        return
      case 'union:wrapped': {
        if (!isObjectValue(value)) return
        const keys = Object.keys(value)
        const branch = keys.length === 1 ? type.types?.find((b) => b.branchName === keys[0]) : undefined
        if (branch !== undefined && keys[0] !== undefined)
          this.within({ key: keys[0] }, branch, value[keys[0]])
        return
      }
      case 'union:unwrapped': {
        const index = type._getIndex?.(value)
        if (index !== undefined) this.visit(type.types![index]!, value)
        return
      }
      default:
        return
    }
  }

  within(segment: PathSegment, type: AvscType, value: unknown): void {
    this.#path.push(segment)
    this.visit(type, value)
    this.#path.pop()
  }
}

/** The paths of every field of `value`, at any depth, that its record schema does not declare. */
export function findUndeclaredFields(type: AvscType, value: unknown): string[] {
  if (!holdsRecords(type)) return []
  const finder = new UndeclaredFinder()
  finder.visit(type, value)
  return finder.found
}
