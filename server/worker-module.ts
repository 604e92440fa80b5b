/**
 * A worker thread's module beside its caller: `.ts` when the service runs from its sources
 * (tsx), `.js` when it runs compiled (the container image compiles server/ at build).
 */
export function workerModule(callerUrl: string, name: string): URL {
  return new URL(`./${name}${callerUrl.endsWith('.ts') ? '.ts' : '.js'}`, callerUrl);
}
