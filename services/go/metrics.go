package main

import (
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics: the meter names of docs/ARCHITECTURE.md that exist in Go. http_server_requests_seconds is the only
// histogram (as in every variant: the same scrape cost), with Micrometer's labels and its default timer range of
// 1 ms to 30 s. The process collector gives process_cpu_seconds_total (and memory, fds, start time), the Go
// collector the runtime's own (go_goroutines, go_threads, go_gc_duration_seconds, go_memstats_*, go_info, …).
// JVM meters do not exist here: absent, never faked.
type metrics struct {
	requests *prometheus.HistogramVec
	handler  http.Handler
}

var buckets = []float64{0.001, 0.002, 0.003, 0.005, 0.008, 0.013, 0.021, 0.034, 0.055, 0.089, 0.144, 0.233, 0.377,
	0.61, 0.987, 1.597, 2.584, 4.181, 6.765, 10.946, 17.711, 30}

func newMetrics(pool *pgxpool.Pool) *metrics {
	registry := prometheus.NewRegistry()
	registry.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	registry.MustRegister(collectors.NewGoCollector())
	requests := prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "http_server_requests_seconds",
		Help:    "Duration of HTTP server request handling",
		Buckets: buckets,
	}, []string{"method", "uri", "status", "outcome", "exception", "error"})
	registry.MustRegister(requests)
	if pool != nil {
		registry.MustRegister(poolCollector{pool})
	}
	return &metrics{
		requests: requests,
		// Uncompressed, as the JVM variants' scrapes (compressing would cost the service CPU per scrape).
		handler: promhttp.HandlerFor(registry, promhttp.HandlerOpts{DisableCompression: true}),
	}
}

func outcome(status int) string {
	switch {
	case status < 200:
		return "INFORMATIONAL"
	case status < 300:
		return "SUCCESS"
	case status < 400:
		return "REDIRECTION"
	case status < 500:
		return "CLIENT_ERROR"
	}
	return "SERVER_ERROR"
}

func (m *metrics) observe(method, uri string, status int, elapsed time.Duration) {
	if status == 0 {
		status = 200
	}
	m.requests.WithLabelValues(method, uri, strconv.Itoa(status), outcome(status), "none", "none").
		Observe(elapsed.Seconds())
}

// poolCollector: pgxpool's connections, db_pool_connections{state=total|idle|acquired|max} (as express's gauge).
type poolCollector struct{ pool *pgxpool.Pool }

var poolDesc = prometheus.NewDesc("db_pool_connections", "pgxpool connections", []string{"state"}, nil)

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) { ch <- poolDesc }

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	for state, value := range map[string]int32{"total": s.TotalConns(), "idle": s.IdleConns(),
		"acquired": s.AcquiredConns(), "max": s.MaxConns()} {
		ch <- prometheus.MustNewConstMetric(poolDesc, prometheus.GaugeValue, float64(value), state)
	}
}
