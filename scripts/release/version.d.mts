/** changesets' release plan with each 0.x release taken to a major only by a peer's range made a minor instead. */
export function withZeroMajorsAsMinor<
  Plan extends {
    changesets: { releases: { name: string; type: string }[] }[]
    releases: { name: string; type: string; oldVersion: string; newVersion: string }[]
  },
>(plan: Plan): Plan
