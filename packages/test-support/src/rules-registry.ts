import { RegistryClient } from '@x/registry-client'
import { InMemoryRegistry } from '@x/registry-testing'
import { afterAll, beforeAll } from 'vitest'

/** What {@link useRulesRegistry} gives a test file once its `beforeAll` has run. */
export interface RulesRegistry {
  readonly registry: InMemoryRegistry
  readonly client: RegistryClient
}

/**
 * An `InMemoryRegistry` started before the file's tests (it runs rulesets with the same engine as the serdes) and a
 * client of it in group `default` that does not retry, both closed after them; `setUp` (registering schemas,
 * setting rulesets) runs once both are up.
 */
export function useRulesRegistry(setUp?: (client: RegistryClient) => Promise<void>): RulesRegistry {
  let registry: InMemoryRegistry | undefined
  let client: RegistryClient | undefined
  beforeAll(async () => {
    registry = await InMemoryRegistry.start()
    client = new RegistryClient({ url: registry.url, groupId: 'default', maxRetries: 0 })
    await setUp?.(client)
  })
  afterAll(async () => {
    await client?.close()
    await registry?.close()
  })
  return {
    get registry() {
      if (registry === undefined) throw new Error('the registry starts in beforeAll')
      return registry
    },
    get client() {
      if (client === undefined) throw new Error('the registry starts in beforeAll')
      return client
    },
  }
}
