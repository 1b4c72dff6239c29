import { createRequire } from 'node:module'
import type { RE2JS } from 're2js'

const require = createRequire(import.meta.url)

/** How many compiled patterns are kept; past it the oldest is dropped (a rule's constant pattern stays warm). */
const CACHE_SIZE = 256

/**
 * The longest pattern compiled: compiling takes time in proportion to the pattern, and a longer one is refused
 * before it is compiled.
 */
export const MAX_PATTERN_LENGTH = 1000

/**
 * The most instructions a compiled pattern may hold: matching takes time in proportion to the text times the
 * program (a bounded repetition such as `.{1000}` is that many instructions), and a larger one is refused, so
 * matching a 64 KiB text stays within tens of milliseconds.
 */
export const MAX_PROGRAM_SIZE = 1000

let re2: typeof RE2JS | undefined
const cache = new Map<string, RE2JS>()

/**
 * `pattern` compiled with RE2 semantics (`re2js`): matching takes time linear in the text, whatever the pattern.
 * `flags` are `re2js` flags (0: none). Each pattern is compiled once and kept, up to {@link CACHE_SIZE} of them.
 * @throws Error when `pattern` is not RE2 syntax (backreferences and lookarounds are not), its message saying why,
 *   or is longer than {@link MAX_PATTERN_LENGTH} characters or compiles to more than {@link MAX_PROGRAM_SIZE}
 *   instructions.
 */
export function compileRe2(pattern: string, flags: number): RE2JS {
  const key = flags === 0 ? pattern : `${flags}/${pattern}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new Error(
      `The regular expression is ${pattern.length} characters long, longer than the ${MAX_PATTERN_LENGTH} a rule may use`,
    )
  }
  re2 ??= (require('re2js') as typeof import('re2js')).RE2JS
  let compiled: RE2JS
  try {
    compiled = re2.compile(pattern, flags)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new Error(
      `invalid regular expression ${JSON.stringify(pattern)}: ${reason} (RE2 syntax: no backreferences or lookarounds)`,
    )
  }
  const size = compiled.matcher('').programSize()
  if (size > MAX_PROGRAM_SIZE) {
    throw new Error(
      `The regular expression ${JSON.stringify(pattern.length > 60 ? `${pattern.slice(0, 60)}…` : pattern)} compiles to ${size} instructions, more than the ${MAX_PROGRAM_SIZE} a rule may use (a bounded repetition counts each repeat)`,
    )
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
  cache.set(key, compiled)
  return compiled
}

/** The `re2js` flags for JavaScript RegExp flags `i` and `m` (JSONata's regular expressions have only these). */
export function re2Flags(jsFlags: string): number {
  re2 ??= (require('re2js') as typeof import('re2js')).RE2JS
  return (jsFlags.includes('i') ? re2.CASE_INSENSITIVE : 0) | (jsFlags.includes('m') ? re2.MULTILINE : 0)
}

/** Translates JavaScript regular-expression syntax (`\uXXXX`, `\/`) into RE2's. */
export function translateJsPattern(source: string): string {
  re2 ??= (require('re2js') as typeof import('re2js')).RE2JS
  return re2.translateRegExp(source)
}
