/** A command line that cannot be run as given: exit code 2, the message printed as is. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A check that failed (a refused schema, a moved lockfile): exit code 1, its lines already printed. */
export class CheckFailed extends Error {
  override name = 'CheckFailed'
}

/** The registry was reached and refused a request with a problem report of its own: exit code 1, the report quoted. */
export class RegistryRefused extends Error {
  override name = 'RegistryRefused'
}
