#!/bin/sh
# The image's entry, run by tini (PID 1, which reaps Chromium's zombies and passes signals on):
#   serve (default) | api | worker   the service's roles, node itself receiving SIGTERM
#   keys ARGS                        the operator's key command (npm run keys)
#   anything else                    run as given (e.g. redis-server for the compose stack)
set -e
case "${1:-serve}" in
  serve | api | worker)
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
