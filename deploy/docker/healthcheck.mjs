// Docker's HEALTHCHECK: healthy when /readyz answers 200 (Redis reachable, the browser able to
// render, not draining). The API (serve, api) answers on PORT, a worker on WORKER_PORT: the
// first port that answers decides.
const ports = [process.env.PORT || '8080', process.env.WORKER_PORT || '8081'];
const problems = [];
for (const port of ports) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(8_000) });
    if (res.ok) process.exit(0);
    console.log(`/readyz on port ${port} answered ${res.status}: ${await res.text()}`);
    process.exit(1);
  } catch (err) {
    problems.push(`port ${port}: ${err.cause?.code ?? err.message}`);
  }
}
console.log(`/readyz did not answer (${problems.join('; ')})`);
process.exit(1);
