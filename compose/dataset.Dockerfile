# One-shot loader: builds the dataset template on the compose PostgreSQL and creates database `bench` from it.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl runner -am package -DskipTests

FROM eclipse-temurin:17-jre
COPY --from=build /src/runner/target/runner.jar /app/runner.jar
ENTRYPOINT ["java", "-cp", "/app/runner.jar", "dev.restbench.dataset.DatabaseCli"]
