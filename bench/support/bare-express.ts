import express from 'express';

/** The baseline: a bare Express 5 handler returning a usage-shaped JSON body. */
const app = express();
app.get('/api/usage', (_req, res) => {
  res.json({ calls_this_period: 0, rate_limit_remaining_today: 1000, status: 'active', tier: 'pro', daily_limit: 1000 });
});
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ready'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
