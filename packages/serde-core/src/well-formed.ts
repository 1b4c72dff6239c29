/** `String.prototype.isWellFormed` (ES2024, in every Node this family supports), not in the ES2022 lib it compiles with. */
type WellFormedString = string & { isWellFormed(): boolean }

/**
 * Whether `text` is well-formed Unicode: no lone surrogate (a high surrogate not followed by a low one, or a low one
 * not preceded by a high one). UTF-8 cannot hold a lone surrogate: an encoder writes bytes that a strict reader refuses
 * and a lenient one reads as U+FFFD, so a writer refuses such a string instead. The engine's check, which answers at
 * once for a string held as one byte per character (Latin-1, the common case).
 *
 * Not public API: exported only from the `./internal` entry point, for the format packages.
 */
export function isWellFormed(text: string): boolean {
  return (text as WellFormedString).isWellFormed()
}

/** Where `text` is not well-formed, for an error message: `a lone surrogate U+D800 at index 3`. */
export function loneSurrogateProblem(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0xd800 || code > 0xdfff) continue
    if (code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        i++
        continue
      }
    }
    return `not well-formed Unicode: a lone surrogate U+${code.toString(16).toUpperCase()} at index ${i}, which UTF-8 cannot hold`
  }
  return 'well-formed Unicode'
}
