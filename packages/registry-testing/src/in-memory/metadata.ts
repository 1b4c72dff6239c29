import type { StoredReference } from './content.js'
import type { JsonText } from './json-text.js'
import type { StoredArtifact, StoredGroup, StoredVersion } from './storage.js'

// The answer bodies of Apicurio 3.3, member for member in the order its Jackson beans write them. Apicurio leaves
// out null members: the default group has no `groupId`, an artifact without a name has no `name`.

type Json = { readonly [key: string]: JsonText | undefined }

function groupOf(groupId: string | null): string | undefined {
  return groupId ?? undefined
}

/** `ArtifactMetaData`. */
export function artifactMetaData(artifact: StoredArtifact): Json {
  return {
    name: artifact.name,
    description: artifact.description,
    owner: '',
    createdOn: artifact.createdOn,
    modifiedBy: '',
    modifiedOn: artifact.createdOn,
    artifactType: artifact.artifactType,
    labels: artifact.labels,
    groupId: groupOf(artifact.groupId),
    artifactId: artifact.artifactId,
  }
}

/** `VersionMetaData`. */
export function versionMetaData(version: StoredVersion): Json {
  return {
    version: version.version,
    name: version.name,
    description: version.description,
    owner: '',
    createdOn: version.createdOn,
    artifactType: version.artifactType,
    globalId: version.globalId,
    state: version.state,
    labels: version.labels,
    groupId: groupOf(version.groupId),
    contentId: version.contentId,
    artifactId: version.artifactId,
    modifiedBy: '',
    modifiedOn: version.createdOn,
  }
}

/** `SearchedArtifact`, an entry of `ArtifactSearchResults.artifacts`. */
export function searchedArtifact(artifact: StoredArtifact): Json {
  return {
    name: artifact.name,
    description: artifact.description,
    createdOn: artifact.createdOn,
    owner: '',
    artifactType: artifact.artifactType,
    modifiedOn: artifact.createdOn,
    modifiedBy: '',
    groupId: groupOf(artifact.groupId),
    artifactId: artifact.artifactId,
    labels: artifact.labels,
  }
}

/** `SearchedVersion`, an entry of `VersionSearchResults.versions`. */
export function searchedVersion(version: StoredVersion): Json {
  return {
    name: version.name,
    description: version.description,
    createdOn: version.createdOn,
    owner: '',
    artifactType: version.artifactType,
    state: version.state,
    globalId: version.globalId,
    version: version.version,
    contentId: version.contentId,
    artifactId: version.artifactId,
    groupId: groupOf(version.groupId),
    modifiedBy: '',
    modifiedOn: version.createdOn,
    labels: version.labels,
  }
}

/** `GroupMetaData`. */
export function groupMetaData(group: StoredGroup): Json {
  return {
    owner: '',
    createdOn: group.createdOn,
    modifiedBy: '',
    modifiedOn: group.createdOn,
    groupId: group.groupId,
  }
}

/** `ArtifactReference`; a reference into the default group has no `groupId`. */
export function artifactReference(reference: StoredReference): Json {
  return {
    groupId: groupOf(reference.groupId),
    artifactId: reference.artifactId,
    version: reference.version,
    name: reference.name,
  }
}
