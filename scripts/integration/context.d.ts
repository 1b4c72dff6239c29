// What the integration stage's global setups hand to the tests (`inject('registryUrl')`, `inject('kafkaBrokers')`,
// `inject('confluentClient')`).
import 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of a real Apicurio Registry 3, ending in `/apis/registry/v3` (scripts/integration/apicurio.ts). */
    registryUrl: string
    /** `host:port` of a real Kafka broker, PLAINTEXT (scripts/integration/kafka.ts). */
    kafkaBrokers: string
    /** Directory of Confluent's `@confluentinc/kafka-javascript`, built for this Node (scripts/integration/confluent.ts). */
    confluentClient: string
  }
}
