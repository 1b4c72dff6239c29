import { type Answer, problemAnswer } from './answer.js'
import * as artifacts from './artifact-routes.js'
import * as contracts from './contract-routes.js'
import * as ids from './id-routes.js'
import { normalizePath } from './path-normalization.js'
import { methodNotAllowed, noResource, RegistryProblem } from './problems.js'
import type { RouteContext } from './route-context.js'
import * as rules from './rule-routes.js'

/** The base path of Apicurio Registry's v3 API. */
export const API_BASE = '/apis/registry/v3'

type Handler = (ctx: RouteContext) => Answer

interface Route {
  /** Path segments after the base; `:name` is a parameter. */
  readonly pattern: readonly string[]
  /** Handlers by method, in the order Apicurio's `Allow` header lists them. */
  readonly methods: Readonly<Record<string, Handler>>
  /** Whether the route answers without a token when bearer checks are on (Apicurio's system info does). */
  readonly public?: boolean
}

const VERSION = ['groups', ':groupId', 'artifacts', ':artifactId', 'versions', ':version']

const RULES = { DELETE: rules.deleteRules, POST: rules.createRule, GET: rules.listRules }
const RULE = { DELETE: rules.deleteRule, PUT: rules.updateRule, GET: rules.getRule }
const ARTIFACT = ['groups', ':groupId', 'artifacts', ':artifactId']

const ROUTES: readonly Route[] = [
  { pattern: ['system', 'info'], methods: { GET: ids.getSystemInfo }, public: true },
  // RESTEasy serves a path with a trailing slash as the path without it, for this resource as for the others.
  { pattern: ['system', 'info', ''], methods: { GET: ids.getSystemInfo }, public: true },
  { pattern: ['admin', 'rules'], methods: RULES },
  { pattern: ['search', 'versions'], methods: { GET: artifacts.searchVersions } },
  {
    pattern: ['admin', 'contracts', 'ruleset'],
    methods: {
      GET: contracts.getGlobalRuleset,
      PUT: contracts.putGlobalRuleset,
      DELETE: contracts.deleteGlobalRuleset,
    },
  },
  {
    pattern: [...ARTIFACT, 'contract', 'ruleset'],
    methods: {
      GET: contracts.getArtifactRuleset,
      PUT: contracts.putArtifactRuleset,
      DELETE: contracts.deleteArtifactRuleset,
    },
  },
  { pattern: [...VERSION, 'contract', 'execute'], methods: { POST: contracts.executeRules } },
  { pattern: [...ARTIFACT, 'contract', 'migrate'], methods: { POST: contracts.migrateRecord } },
  {
    pattern: [...VERSION, 'contract', 'ruleset'],
    methods: {
      GET: contracts.getVersionRuleset,
      PUT: contracts.putVersionRuleset,
      DELETE: contracts.deleteVersionRuleset,
    },
  },
  { pattern: ['admin', 'rules', ':ruleType'], methods: RULE },
  { pattern: ['groups', ':groupId', 'rules'], methods: RULES },
  { pattern: ['groups', ':groupId', 'rules', ':ruleType'], methods: RULE },
  { pattern: [...ARTIFACT, 'rules'], methods: RULES },
  { pattern: [...ARTIFACT, 'rules', ':ruleType'], methods: RULE },
  { pattern: ['groups', ':groupId'], methods: { DELETE: artifacts.deleteGroup, GET: artifacts.getGroup } },
  {
    pattern: ['groups', ':groupId', 'artifacts'],
    methods: {
      DELETE: artifacts.deleteArtifacts,
      POST: artifacts.postArtifact,
      GET: artifacts.listArtifacts,
    },
  },
  {
    pattern: ['groups', ':groupId', 'artifacts', ':artifactId'],
    methods: { DELETE: artifacts.deleteArtifact, GET: artifacts.getArtifact },
  },
  {
    pattern: ['groups', ':groupId', 'artifacts', ':artifactId', 'versions'],
    methods: { POST: artifacts.postVersion, GET: artifacts.listVersions },
  },
  { pattern: VERSION, methods: { DELETE: artifacts.deleteVersion, GET: artifacts.getVersion } },
  {
    pattern: [...VERSION, 'state'],
    methods: { PUT: artifacts.putVersionState, GET: artifacts.getVersionState },
  },
  { pattern: [...ARTIFACT, 'branches'], methods: { GET: artifacts.listBranches } },
  { pattern: [...VERSION, 'content'], methods: { GET: artifacts.getVersionContent } },
  { pattern: [...VERSION, 'references'], methods: { GET: artifacts.getVersionReferences } },
  { pattern: ['ids', 'globalIds', ':globalId'], methods: { GET: ids.getByGlobalId } },
  { pattern: ['ids', 'globalIds', ':globalId', 'references'], methods: { GET: ids.getGlobalIdReferences } },
  { pattern: ['ids', 'contentIds', ':contentId'], methods: { GET: ids.getByContentId } },
  {
    pattern: ['ids', 'contentIds', ':contentId', 'references'],
    methods: { GET: ids.getContentIdReferences },
  },
  { pattern: ['ids', 'contentHashes', ':contentHash'], methods: { GET: ids.getByContentHash } },
  {
    pattern: ['ids', 'contentHashes', ':contentHash', 'references'],
    methods: { GET: ids.getContentHashReferences },
  },
]

/** A request matched to its route, before the handler runs. */
export interface MatchedRoute {
  readonly route: Route
  readonly params: Record<string, string>
}

/**
 * Finds the route of a raw request path (still percent-encoded), once its dot segments are removed as the
 * registry's HTTP server removes them (see `normalizePath`). Each segment is decoded on its own, so `%2F` inside an
 * id stays part of the id, as in Apicurio.
 */
export function matchRoute(rawPath: string): MatchedRoute | undefined {
  const path = normalizePath(rawPath)
  if (!path.startsWith(`${API_BASE}/`)) return undefined
  const segments = path.slice(API_BASE.length + 1).split('/')
  for (const route of ROUTES) {
    if (route.pattern.length !== segments.length) continue
    const params: Record<string, string> = {}
    let matches = true
    for (const [index, part] of route.pattern.entries()) {
      const segment = segments[index] as string
      if (part.startsWith(':')) {
        const decoded = decodeSegment(segment)
        if (decoded === undefined || decoded === '') matches = false
        else params[part.slice(1)] = decoded
      } else if (part !== segment) {
        matches = false
      }
      if (!matches) break
    }
    if (matches) return { route, params }
  }
  return undefined
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** Whether the route needs a token when InMemoryRegistry checks bearer tokens. */
export function isPublic(matched: MatchedRoute | undefined): boolean {
  return matched?.route.public === true
}

/** The `Allow` header of a route, as RESTEasy writes it (`HEAD, ..., OPTIONS`). */
export function allowHeader(route: Route): string {
  return ['HEAD', ...Object.keys(route.methods), 'OPTIONS'].join(', ')
}

/**
 * Runs the handler for a request and turns any `RegistryProblem` into its answer. `HEAD` is served as `GET`
 * (Node leaves the body out); `OPTIONS` lists the methods; JSON is the only body type `POST` consumes.
 */
export function dispatch(
  matched: MatchedRoute | undefined,
  fullUrl: string,
  makeContext: (params: Record<string, string>) => RouteContext,
): Answer {
  try {
    if (matched === undefined) throw noResource(fullUrl)
    const ctx = makeContext(matched.params)
    const allow = allowHeader(matched.route)
    if (ctx.method === 'OPTIONS') {
      return {
        status: 200,
        headers: { Allow: allow, 'Content-Type': 'text/plain;charset=UTF-8' },
        body: allow,
      }
    }
    const handler = matched.route.methods[ctx.method === 'HEAD' ? 'GET' : ctx.method]
    if (handler === undefined) throw methodNotAllowed(ctx.method, allow)
    if (ctx.method === 'POST' && !isJson(ctx.contentType)) {
      throw new RegistryProblem(415, 'NotSupportedException', 'RESTEASY003065: Cannot consume content type')
    }
    return handler(ctx)
  } catch (error) {
    if (error instanceof RegistryProblem) return problemAnswer(error)
    const message = error instanceof Error ? error.message : String(error)
    const name = error instanceof Error ? error.name : 'Error'
    return problemAnswer(new RegistryProblem(500, name, message))
  }
}

function isJson(contentType: string): boolean {
  return contentType === 'application/json'
}
