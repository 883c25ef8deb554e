# The contract command in a container, for teams without Swift:
#   docker build -t contract .
#   docker run --rm -v "$PWD:/work" contract lint contracts
#   docker run --rm -p 8080:8080 -v "$PWD:/work" contract serve contracts --host 0.0.0.0 --port 8080
# It builds as scripts/release-archive does (the same swift build command, then strip; the script
# only adds a build folder of its own, --scratch-path): keep the two alike. No Docker engine runs where this repository is tested, so this file is not built
# there; scripts/release-archive checks that the same binary needs only libcurl and system
# libraries (ldd), which the second stage installs, and tries it.
ARG SWIFT_VERSION=6.3
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libcurl4-openssl-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN swift build -c release --product contract --static-swift-stdlib \
    && cp "$(swift build -c release --product contract --static-swift-stdlib --show-bin-path)/contract" /usr/local/bin/contract \
    && strip /usr/local/bin/contract

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libcurl4 ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /usr/local/bin/contract /usr/local/bin/contract
WORKDIR /work
ENTRYPOINT ["contract"]
