// The site's configuration: pages, navigation, local search. Pages show code through `<<<` includes of tested
// files (snippets/, examples/); generated/ holds the figures written by scripts/prepare.mjs, included by pages.
import { defineConfig } from 'vitepress'

const sidebar = [
  {
    text: 'Introduction',
    items: [
      { text: 'Getting started', link: '/getting-started' },
      { text: 'The packages', link: '/packages' },
      { text: 'Examples', link: '/examples' },
    ],
  },
  {
    text: 'Kafka clients',
    items: [
      { text: 'KafkaJS', link: '/guides/kafkajs' },
      { text: "Confluent's kafka-javascript", link: '/guides/confluent' },
      { text: "Platformatic's client", link: '/guides/platformatic' },
      { text: 'AWS Lambda', link: '/guides/lambda' },
    ],
  },
  {
    text: 'Coming from',
    items: [
      { text: 'The Confluent serdes', link: '/migrating/confluent' },
      { text: 'kafkajs-SR', link: '/migrating/kafkajs-schema-registry' },
      { text: 'The Python library', link: '/migrating/python' },
    ],
  },
  {
    text: 'Topics',
    items: [
      { text: 'Wire formats', link: '/wire-formats' },
      { text: 'Configuration', link: '/configuration' },
      { text: 'Errors', link: '/errors' },
      { text: 'Data contracts', link: '/data-contracts' },
      { text: 'Poison messages and outages', link: '/operations' },
      { text: 'Java interop', link: '/java-interop' },
      { text: 'Compatibility in CI', link: '/compatibility-in-ci' },
      { text: 'The CLI', link: '/cli' },
    ],
  },
  {
    text: 'Packages',
    collapsed: true,
    items: [
      { text: '@x/avro-serde', link: '/packages/avro-serde' },
      { text: 'Avro type mapping', link: '/packages/avro-type-mapping' },
      { text: '@x/jsonschema-serde', link: '/packages/jsonschema-serde' },
      { text: '@x/protobuf-serde', link: '/packages/protobuf-serde' },
      { text: '@x/kafka', link: '/packages/kafka' },
      { text: '@x/lambda', link: '/guides/lambda' },
      { text: '@x/message-contract', link: '/packages/message-contract' },
      { text: '@x/registry-client', link: '/packages/registry-client' },
      { text: '@x/registry-testing', link: '/packages/registry-testing' },
      { text: '@x/idp-auth', link: '/packages/idp-auth' },
      { text: '@x/serde-core', link: '/packages/serde-core' },
      { text: '@x/wire-format', link: '/packages/wire-format' },
      { text: '@x/compatibility', link: '/packages/compatibility' },
      { text: '@x/rules', link: '/data-contracts' },
      { text: '@x/errors', link: '/packages/errors' },
      { text: '@x/cli', link: '/packages/cli' },
    ],
  },
  {
    text: 'Project',
    items: [
      { text: 'Reliability and speed', link: '/reliability-and-speed' },
      { text: 'Releases and versions', link: '/releases' },
      { text: 'Contributing', link: '/contributing' },
      { text: 'API reference', link: '/api' },
    ],
  },
]

// biome-ignore lint/style/noDefaultExport: VitePress reads the configuration from the default export
export default defineConfig({
  title: '@x/serde',
  description: 'Avro, JSON Schema and Protobuf for Kafka on Apicurio Registry 3, in Node.js',
  cleanUrls: false,
  srcExclude: ['generated/**', 'snippets/**', 'scripts/**', 'public/**'],
  lastUpdated: false,
  head: [['link', { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }]],
  themeConfig: {
    nav: [
      { text: 'Guide', link: '/getting-started' },
      { text: 'API reference', link: '/api' },
    ],
    sidebar,
    search: { provider: 'local' },
    outline: [2, 3],
  },
})
