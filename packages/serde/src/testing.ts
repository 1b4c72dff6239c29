// Test utilities: InMemoryRegistry, the in-memory Apicurio Registry 3 of @x/registry-testing.
export * from '@x/registry-testing'
