import { createRequire } from 'node:module'

/**
 * Which avsc this package resolved, read from the `package.json` beside the module that `import avro from 'avsc'`
 * loads (avsc has no `exports` map, so both resolve alike). Kept apart from the check in avsc-internals.ts so that a
 * test can stand in another version.
 */
export interface ResolvedAvsc {
  /** The version in avsc's `package.json`, or undefined when it could not be read (e.g. inside a bundle). */
  readonly version: string | undefined
  /** Where it was found (the path of that `package.json`), for the message. */
  readonly where: string | undefined
}

export function resolvedAvsc(): ResolvedAvsc {
  try {
    const require = createRequire(import.meta.url)
    const where = require.resolve('avsc/package.json')
    const { version } = require(where) as { version?: unknown }
    return { version: typeof version === 'string' ? version : undefined, where }
  } catch {
    return { version: undefined, where: undefined }
  }
}
