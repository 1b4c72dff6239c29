// Plain fetch helpers for InMemoryRegistry's own tests.

/** An answer, read whole. */
export interface HttpResult {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** Sends a request below `baseUrl` (`.../apis/registry/v3`); an object body is sent as JSON. */
export async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  const init: RequestInit = { method, headers: { ...headers } }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    init.headers = { 'Content-Type': 'application/json', ...headers }
  }
  const response = await fetch(`${baseUrl}${path}`, init)
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** Parses a JSON answer. */
export function json(result: HttpResult): any {
  return JSON.parse(result.text)
}

/** A `CreateArtifact` body for an Avro schema. */
export function createArtifactBody(
  artifactId: string,
  content: string,
  options: { references?: unknown[]; version?: string; artifactType?: string | null } = {},
): Record<string, unknown> {
  const firstVersion: Record<string, unknown> = {
    content: {
      content,
      contentType: 'application/json',
      ...(options.references ? { references: options.references } : {}),
    },
  }
  if (options.version !== undefined) firstVersion.version = options.version
  const body: Record<string, unknown> = { artifactId, firstVersion }
  if (options.artifactType !== null) body.artifactType = options.artifactType ?? 'AVRO'
  return body
}

/** Registers and returns `[globalId, contentId, version]` of the answer (or the status when not 200). */
export async function register(
  baseUrl: string,
  groupId: string,
  artifactId: string,
  content: string,
  query = '',
  options: { references?: unknown[]; version?: string } = {},
): Promise<[number, number, string] | number> {
  const result = await call(
    baseUrl,
    'POST',
    `/groups/${groupId}/artifacts${query}`,
    createArtifactBody(artifactId, content, options),
  )
  if (result.status !== 200) return result.status
  const { version } = json(result)
  return [version.globalId, version.contentId, version.version]
}

/** Apicurio's dates, replaced so that answers can be compared as text. */
export function withoutDates(text: string): string {
  return text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'DATE')
}

/** A record schema with a given name (distinct content per name). */
export function record(name: string, fields = '[]'): string {
  return `{"type":"record","name":"${name}","fields":${fields}}`
}
