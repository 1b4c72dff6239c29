#!/usr/bin/env node
// The `x-serde` command. A committed launcher rather than dist/bin.js itself, so that the bin exists when pnpm links
// it into the workspace, before anything is built.
import '../dist/bin.js'
