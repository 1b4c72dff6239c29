// The request path as the registry's HTTP server (Vert.x, under Quarkus) routes it.

const UNRESERVED_ESCAPE = /%(2[dDeE]|3\d|[46][1-9a-fA-F]|[57][0-9aA]|5[fF]|7[eE])/g

/**
 * The path a request is routed by: percent-escapes of unreserved characters (letters, digits, `-`, `.`, `_`, `~`)
 * decoded and then the dot segments removed (RFC 3986, 5.2.4), as Vert.x normalises a path before Apicurio sees it.
 * So `/groups/./artifacts` and `/groups/%2E/artifacts` are both `/groups/artifacts`: no request can name a group or
 * artifact `.` or `..`. Other escapes (`%2F`, `%25`, ...) are kept for each segment to be decoded on its own.
 */
export function normalizePath(rawPath: string): string {
  if (!rawPath.includes('%') && !rawPath.includes('/.')) return rawPath
  const decoded = rawPath.replace(UNRESERVED_ESCAPE, (triplet) =>
    String.fromCharCode(Number.parseInt(triplet.slice(1), 16)),
  )
  const input = decoded.split('/')
  const output: string[] = []
  for (const [index, segment] of input.entries()) {
    const last = index === input.length - 1
    if (segment === '.' || segment === '..') {
      if (segment === '..' && output.length > 1) output.pop()
      if (last) output.push('')
    } else {
      output.push(segment)
    }
  }
  return output.join('/')
}
