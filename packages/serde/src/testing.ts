// Test utilities: the in-memory Apicurio Registry 3 of @x/registry-client.
export * from '@x/registry-client/testing'
