#!/usr/bin/env bash
# Runs only the named test files (mocha's config would add every spec): scripts/test-one.sh test/api/keys.test.ts
cd "$(dirname "$0")/.." && PATH="$PWD/node_modules/.bin:$PATH" exec node --import tsx node_modules/mocha/bin/mocha.js --no-config --require test/support/root-hooks.ts --timeout 60000 --exit "$@"
