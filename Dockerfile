# syntax=docker/dockerfile:1
# Two stages: build with the Swift toolchain, run on slim Debian with only the shared libraries.

# Swift 6.2 or newer: hummingbird 2.28 declares swift-tools-version 6.2.
FROM swift:6.2-bookworm AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        pkg-config libsqlcipher-dev libargon2-dev libssl-dev liblua5.4-dev libcairo2-dev libfontconfig-dev libcurl4-openssl-dev libseccomp-dev libvips-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Resolve dependencies first so they cache independently of our sources.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
# With the PostgreSQL trait: the image serves either store (the embedded file, or PostgreSQL for several nodes).
RUN swift build -c release --product healthwheel --traits PostgreSQL --static-swift-stdlib \
    && mkdir -p /out \
    && cp "$(swift build -c release --show-bin-path)/healthwheel" /out/ \
    && cp -R "$(swift build -c release --show-bin-path)"/*.resources /out/

FROM debian:bookworm-slim
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libsqlcipher0 libargon2-1 libssl3 liblua5.4-0 libcairo2 libcurl4 libseccomp2 libvips42 fonts-dejavu-core fontconfig \
        ca-certificates curl \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin healthwheel \
    && mkdir -p /data && chown healthwheel:healthwheel /data && chmod 0700 /data
WORKDIR /app
COPY --from=build /out/ /app/
COPY Migrations ./Migrations
COPY Exercises ./Exercises
COPY Questionnaires ./Questionnaires
COPY Themes ./Themes
ENV HEALTHWHEEL_DATA_DIR=/data \
    HEALTHWHEEL_RESOURCES_DIR=/app \
    HEALTHWHEEL_HOST=0.0.0.0 \
    HEALTHWHEEL_PORT=8080
USER healthwheel
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/health || exit 1
ENTRYPOINT ["/app/healthwheel"]
CMD ["serve"]
