import { defineConfig } from 'vitest/config'

// Integration stage (`pnpm test:integration`): adds what needs Java, Maven or Python. The global setups start a
// real Apicurio Registry 3 and a real Kafka broker (KRaft) from Maven Central on 127.0.0.1, hand their addresses to
// the tests through `inject('registryUrl')` / `inject('kafkaBrokers')`, and stop them at the end.
// `X_SERDE_TEST_REGISTRY_URL=http://host:port/apis/registry/v3 pnpm test:integration` uses that registry instead of
// starting one; `X_SERDE_TEST_KAFKA_BROKERS=host:port` likewise for the broker (never REGISTRY_URL / KAFKA_BROKERS,
// which a developer may have exported for the CLI or the demo).
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.contract.test.ts', '**/src/**/*.integration.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    globalSetup: ['./scripts/integration/apicurio.ts', './scripts/integration/kafka.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
})
