// The plain API (contract-tests/src/main/resources/openapi.yaml) on Go's standard net/http server with pgx v5
// (pgxpool) and the Prometheus Go client: the methodology study's Go row, held to this repository's API and method.
// One process; a goroutine per connection (net/http's model), GOMAXPROCS left at Go's default: the CPUs the process
// may run on (the runner pins the service to one core, so 1). SQL as jersey's plain JDBC: one statement per write
// (… RETURNING joined with the category), count + content per page, auto-commit (no BEGIN/COMMIT on the wire).
package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

type config struct {
	port         string
	host         string
	dbURL        string
	dbUser       string
	dbPassword   string
	poolSize     int32
	maxBodyBytes int64
}

func env(name, fallback string) string {
	if value, ok := os.LookupEnv(name); ok && value != "" {
		return value
	}
	return fallback
}

func configFromEnv() (config, error) {
	c := config{
		port:       env("PORT", "8090"),
		host:       env("BIND_ADDRESS", "127.0.0.1"),
		dbURL:      env("DB_URL", "jdbc:postgresql://127.0.0.1:54329/bench"),
		dbUser:     env("DB_USER", "postgres"),
		dbPassword: env("DB_PASSWORD", "postgres"),
	}
	pool, err := strconv.ParseInt(env("DB_POOL_SIZE", "16"), 10, 32)
	if err != nil || pool < 1 {
		return c, fmt.Errorf("DB_POOL_SIZE is not a positive integer: %q", os.Getenv("DB_POOL_SIZE"))
	}
	c.poolSize = int32(pool)
	c.maxBodyBytes, err = strconv.ParseInt(env("MAX_BODY_BYTES", "65536"), 10, 64)
	if err != nil || c.maxBodyBytes < 0 {
		return c, fmt.Errorf("MAX_BODY_BYTES is not a non-negative integer: %q", os.Getenv("MAX_BODY_BYTES"))
	}
	return c, nil
}

// newPool: a fixed-size pool (MinConns = MaxConns = DB_POOL_SIZE, as HikariCP's minimumIdle = maximumPoolSize),
// session time zone UTC, statements prepared once per connection (pgx's statement cache, as pgjdbc prepares after a
// few executions).
func newPool(ctx context.Context, c config) (*pgxpool.Pool, error) {
	target, err := connectionOf(c.dbURL)
	if err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig("")
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.Host = target.host
	cfg.ConnConfig.Port = target.port
	cfg.ConnConfig.Database = target.database
	cfg.ConnConfig.User = c.dbUser
	cfg.ConnConfig.Password = c.dbPassword
	cfg.ConnConfig.TLSConfig = nil
	cfg.ConnConfig.Fallbacks = nil
	cfg.ConnConfig.RuntimeParams["application_name"] = "go"
	cfg.ConnConfig.RuntimeParams["TimeZone"] = "UTC"
	cfg.MaxConns = c.poolSize
	cfg.MinConns = c.poolSize
	cfg.MaxConnIdleTime = 0
	cfg.MaxConnLifetime = 24 * time.Hour
	return pgxpool.NewWithConfig(ctx, cfg)
}

func main() {
	log.SetFlags(log.LstdFlags | log.LUTC)
	c, err := configFromEnv()
	if err != nil {
		log.Fatalf("go: cannot start: %v", err)
	}
	faults, err := faultsFromEnv(drawPercent())
	if err != nil {
		log.Fatalf("go: cannot start: %v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	pool, err := newPool(ctx, c)
	if err != nil {
		log.Fatalf("go: cannot start: %v", err)
	}
	defer pool.Close()
	// Ready only once the database answers, as the JVM variants (whose pools connect at start): the service
	// listens only then, so its health endpoint never needs to query per call.
	for attempt := 1; ; attempt++ {
		pingCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
		err = pool.Ping(pingCtx)
		cancel()
		if err == nil {
			break
		}
		if attempt >= 30 || ctx.Err() != nil {
			log.Fatalf("go: cannot start: the database does not answer: %v", err)
		}
		time.Sleep(time.Second)
	}

	metrics := newMetrics(pool)
	service := (&app{db: pool, maxBodyBytes: c.maxBodyBytes, metrics: metrics, faults: faults}).withRoutes()
	server := newServer(service)
	listener, err := net.Listen("tcp", net.JoinHostPort(c.host, c.port))
	if err != nil {
		log.Fatalf("go: cannot listen on %s:%s: %v", c.host, c.port, err)
	}
	log.Printf("go: listening on %s (GOMAXPROCS %d, %s, pool %d)", listener.Addr(), runtime.GOMAXPROCS(0),
		runtime.Version(), c.poolSize)

	done := make(chan error, 1)
	go func() { done <- server.Serve(edgeListener{listener}) }()
	select {
	case err = <-done:
		if !errors.Is(err, http.ErrServerClosed) {
			log.Fatalf("go: %v", err)
		}
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}
}

// newServer: keep-alive 60 s with no limit of requests per connection (as every variant), headers within 65 s.
// net/http has no worker pool to size: HTTP_THREADS means nothing here.
func newServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 65 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    1 << 20,
		ErrorLog:          log.New(os.Stderr, "go: http: ", log.LstdFlags|log.LUTC),
	}
}
