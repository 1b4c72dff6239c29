/** The error `fn` throws synchronously (fails the test when it throws nothing). */
export function thrown(fn: () => unknown): Error & { code?: string; paths?: string[]; cause?: unknown } {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a throw')
}
