# Any JVM variant of benchmarks.json as a container, built the way every other place builds it (./bench build),
# started by the command compose.yaml's generated service gives it (the manifest's, with $JAVA_OPTS). Build
# context: the repository root. Build args from the generated service: VARIANT (its name) and RUNTIME_VERSION (its
# JDK). A variant that needs another image (e.g. Node.js) puts its own Dockerfile in its folder instead.
ARG RUNTIME_VERSION=17
FROM eclipse-temurin:${RUNTIME_VERSION}-jdk AS build
ARG VARIANT
WORKDIR /src
COPY . .
RUN ./bench build --variants "$VARIANT" --copy-to /out

FROM eclipse-temurin:${RUNTIME_VERSION}-jre
COPY --from=build /out/ /app/
ENV PORT=8080 BIND_ADDRESS=0.0.0.0
EXPOSE 8080
