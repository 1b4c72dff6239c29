import { recordJson } from './contract-answers.js'
import type { ContractRuleSet } from './contract-types.js'
import type { RegistryRequest } from './registry-http.js'
import type { RequestFacts } from './telemetry.js'

/** Which ruleset a call is about: the global one, an artifact's, or a version's. */
export type RulesetScope =
  | { kind: 'global' }
  | { kind: 'artifact'; groupId: string; artifactId: string }
  | { kind: 'version'; groupId: string; artifactId: string; version: string }

function versionSegment(version: string): string {
  return version.startsWith('branch=')
    ? `branch=${encodeURIComponent(version.slice('branch='.length))}`
    : encodeURIComponent(version)
}

function artifactPath(groupId: string, artifactId: string): string {
  return `/groups/${encodeURIComponent(groupId)}/artifacts/${encodeURIComponent(artifactId)}`
}

function scopePath(scope: RulesetScope): { path: string; route: string; attributes: Record<string, string> } {
  if (scope.kind === 'global')
    return { path: '/admin/contracts/ruleset', route: '/admin/contracts/ruleset', attributes: {} }
  const attributes: Record<string, string> = {
    'apicurio.groupId': scope.groupId,
    'apicurio.artifactId': scope.artifactId,
  }
  const artifact = artifactPath(scope.groupId, scope.artifactId)
  if (scope.kind === 'artifact') {
    return {
      path: `${artifact}/contract/ruleset`,
      route: '/groups/{groupId}/artifacts/{artifactId}/contract/ruleset',
      attributes,
    }
  }
  attributes['apicurio.version'] = scope.version
  return {
    path: `${artifact}/versions/${versionSegment(scope.version)}/contract/ruleset`,
    route: '/groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}/contract/ruleset',
    attributes,
  }
}

function request(
  method: RegistryRequest['method'],
  where: { path: string; route: string; attributes: Record<string, string> },
  body?: string,
): RegistryRequest {
  const facts: RequestFacts = { method, route: where.route, attributes: where.attributes }
  const sent: RegistryRequest = { method, path: where.path, facts, retry: 'always' }
  if (body !== undefined) {
    sent.body = body
    sent.headers = { 'Content-Type': 'application/json' }
  }
  return sent
}

/** `GET …/contract/ruleset` (or `/admin/contracts/ruleset`). */
export function getRulesetRequest(scope: RulesetScope): RegistryRequest {
  return request('GET', scopePath(scope))
}

/** `PUT …/contract/ruleset` with the ruleset: repeating it sets the same ruleset, so it is retried like a read. */
export function setRulesetRequest(scope: RulesetScope, ruleset: ContractRuleSet): RegistryRequest {
  return request('PUT', scopePath(scope), JSON.stringify(ruleset))
}

/** `DELETE …/contract/ruleset`: repeating it deletes nothing more, so it is retried like a read. */
export function deleteRulesetRequest(scope: RulesetScope): RegistryRequest {
  return request('DELETE', scopePath(scope))
}

/**
 * `POST /groups/{g}/artifacts/{a}/versions/{v}/contract/execute` with `{ mode, record }`: the registry evaluates
 * the record and changes nothing, so the request is retried like a read.
 */
export function executeRequest(
  groupId: string,
  artifactId: string,
  version: string,
  mode: string,
  record: unknown,
): RegistryRequest {
  return request(
    'POST',
    {
      path: `${artifactPath(groupId, artifactId)}/versions/${versionSegment(version)}/contract/execute`,
      route: '/groups/{groupId}/artifacts/{artifactId}/versions/{versionExpression}/contract/execute',
      attributes: {
        'apicurio.groupId': groupId,
        'apicurio.artifactId': artifactId,
        'apicurio.version': version,
      },
    },
    `{"mode":${JSON.stringify(mode)},"record":${recordJson(record)}}`,
  )
}

/** `POST /groups/{g}/artifacts/{a}/contract/migrate` with `{ fromVersion, toVersion, record }`; retried like a read. */
export function migrateRequest(
  groupId: string,
  artifactId: string,
  fromVersion: string,
  toVersion: string,
  record: unknown,
): RegistryRequest {
  return request(
    'POST',
    {
      path: `${artifactPath(groupId, artifactId)}/contract/migrate`,
      route: '/groups/{groupId}/artifacts/{artifactId}/contract/migrate',
      attributes: { 'apicurio.groupId': groupId, 'apicurio.artifactId': artifactId },
    },
    `{"fromVersion":${JSON.stringify(fromVersion)},"toVersion":${JSON.stringify(toVersion)},"record":${recordJson(record)}}`,
  )
}

/** `GET /groups/{g}/artifacts/{a}/versions?orderby=globalId&order=asc&offset=…&limit=100`: versions, oldest first. */
export function versionPageRequest(groupId: string, artifactId: string, offset: number): RegistryRequest {
  return request('GET', {
    path: `${artifactPath(groupId, artifactId)}/versions?orderby=globalId&order=asc&offset=${offset}&limit=100`,
    route: '/groups/{groupId}/artifacts/{artifactId}/versions',
    attributes: { 'apicurio.groupId': groupId, 'apicurio.artifactId': artifactId },
  })
}
