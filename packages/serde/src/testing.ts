// Test utilities: InMemoryRegistry, the in-memory Apicurio Registry 3 of @x/registry-testing. That package is an
// optional peer of @x/serde, installed by those who use this subpath (`npm install -D @x/registry-testing`), so that
// a production install carries no test double. Without it, importing or require()-ing this subpath fails with
// Node's ERR_MODULE_NOT_FOUND: "Cannot find package '@x/registry-testing' imported from …". The re-export stays
// static (no top-level await, no require of our own), so require() of this subpath and bundlers keep working.
export * from '@x/registry-testing'
