import client from 'prom-client';

/** Prometheus metrics of one app instance (own registry, so tests can build several apps). */
export function createMetrics() {
  const registry = new client.Registry();
  const requests = new client.Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route',
    labelNames: ['route', 'method'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const rejections = new client.Counter({
    name: 'rate_limit_rejections_total',
    help: 'Requests refused with 429, by limiter',
    labelNames: ['limit'] as const,
    registers: [registry],
  });
  return { registry, requests, duration, rejections };
}

export type Metrics = ReturnType<typeof createMetrics>;
