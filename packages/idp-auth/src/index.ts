export { IdpAuth } from './idp-auth.js'
export type { IdpAuthOptions } from './idp-auth-options.js'
export type { TokenRetryOptions } from './token-retry.js'
