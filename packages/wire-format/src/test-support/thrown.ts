/**
 * The error `fn` throws synchronously (fails the test when it throws nothing). The other packages' tests take the same
 * helper from `@x/test-support`, which depends on this package, so these tests keep their own.
 */
export function thrown(fn: () => unknown): Error & { code?: string; paths?: readonly string[] } {
  try {
    fn()
  } catch (error) {
    return error as Error
  }
  throw new Error('expected a throw')
}
