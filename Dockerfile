# The image the Kubernetes manifests run (scripts/kubernetes/*.yaml: confluence-sim:latest):
# the release binary on the PATH and the repository's decks/ in /work. See
# docs/cluster.md, "Docker", for building and pushing it. scripts/test-kubernetes.sh checks this file.

# Stage 1: the release build.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked \
    && cp target/release/confluence-sim /usr/local/bin/confluence-sim

# Stage 2: a slim runtime with the binary and the decks only.
FROM debian:bookworm-slim
COPY --from=build /usr/local/bin/confluence-sim /usr/local/bin/confluence-sim
WORKDIR /work
COPY decks/ /work/decks/
ENTRYPOINT ["confluence-sim"]
CMD ["--help"]
