/// <reference path="../../../../scripts/integration/context.d.ts" />
import { randomBytes } from 'node:crypto'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll, inject } from 'vitest'

/** One HTTP answer of the registry, its body as text. */
export interface Answer {
  status: number
  contentType: string | null
  text: string
}

/** What a contract test file talks to: the registry's v3 root and a group unique to the run. */
export interface ContractTarget {
  readonly url: string
  readonly group: string
  /** Unique to the run, for artifact ids and namespaces. */
  readonly run: string
  /** Whether the target is a real registry (the integration stage) rather than InMemoryRegistry. */
  readonly real: boolean
}

/**
 * The registry a contract suite runs against: the real Apicurio the integration stage started (`inject('registryUrl')`,
 * or `X_SERDE_TEST_REGISTRY_URL`; never `REGISTRY_URL`, which a developer may have set for the CLI or the demo), else an InMemoryRegistry started for the file. Call at the top of a test file: it registers
 * the hooks that start and stop it. Everything the suite creates lives in a group unique to the run, so it passes
 * against a long-lived registry too.
 */
export function contractTarget(): ContractTarget {
  const external = inject('registryUrl') ?? process.env.X_SERDE_TEST_REGISTRY_URL
  const run = `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
  let local: InMemoryRegistry | undefined
  // X_SERDE_TEST_GROUP_PREFIX: a prefix for the group on a shared registry whose users each keep to their own prefix.
  const prefix = process.env.X_SERDE_TEST_GROUP_PREFIX ?? ''
  const target = { url: '', group: `${prefix}contract-${run}`, run, real: external !== undefined }
  beforeAll(async () => {
    if (external !== undefined) target.url = external.replace(/\/+$/, '')
    else {
      local = await InMemoryRegistry.start()
      target.url = local.url
    }
  })
  afterAll(async () => {
    await local?.close()
  })
  return target
}

/** A raw request to the target (a JSON body unless a string is given). */
export async function http(
  target: ContractTarget,
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const init: RequestInit = { method }
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body)
    init.headers = { 'Content-Type': 'application/json' }
  }
  const response = await fetch(`${target.url}${path}`, init)
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text: await response.text(),
  }
}

export function data(answer: Answer): any {
  return JSON.parse(answer.text)
}
