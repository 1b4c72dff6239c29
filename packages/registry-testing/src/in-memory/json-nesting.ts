/**
 * How deeply InMemoryRegistry walks the objects and arrays of stored JSON content (canonical forms, dereferencing):
 * the nesting the registry's JSON reader accepts.
 */
export const MAX_JSON_NESTING = 1000

/** Thrown by a walk over JSON content nested deeper than {@link MAX_JSON_NESTING} levels. */
export class JsonNestingError extends Error {
  override readonly name = 'JsonNestingError'
  constructor() {
    super(`the content nests deeper than ${MAX_JSON_NESTING} levels of JSON`)
  }
}

/** Throws a {@link JsonNestingError} when `depth` is past {@link MAX_JSON_NESTING}. */
export function checkNesting(depth: number): void {
  if (depth > MAX_JSON_NESTING) throw new JsonNestingError()
}
