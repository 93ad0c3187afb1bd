# syntax=docker/dockerfile:1
# SPDX-License-Identifier: GPL-2.0
#
# switchstat container image: multi-stage, both stages on debian:bookworm-slim.
#
# Build:
#   docker build -t switchstat .
#   (or, without a Docker engine: buildah bud --isolation chroot -t switchstat .
#    -- scripts/check-image.sh does exactly that and smoke-tests the result)
#
# Run (tracing needs the host's PID namespace, debugfs/tracefs, cgroups and
# the host's kernel headers, which libbcc compiles the probes against):
#
#   docker run --rm -it --privileged --pid=host -v /sys/kernel/debug:/sys/kernel/debug -v /sys/fs/cgroup:/sys/fs/cgroup -v /lib/modules:/lib/modules:ro -v /usr/src:/usr/src:ro ghcr.io/OWNER/switchstat -i 1000 -d 5
#
# (OWNER is the lower-cased GitHub owner; CI publishes the image there.)
# Without --pid=host, runs that show or take pids exit 1 with one message
# (-G alone works); without tracefs (-v /sys/kernel/tracing:/sys/kernel/tracing
# also works) or kernel headers: exit 1 saying what is missing. Instead of
# --privileged: CAP_BPF, CAP_PERFMON, CAP_DAC_READ_SEARCH and a seccomp
# profile allowing bpf() and perf_event_open(). deploy/README.md, "In a container".
# `switchstat --version` and `switchstat -h` work without any of those flags.

# ---------------------------------------------------------------- build stage
FROM debian:bookworm-slim AS build

RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        build-essential cmake pkg-config libbpfcc-dev libbpf-dev libmicrohttpd-dev \
        libpfm4-dev libncurses-dev \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# Only what the build needs (see also .dockerignore). The BPF probe sources
# are embedded in the binary at build time (cmake/embed.cmake), so the runtime
# stage needs nothing but the binary.
COPY CMakeLists.txt ./
COPY cmake ./cmake
COPY src ./src
COPY probes ./probes

# Unit tests run in CI (ci.yml), not here, so the image build needs no
# Criterion: SWITCHSTAT_TESTS=OFF.
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DSWITCHSTAT_TESTS=OFF \
 && cmake --build build -j"$(nproc)" \
 && install -D -m 0755 build/switchstat /out/usr/local/bin/switchstat \
 && strip --strip-unneeded /out/usr/local/bin/switchstat \
 && /out/usr/local/bin/switchstat --version

# -------------------------------------------------------------- runtime stage
FROM debian:bookworm-slim

# CI (image.yml) overrides these with docker/metadata-action's labels.
ARG VERSION=dev
ARG SOURCE=https://github.com/OWNER/switchstat
LABEL org.opencontainers.image.title="switchstat" \
      org.opencontainers.image.description="Context-switch statistics traced with eBPF (libbcc)" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.version="${VERSION}"

# libbpfcc brings libbcc.so and what it links (libclang-cpp, libllvm, libelf,
# libbpf; libbpf1 also for BTF offsets). xz-utils and kmod are for libbcc's fallback when /lib/modules has no
# headers for the running kernel: it runs `modprobe kheaders` and unpacks
# /sys/kernel/kheaders.tar.xz with tar. libmicrohttpd12 serves --listen
# (the Prometheus exporter); libpfm4 encodes PMU event names (-e); libncursesw6
# draws --top. No compiler or cmake here: libbcc
# compiles the BPF C with the clang it embeds.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libbpfcc libbpf1 libmicrohttpd12 libpfm4 libncursesw6 xz-utils kmod \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && for lib in $(dpkg -L libbpfcc | grep '/libbcc[^/]*\.so\.[0-9]*$'); do \
        ldd "$lib" | awk -v l="$lib" '/not found/ {bad=1; print l ": " $0} END {exit bad}' || exit 1; \
    done

COPY --from=build /out/ /

# Fail the build, not the first run, if a shared library is missing.
RUN ldd /usr/local/bin/switchstat | awk '/not found/ {bad=1; print} END {exit bad}' \
 && switchstat --version

ENTRYPOINT ["switchstat"]
