// @x/serde adds nothing of its own: it re-exports the whole public API of its five members. A name exported by two
// members would be ambiguous and dropped from `export *`; src/index.test.ts pins the full list so that cannot pass.
export * from '@x/avro-serde'
export * from '@x/errors'
export * from '@x/idp-auth'
export * from '@x/registry-client'
export * from '@x/wire-format'
