#!/bin/sh
# The image's entry, run by tini (PID 1, which reaps Chromium's zombies and passes signals on):
#   serve (default) | api | worker   the service's roles, node itself receiving SIGTERM
#   keys ARGS                        the operator's key command (npm run keys)
#   anything else                    run as given (e.g. redis-server for the compose stack)
set -e
case "${1:-serve}" in
  serve)
    # One container with its own Redis on the /data volume: unless the operator sets
    # JOB_SECRETS_KEY, the key that seals queued jobs' target_headers is made once and kept
    # on that volume, so a preview report with target_headers works from `docker run` and
    # jobs queued before a restart still open after it. Scale-out roles share one Redis and
    # must share one key: there the operator sets it (see .env.example).
    if [ -z "${JOB_SECRETS_KEY:-}" ] && [ -z "${REDIS_URL:-}${REDIS_SENTINELS:-}" ] && [ -d /data ] && [ -w /data ]; then
      [ -s /data/job-secrets.key ] || (umask 077 && head -c 32 /dev/urandom | base64 > /data/job-secrets.key)
      JOB_SECRETS_KEY=$(cat /data/job-secrets.key)
      export JOB_SECRETS_KEY
    fi
    exec node /app/build/server/main.js serve
    ;;
  api | worker)
    exec node /app/build/server/main.js "${1:-serve}"
    ;;
  keys)
    shift
    exec node /app/build/server/keys/cli.js "$@"
    ;;
  *)
    exec "$@"
    ;;
esac
