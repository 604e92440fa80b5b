#!/usr/bin/env bash
# Runs only the named test files: scripts/test-one.sh test/api/keys.test.ts
# (.mocharc.cjs runs the whole suite only when no file is named; `npx mocha file` does the same.)
cd "$(dirname "$0")/.." && PATH="$PWD/node_modules/.bin:$PATH" exec node --import tsx node_modules/mocha/bin/mocha.js "$@"
