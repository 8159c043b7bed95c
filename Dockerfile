# The bot's image: runtime dependencies only (requirements.lock, installed with their hashes), run as
# a user of its own (uid 10001), its SQLite file and nothing else in the /data volume.
#
#   docker build -t rummyclub .        (or: podman build / buildah bud)
#   docker run -v rummy-data:/data -e TELEGRAM_TOKEN_FILE=/run/secrets/telegram_token ... rummyclub
#
# BASE is any Debian bookworm root file system: debian:bookworm-slim from a registry, or one made from
# Debian's own packages where no registry is reachable (README, "Deploy"):
#   mmdebstrap --variant=minbase --include=python3,python3-venv,ca-certificates,tini bookworm base.tar
#   podman import base.tar localhost/rummyclub-base:bookworm
ARG BASE=debian:bookworm-slim

FROM ${BASE} AS python
# Python 3.11, venv and tini from Debian (already there in a base made as above).
RUN if ! { command -v tini && python3 -m venv --help; } >/dev/null 2>&1; then \
        apt-get update && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates tini \
        && rm -rf /var/lib/apt/lists/*; \
    fi

FROM python AS build
COPY requirements.lock /src/requirements.lock
# Behind a TLS-inspecting proxy, give pip its CA bundle: --secret id=pip_ca,src=/path/to/ca.crt
RUN --mount=type=secret,id=pip_ca \
    if [ -f /run/secrets/pip_ca ]; then export PIP_CERT=/run/secrets/pip_ca; fi \
    && python3 -m venv /opt/rummyclub \
    && /opt/rummyclub/bin/pip install --no-cache-dir --disable-pip-version-check --require-hashes \
       -r /src/requirements.lock
COPY pyproject.toml README.md LICENSE /src/
COPY bot /src/bot
COPY rules /src/rules
COPY storage /src/storage
RUN --mount=type=secret,id=pip_ca \
    if [ -f /run/secrets/pip_ca ]; then export PIP_CERT=/run/secrets/pip_ca; fi \
    && /opt/rummyclub/bin/pip install --no-cache-dir --disable-pip-version-check --no-deps /src \
    && /opt/rummyclub/bin/rummyclub --help >/dev/null

FROM python
COPY --from=build /opt/rummyclub /opt/rummyclub
COPY LICENSE /usr/share/doc/rummyclub/LICENSE
RUN echo 'rummy:x:10001:10001:Rummy Club:/data:/usr/sbin/nologin' >> /etc/passwd \
    && echo 'rummy:x:10001:' >> /etc/group \
    && mkdir -p /data && chown 10001:10001 /data
ENV PATH=/opt/rummyclub/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    HOME=/data \
    DATABASE_URL=sqlite:////data/rummyclub.db \
    WEB_LISTEN=0.0.0.0 \
    WEB_PORT=8080 \
    LOG_FORMAT=json
WORKDIR /data
VOLUME /data
USER 10001:10001
# The web table, /healthz, /readyz and /metrics.
EXPOSE 8080
# tini reaps children (the AI workers) and hands SIGTERM to the bot, which stops within SHUTDOWN_GRACE_S.
ENTRYPOINT ["tini", "--", "rummyclub"]
CMD ["run"]
