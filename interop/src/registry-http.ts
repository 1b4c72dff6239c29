/** Version metadata as the registry reports it (ids kept as the JSON numbers; the interop ids are small). */
export interface VersionMetadata {
  version: string
  globalId: number
  contentId: number
}

/** Direct registry look-ups the suites use to check what the serdes registered (plain fetch, no library code). */
export async function latestVersion(
  registryUrl: string,
  groupId: string,
  artifactId: string,
): Promise<VersionMetadata> {
  return getJson(
    `${registryUrl}/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions/branch=latest`,
  )
}

export async function versionMetadata(
  registryUrl: string,
  groupId: string,
  artifactId: string,
  version: string,
): Promise<VersionMetadata> {
  return getJson(
    `${registryUrl}/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions/${encodeURIComponent(version)}`,
  )
}

export async function listVersions(
  registryUrl: string,
  groupId: string,
  artifactId: string,
): Promise<VersionMetadata[]> {
  const body = await getJson<{ versions: VersionMetadata[] }>(
    `${registryUrl}/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions?limit=100&orderby=globalId&order=asc`,
  )
  return body.versions
}

export async function versionReferences(
  registryUrl: string,
  groupId: string,
  artifactId: string,
  version: string,
): Promise<{ groupId?: string; artifactId: string; version: string; name: string }[]> {
  return getJson(
    `${registryUrl}/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}/versions/${encodeURIComponent(version)}/references`,
  )
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) })
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as T
}
