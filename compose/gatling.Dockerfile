# Gatling simulations against the compose services: arguments are -D properties (see gatling/README.md).
FROM eclipse-temurin:17-jdk
WORKDIR /work
COPY . .
RUN ./mvnw -B -q -pl gatling -am install -DskipTests
ENTRYPOINT ["./mvnw", "-B", "-pl", "gatling", "gatling:test"]
