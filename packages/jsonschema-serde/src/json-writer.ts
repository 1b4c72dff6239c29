import { dataIssue, formatPath, invalidDataError, messageOf, type PathSegment } from '@x/errors'
import { MAX_JSON_NESTING } from '@x/registry-client/json'
import { stringifyWithBigInts } from './exact-json.js'

/**
 * The JSON text a value is written as, and the values refused instead: one behaviour whether or not the value holds
 * a `bigint`. Refused with a `TypeError` (code `INVALID_DATA`) naming the path: a cycle; arrays and objects nested
 * deeper than {@link MAX_JSON_NESTING}, the most the deserializer's reader reads (Java's Jackson reads as deep by
 * default); `NaN` and ±`Infinity`, which JSON cannot hold (`JSON.stringify` would write `null`). A −0 is written as
 * `0`: JSON Schema's numeric equality holds them equal, and the text has no other spelling Java reads.
 */
export function writeJson(value: unknown): { text: string; exact: boolean } {
  let text: string | undefined
  let exact = false
  try {
    text = JSON.stringify(value)
  } catch (error) {
    if (!(error instanceof TypeError && /BigInt/i.test(error.message))) throw refusal(value, error)
    exact = true
    try {
      text = stringifyWithBigInts(value)
    } catch (cause) {
      throw refusal(value, cause)
    }
  }
  if (text === undefined) {
    throw invalidDataError(`Value cannot be written as JSON: got ${typeof value}`, [''])
  }
  // `JSON.stringify` writes NaN and ±Infinity as `null`, and only a text with more than MAX_JSON_NESTING `[` and `{`
  // can be nested deeper than that: the value is looked at again only then, most messages never.
  if (text.includes('null') || mayBeTooDeep(text)) {
    let problem: Problem | undefined
    try {
      problem = isWritable(value, 0) ? undefined : findProblem(value)
    } catch (error) {
      // a toJSON or a getter that threw when read again
      throw invalidDataError(`Value cannot be written as JSON: ${messageOf(error)}`, [''], error)
    }
    if (problem !== undefined) throw problemError(problem)
  }
  return { text, exact }
}

/** Whether `text` holds more than {@link MAX_JSON_NESTING} `[` and `{` (inside strings too): an upper bound of its depth. */
function mayBeTooDeep(text: string): boolean {
  if (text.length <= 2 * MAX_JSON_NESTING) return false
  let count = 0
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > MAX_JSON_NESTING) return true
    }
  }
  return false
}

/**
 * Whether `value`, which `JSON.stringify` wrote (so it has no cycle), holds only finite numbers and nests arrays and
 * objects at most {@link MAX_JSON_NESTING} deep: the quick check, without paths ({@link findProblem} names the part).
 * `key` is what `toJSON` is given, as `JSON.stringify` gives it; `json` tells that `toJSON` was called already.
 */
function isWritable(value: unknown, depth: number, key: string | number = '', json = false): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'number' || Number.isFinite(value)
  if (!json && typeof (value as ToJson).toJSON === 'function') {
    return isWritable((value as ToJson).toJSON(String(key)), depth, key, true)
  }
  if (value instanceof Number) return Number.isFinite(Number(value))
  if (depth >= MAX_JSON_NESTING) return false
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!isWritable(value[i], depth + 1, i)) return false
    return true
  }
  const record = value as Record<string, unknown>
  for (const name of Object.keys(record)) if (!isWritable(record[name], depth + 1, name)) return false
  return true
}

type ToJson = { toJSON(key: string): unknown }

interface Problem {
  readonly path: readonly PathSegment[]
  readonly expected: string
  readonly value: unknown
  readonly detail: string
}

/** The error for a value `JSON.stringify` refused: the cycle or depth it met, else its own message. */
function refusal(value: unknown, error: unknown): TypeError {
  let problem: Problem | undefined
  try {
    problem = findProblem(value)
  } catch {
    // reading the value threw (a getter, a Proxy trap, a toJSON): the error JSON.stringify met says it
  }
  if (problem !== undefined) return problemError(problem, error)
  return invalidDataError(`Value cannot be written as JSON: ${messageOf(error)}`, [''], error)
}

function problemError(problem: Problem, cause?: unknown): TypeError {
  const path = formatPath(problem.path)
  // a path 1000 levels deep is cut in the message (`paths` holds it whole)
  const shown = path.length > MAX_PATH_SHOWN ? `${path.slice(0, MAX_PATH_SHOWN)}…` : path
  const issue = dataIssue(shown, problem.expected, problem.value, problem.detail)
  return invalidDataError(`Value cannot be written as JSON: ${issue.message}`, [path], cause)
}

const MAX_PATH_SHOWN = 80

/**
 * The first part of `value` that cannot be written as JSON its reader reads back, visiting what `JSON.stringify`
 * visits (own enumerable properties, array items, what `toJSON` returns); at most {@link MAX_JSON_NESTING} + 1 deep,
 * so the walk itself never runs out of stack.
 */
function findProblem(value: unknown): Problem | undefined {
  const path: PathSegment[] = []
  const open = new Set<object>()
  const visit = (item: unknown, key: string): Problem | undefined => {
    if (typeof item === 'object' && item !== null && typeof (item as ToJson).toJSON === 'function') {
      item = (item as ToJson).toJSON(key)
    }
    if (item instanceof Number) item = Number(item)
    if (typeof item === 'number') {
      return Number.isFinite(item)
        ? undefined
        : { path: [...path], expected: 'a finite number', value: item, detail: 'JSON has no NaN or Infinity' }
    }
    if (typeof item !== 'object' || item === null || item instanceof String || item instanceof Boolean) {
      return undefined
    }
    if (open.has(item)) {
      return { path: [...path], expected: 'JSON', value: item, detail: 'a cycle: it holds itself' }
    }
    if (open.size >= MAX_JSON_NESTING) {
      return {
        path: [...path],
        expected: `JSON nested at most ${MAX_JSON_NESTING} arrays and objects deep (the most its reader reads)`,
        value: item,
        detail: `nested deeper than ${MAX_JSON_NESTING}`,
      }
    }
    open.add(item)
    let found: Problem | undefined
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length && found === undefined; i++) {
        path.push(i)
        found = visit(item[i], String(i))
        path.pop()
      }
    } else {
      const record = item as Record<string, unknown>
      for (const name of Object.keys(record)) {
        path.push(name)
        found = visit(record[name], name)
        path.pop()
        if (found !== undefined) break
      }
    }
    open.delete(item)
    return found
  }
  return visit(value, '')
}
