import { randomUUID } from 'node:crypto'
import { canonicalHash, contentHash } from './content.js'
import type { JsonText } from './json-text.js'
import { artifactMetaData, versionMetaData } from './metadata.js'
import { checkNewArtifactId, checkNewGroupId, isValidVersion, rawGroupId } from './params.js'
import { artifactAlreadyExists, RegistryProblem, versionAlreadyExists } from './problems.js'
import { type ArtifactRequest, artifactTypeOf, type VersionRequest } from './request-body.js'
import { applyRules } from './rule-checks.js'
import type { RegistryStorage, StoredArtifact, StoredContent, StoredVersion } from './storage.js'

/** Apicurio's `ifExists` (`IfArtifactExists`). */
export type IfArtifactExists = 'FAIL' | 'CREATE_VERSION' | 'FIND_OR_CREATE_VERSION'

export interface CreateOptions {
  readonly ifExists: IfArtifactExists
  /** Compare canonical forms when looking for existing content (`FIND_OR_CREATE_VERSION`). */
  readonly canonical: boolean
  /** Answer as if created, store nothing (ids are drawn all the same). */
  readonly dryRun: boolean
}

/**
 * `POST /groups/{groupId}/artifacts`, step for step as Apicurio 3.3 on its SQL storage does it, so that ids come out
 * the same: the group is created on first use; the content row is stored (drawing a contentId) before Apicurio
 * notices that the artifact exists; then `ifExists` decides: `FAIL` (or no `firstVersion`) is 409,
 * `CREATE_VERSION` adds a version (storing the content again, which draws another contentId), and
 * `FIND_OR_CREATE_VERSION` returns the newest version with the same content and references (compared in canonical
 * form with `canonical`) or else adds one.
 */
export function createArtifact(
  storage: RegistryStorage,
  groupIdAsGiven: string,
  request: ArtifactRequest,
  options: CreateOptions,
): JsonText {
  const groupId = rawGroupId(groupIdAsGiven)
  if (groupId !== null) checkNewGroupId(groupId)
  const artifactType = artifactTypeOf(request)
  const artifactId =
    request.artifactId === undefined || request.artifactId.trim() === '' ? randomUUID() : request.artifactId
  checkNewArtifactId(artifactId)
  const first = request.firstVersion
  if (first !== undefined && storage.artifact(groupId, artifactId) === undefined) {
    applyRules(storage, {
      groupId,
      artifactId,
      artifactType,
      text: first.content,
      references: first.references,
      existing: [],
    })
  }
  storage.ensureGroup(groupId)
  const content =
    first === undefined
      ? undefined
      : storage.ensureContent(first.content, first.contentType, first.references, artifactType)

  if (artifactId.length > 512) throw valueTooLong(artifactId)
  const existing = storage.artifact(groupId, artifactId)
  if (existing !== undefined) {
    if (first === undefined || options.ifExists === 'FAIL')
      throw artifactAlreadyExists(groupIdAsGiven, artifactId)
    const found =
      options.ifExists === 'FIND_OR_CREATE_VERSION'
        ? findVersion(storage, existing, first, options.canonical)
        : undefined
    const version = found ?? addVersion(storage, existing, first, groupIdAsGiven, options.dryRun)
    return { artifact: artifactMetaData(existing), version: versionMetaData(version) }
  }

  const artifact: StoredArtifact = {
    groupId,
    artifactId,
    artifactType,
    createdOn: storage.now(),
    name: request.name,
    description: request.description,
    labels: request.labels,
    versions: [],
    versionOrder: 0,
  }
  if (first === undefined || content === undefined) {
    if (!options.dryRun) storage.addArtifact(artifact)
    return { artifact: artifactMetaData(artifact) }
  }
  const version = newVersion(storage, artifact, first, content, groupIdAsGiven)
  if (!options.dryRun) {
    storage.addArtifact(artifact)
    storage.addVersion(artifact, version)
    artifact.versionOrder += 1
  }
  return { artifact: artifactMetaData(artifact), version: versionMetaData(version) }
}

/**
 * `POST /groups/{groupId}/artifacts/{artifactId}/versions` (and the adding half of `CREATE_VERSION` /
 * `FIND_OR_CREATE_VERSION`): stores the content (drawing a contentId), draws a globalId, then checks the version.
 */
export function addVersion(
  storage: RegistryStorage,
  artifact: StoredArtifact,
  request: VersionRequest,
  groupIdAsGiven: string,
  dryRun: boolean,
): StoredVersion {
  applyRules(storage, {
    groupId: artifact.groupId,
    artifactId: artifact.artifactId,
    artifactType: artifact.artifactType,
    text: request.content,
    references: request.references,
    existing: artifact.versions,
  })
  const content = storage.ensureContent(
    request.content,
    request.contentType,
    request.references,
    artifact.artifactType,
  )
  const version = newVersion(storage, artifact, request, content, groupIdAsGiven)
  if (!dryRun) {
    storage.addVersion(artifact, version)
    artifact.versionOrder += 1
  }
  return version
}

function newVersion(
  storage: RegistryStorage,
  artifact: StoredArtifact,
  request: VersionRequest,
  content: StoredContent,
  groupIdAsGiven: string,
): StoredVersion {
  const globalId = storage.globalIds.draw()
  if (request.version !== undefined && !isValidVersion(request.version)) {
    throw new RegistryProblem(
      400,
      'ValidationException',
      `Version ID '${request.version}' is invalid. It must consist of alphanumeric characters or '._-+', and have length 1..256 (inclusive).`,
    )
  }
  const name = request.version ?? String(artifact.versionOrder + 1)
  if (artifact.versions.some((v) => v.version === name)) {
    throw versionAlreadyExists(groupIdAsGiven, artifact.artifactId, request.version ?? 'null')
  }
  return {
    state: 'ENABLED',
    globalId,
    groupId: artifact.groupId,
    artifactId: artifact.artifactId,
    version: name,
    contentId: content.contentId,
    artifactType: artifact.artifactType,
    createdOn: storage.now(),
    name: request.name,
    description: request.description,
    labels: request.labels,
  }
}

/** The newest version of `artifact` whose content and references match (canonically, with `canonical`). */
function findVersion(
  storage: RegistryStorage,
  artifact: StoredArtifact,
  request: VersionRequest,
  canonical: boolean,
): StoredVersion | undefined {
  const wanted = canonical
    ? canonicalHash(
        artifact.artifactType,
        request.content,
        request.references,
        storage.resolveReferences(request.references),
      )
    : contentHash(request.content, request.references)
  for (let i = artifact.versions.length - 1; i >= 0; i--) {
    const version = artifact.versions[i] as StoredVersion
    const content = storage.contentById(version.contentId)
    if ((canonical ? content?.canonicalHash : content?.hash) === wanted) return version
  }
  return undefined
}

/** What Apicurio's database says to an artifact id beyond its 512-character column. */
function valueTooLong(artifactId: string): RegistryProblem {
  const message = `Value too long for column "ARTIFACTID CHARACTER VARYING(512)": "'${artifactId.slice(0, 79)}... (${artifactId.length})"`
  return new RegistryProblem(500, 'RuntimeSqlException', `org.h2.jdbc.JdbcSQLDataException: ${message}`, {
    detail: `JdbcSQLDataException: ${message}`,
  })
}
