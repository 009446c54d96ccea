#!/usr/bin/env bash
# Runs once, when the primary's data folder is created (docker-entrypoint-initdb.d).
set -euo pipefail
# The replica copies the primary and then streams from it over a replication connection.
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "${PGDATA}/pg_hba.conf"
# Settings the app sends at connect, which PgBouncer in transaction mode cannot pass on
# (docs/deployment.md, Pooler): the database carries them for every connection.
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER}" --dbname "${POSTGRES_DB}" <<SQL
ALTER DATABASE "${POSTGRES_DB}" SET statement_timeout = '30s';
ALTER DATABASE "${POSTGRES_DB}" SET idle_in_transaction_session_timeout = '60s';
ALTER DATABASE "${POSTGRES_DB}" SET random_page_cost = 1.1;
SQL
