// Files named on the command line (`npx mocha test/x.test.ts`) run alone; without any, the
// whole suite runs. A fixed `spec` here would be added to the named files, not replaced.
const named = process.argv.slice(2).some((a) => /\.test\.ts$/.test(a));

module.exports = {
  import: ['tsx'],
  spec: named ? [] : ['test/**/*.test.ts'],
  extension: ['ts'],
  require: ['test/support/root-hooks.ts'],
  timeout: 60000,
  // No `exit: true`: a test that leaves a handle open must fail, not be hidden. The root
  // hooks (test/support/root-hooks.ts) name what is still open and fail the run.
};
