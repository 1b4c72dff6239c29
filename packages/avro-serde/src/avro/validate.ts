import { type DataIssue, dataIssue, describeValue, formatPath, type PathSegment } from '@x/errors'
import { isWellFormed, loneSurrogateProblem } from '@x/serde-core/internal'
import type { AvscType } from './avsc-internals.js'
import { fieldValue, isMap, isObjectValue } from './js-values.js'
import { BuiltinLogicalType } from './logical-base.js'
import { isModeLong, longProblem } from './longs.js'

/**
 * Explains why a value does not match a schema, by path, in the notation and wording every format shares
 * (`@x/errors`' data issues). Used only after avsc's writer has refused a value: the happy path never validates.
 */

/** One mismatch: where, and what was expected instead of what. */
export type Issue = DataIssue

function branchLabel(type: AvscType): string {
  return type.branchName ?? type.typeName
}

/** What a type takes, for messages: `int`, `record com.example.User`, `enum Kind (A, B)`, ... */
export function describeType(type: AvscType): string {
  if (type instanceof BuiltinLogicalType) return type.expected
  switch (type.typeName) {
    case 'record':
    case 'error':
      return type.name === undefined ? 'record' : `record ${type.name}`
    case 'enum': {
      const symbols = type.symbols ?? []
      const shown = symbols.length > 10 ? [...symbols.slice(0, 10), '…'] : symbols
      return `enum ${type.name ?? ''} (one of ${shown.join(', ')})`
    }
    case 'fixed':
      return `fixed ${type.name ?? ''} (${type.size} bytes)`
    case 'bytes':
      return 'bytes (a Uint8Array)'
    case 'map':
      return 'map (an object, or a Map with string keys)'
    case 'abstract:long':
      return 'long (a safe integer number or a bigint)'
    case 'union:unwrapped':
      return `one of ${(type.types ?? []).map(branchLabel).join(', ')}`
    case 'union:wrapped': {
      const branches = type.types ?? []
      const orNull = branches.some((branch) => branch.typeName === 'null') ? ', or null' : ''
      return `a wrapped union value { "<branch>": value } with a branch of ${branches
        .filter((branch) => branch.typeName !== 'null')
        .map(branchLabel)
        .join(', ')}${orNull}`
    }
    default:
      return type.typeName.startsWith('logical:') ? type.typeName.slice('logical:'.length) : type.typeName
  }
}

function primitiveProblem(type: AvscType, value: unknown): string | undefined {
  switch (type.typeName) {
    case 'int':
      return typeof value === 'number' && Number.isInteger(value) ? 'outside the 32-bit range' : undefined
    case 'fixed':
      return value instanceof Uint8Array ? `${value.length} bytes instead of ${type.size}` : undefined
    case 'enum':
      return typeof value === 'string' ? 'not one of the symbols' : undefined
    default:
      return undefined
  }
}

/**
 * Bounds of one search for issues: a value can share sub-objects (a DAG whose paths number 2^depth) or be huge, and
 * explaining it must take bounded time. Past either bound the search stops; `truncated` says so.
 */
export const MAX_ISSUES = 1000
export const MAX_VISITS = 100_000

class Collector {
  readonly issues: Issue[] = []
  readonly #path: PathSegment[] = []
  #visits = 0
  truncated = false

  add(type: AvscType, value: unknown, problem?: string): void {
    if (this.issues.length >= MAX_ISSUES) {
      this.truncated = true
      return
    }
    this.issues.push(dataIssue(formatPath(this.#path), describeType(type), value, problem))
  }

  check(type: AvscType, value: unknown): void {
    switch (type.typeName) {
      case 'record':
      case 'error': {
        if (!isObjectValue(value)) {
          this.add(type, value)
          return
        }
        for (const field of type.fields ?? []) {
          const item = fieldValue(value, field.name)
          if (item === undefined && field.defaultValue() !== undefined) continue
          this.within(field.name, field.type, item)
        }
        return
      }
      case 'array':
        if (!Array.isArray(value)) {
          this.add(type, value)
          return
        }
        for (let i = 0; i < value.length; i++) this.within(i, type.itemsType!, value[i])
        return
      case 'map':
        if (isMap(value)) {
          for (const [key, item] of value) {
            if (typeof key === 'string') this.entry(type, key, item)
            else this.add(type, value, `a Map key that is not a string: ${describeValue(key)}`)
          }
          return
        }
        if (!isObjectValue(value)) {
          this.add(type, value)
          return
        }
        for (const key of Object.keys(value)) this.entry(type, key, value[key])
        return
      case 'union:wrapped':
        this.checkWrapped(type, value)
        return
      case 'union:unwrapped': {
        const index = type._getIndex?.(value)
        if (index === undefined) {
          this.add(type, value)
          return
        }
        this.check(type.types![index]!, value)
        return
      }
      default:
        this.checkLeaf(type, value)
    }
  }

  /** A map entry: a key that is not well-formed Unicode (UTF-8 cannot hold it) is an issue at the entry's path. */
  entry(type: AvscType, key: string, item: unknown): void {
    if (isWellFormed(key)) {
      this.within({ key }, type.valuesType!, item)
      return
    }
    if (this.issues.length >= MAX_ISSUES) {
      this.truncated = true
      return
    }
    this.#path.push({ key })
    this.issues.push(dataIssue(formatPath(this.#path), 'a map key', key, loneSurrogateProblem(key)))
    this.#path.pop()
  }

  checkWrapped(type: AvscType, value: unknown): void {
    const branches = type.types ?? []
    if (value === null) {
      if (!branches.some((branch) => branch.typeName === 'null')) this.add(type, value, 'no null branch')
      return
    }
    const keys = isObjectValue(value) ? Object.keys(value) : []
    const branch = keys.length === 1 ? branches.find((b) => b.branchName === keys[0]) : undefined
    if (branch === undefined || keys[0] === undefined) {
      this.add(type, value)
      return
    }
    this.within({ key: keys[0] }, branch, (value as Record<string, unknown>)[keys[0]])
  }

  checkLeaf(type: AvscType, value: unknown): void {
    if (type instanceof BuiltinLogicalType) {
      const problem = type.problem(value)
      if (problem !== undefined) this.add(type, value, problem)
      return
    }
    if (type.typeName.startsWith('logical:') && type.underlyingType !== undefined) {
      let raw: unknown
      try {
        raw = type._toValue?.(value)
      } catch (error) {
        this.add(type, value, error instanceof Error ? error.message : String(error))
        return
      }
      if (raw === undefined) {
        this.add(type, value)
        return
      }
      this.check(type.underlyingType, raw)
      return
    }
    if (isModeLong(type)) {
      const problem = longProblem(value)
      if (problem !== undefined) this.add(type, value, problem)
      return
    }
    if (!type._check(value)) this.add(type, value, primitiveProblem(type, value))
    else if (type.typeName === 'string' && !isWellFormed(value as string)) {
      this.add(type, value, loneSurrogateProblem(value as string))
    }
  }

  within(segment: PathSegment, type: AvscType, value: unknown): void {
    if (this.truncated || ++this.#visits > MAX_VISITS || this.issues.length >= MAX_ISSUES) {
      this.truncated = true
      return
    }
    this.#path.push(segment)
    this.check(type, value)
    this.#path.pop()
  }
}

/** The mismatches found, and whether the search stopped at its bounds before it saw the whole value. */
export interface IssueSearch {
  readonly issues: Issue[]
  readonly truncated: boolean
}

/**
 * Every mismatch between `value` and `type`, by path (empty when the value matches), up to `MAX_ISSUES` issues and
 * `MAX_VISITS` visited values. Reading the value may throw (a getter, a Proxy trap): that error is thrown as is.
 */
export function findIssues(type: AvscType, value: unknown): IssueSearch {
  const collector = new Collector()
  collector.check(type, value)
  return { issues: collector.issues, truncated: collector.truncated }
}
