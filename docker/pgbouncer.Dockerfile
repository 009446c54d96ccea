# PgBouncer from Debian's package, as the deployment tests run it.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends pgbouncer && rm -rf /var/lib/apt/lists/*
COPY docker/pgbouncer.ini /etc/pgbouncer/pgbouncer.ini
USER postgres
# The password comes from the environment at start, never from the image.
CMD ["sh", "-c", "printf '\"%s\" \"%s\"\\n' \"$POSTGRES_USER\" \"$POSTGRES_PASSWORD\" > /tmp/userlist.txt && exec pgbouncer /etc/pgbouncer/pgbouncer.ini"]
