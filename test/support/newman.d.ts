/** The part of newman's programmatic API the tests use (the package ships no types). */
declare module 'newman' {
  interface Variable { key: string; value: string }
  interface Execution {
    item: { name: string; request: { method: string; url: { path?: string[] } } };
    response?: { code: number; stream?: Buffer; headers: { get(name: string): string | undefined } };
    requestError?: Error;
    assertions?: Array<{ assertion: string; error?: { message: string } }>;
  }
  interface Summary {
    run: {
      executions: Execution[];
      failures: Array<{ error: { message: string; test?: string }; source?: { name?: string } }>;
    };
  }
  interface RunOptions {
    collection: object;
    envVar?: Variable[];
    reporters?: string[];
    timeoutRequest?: number;
  }
  export function run(options: RunOptions, callback: (err: Error | null, summary: Summary) => void): void;
}
