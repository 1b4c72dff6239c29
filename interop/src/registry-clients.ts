import { RegistryClient } from '@x/registry-client'
import { afterAll } from 'vitest'

/**
 * Registry clients for one test file: `client(groupId?)` makes one on `url` (group `default` unless named), and every
 * client made is closed after the file's tests. Call at the top of a test file: it registers the `afterAll` hook.
 */
export function registryClients(url: string): (groupId?: string) => RegistryClient {
  const clients: RegistryClient[] = []
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()))
  })
  return (groupId = 'default') => {
    const created = new RegistryClient({ url, groupId })
    clients.push(created)
    return created
  }
}
