import { invalidConfigError } from '@x/errors'

/**
 * `load()` (an `import()` of the optional peer dependency `name`), or, when `name` is not installed, a `TypeError`
 * with code `INVALID_CONFIG` (exit 2) saying that `purpose` needs it and how to install it. Any other failure of the
 * import is thrown as it came.
 */
export async function importOptionalPeer<T>(
  load: () => Promise<T>,
  name: string,
  purpose: string,
): Promise<T> {
  try {
    return await load()
  } catch (error) {
    const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
    const missing =
      (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
      typeof message === 'string' &&
      message.includes(`'${name}'`)
    if (!missing) throw error
    throw invalidConfigError(
      `${purpose} needs ${name}, which is not installed (an optional peer dependency of @x/cli): npm install --save-dev ${name}`,
      error,
    )
  }
}
