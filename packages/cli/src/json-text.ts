import { type ExactJson, JsonSyntaxError, MAX_JSON_NESTING, parseExactJson } from '@x/registry-client/json'

/**
 * JSON text the CLI is given (a record, a key, a ruleset) as values: integers beyond 2^53 exact (`bigint`s), every
 * name, `__proto__` and `constructor` included, an own data property, and nesting bounded as the exact parser bounds
 * it. Deeper text is refused here with its position, before anything recurses into the value (converting, checking
 * or printing it), where it would overflow the stack.
 *
 * @throws SyntaxError for text that is not JSON; JsonSyntaxError for nesting deeper than {@link MAX_JSON_NESTING}.
 */
export function parseJsonText(text: string): ExactJson {
  checkJsonNesting(text)
  return parseExactJson(text).value
}

/**
 * Refuses JSON text that nests arrays and objects deeper than {@link MAX_JSON_NESTING}: a `JsonSyntaxError` at the
 * bracket that goes one level too deep. One pass over the text (none for a text of at most that many characters),
 * brackets inside strings skipped.
 */
export function checkJsonNesting(text: string): void {
  // Nesting deeper than the bound takes more opening brackets than a text this short holds.
  if (text.length <= MAX_JSON_NESTING) return
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > MAX_JSON_NESTING) {
        throw new JsonSyntaxError(`JSON nested deeper than ${MAX_JSON_NESTING} arrays and objects`, i)
      }
    } else if (c === 0x5d || c === 0x7d) depth--
  }
}
