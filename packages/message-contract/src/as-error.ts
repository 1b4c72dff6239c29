/** What was thrown, as an `Error` for a client's callback: itself when it is one, else its text in a new one. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error))
}
