import type { RE2JS } from 're2js'
import { compileRe2, re2Flags, translateJsPattern } from './re2-pattern.js'

/** The RE2 program of each regular-expression literal of a compiled expression (JSONata keeps the literal). */
const compiled = new WeakMap<RegExp, RE2JS>()

/**
 * `regexp` compiled with RE2, once for the literal.
 * @throws Error when it is not RE2 syntax.
 */
export function re2Of(regexp: RegExp): RE2JS {
  let re = compiled.get(regexp)
  if (re === undefined) {
    re = compileRe2(translateJsPattern(regexp.source), re2Flags(regexp.flags))
    compiled.set(regexp, re)
  }
  return re
}

/**
 * A JSONata regular expression (`/pattern/flags`) run by RE2, in time linear in the text: JSONata's engine uses it
 * in place of `RegExp` (`lastIndex` and `exec` as a global `RegExp` has them). RE2 takes JavaScript's syntax but
 * backreferences and lookarounds.
 * @throws Error when the pattern is not RE2 syntax.
 */
export class Re2RegExp {
  /** Where the next `exec` starts searching; after a match, where it ended; after none, 0. */
  lastIndex = 0
  readonly #re: RE2JS

  constructor(regexp: RegExp) {
    this.#re = re2Of(regexp)
  }

  /** The first match at or after `lastIndex`, shaped as `RegExp#exec` gives it, or `null`. */
  exec(text: string): RegExpExecArray | null {
    const matcher = this.#re.matcher(text)
    if (this.lastIndex > text.length || !matcher.find(this.lastIndex)) {
      this.lastIndex = 0
      return null
    }
    const match: (string | undefined)[] = []
    const groups = matcher.groupCount()
    for (let group = 0; group <= groups; group++) match.push(matcher.group(group) ?? undefined)
    const result = Object.assign(match, { index: matcher.start(), input: text }) as RegExpExecArray
    this.lastIndex = matcher.end()
    return result
  }
}
