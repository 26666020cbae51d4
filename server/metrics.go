package server

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the service's Prometheus series.
type metrics struct {
	requests      *prometheus.CounterVec
	searchSeconds *prometheus.HistogramVec
	panics        prometheus.Counter
	refused       *prometheus.CounterVec
}

func newMetrics(reg *prometheus.Registry, s *Server) metrics {
	m := metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "decant_requests_total", Help: "HTTP requests by route and status code.",
		}, []string{"route", "code"}),
		searchSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "decant_search_seconds", Help: "Time spent searching for plans, by verdict.",
			Buckets: prometheus.ExponentialBuckets(0.0005, 4, 10),
		}, []string{"status"}),
		panics: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "decant_panics_total", Help: "Requests whose handler panicked (answered 500).",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "decant_refused_total", Help: "Requests refused for overload, by reason.",
		}, []string{"reason"}),
	}
	held := func(sem *semaphore) func() float64 {
		return func() float64 { n, _ := sem.used(); return float64(n) }
	}
	reg.MustRegister(m.requests, m.searchSeconds, m.panics, m.refused,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "decant_memory_admitted_bytes", Help: "Bytes of the memory budget held by admitted work.",
		}, held(s.memory)),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "decant_memory_budget_bytes", Help: "The memory budget.",
		}, func() float64 { return float64(s.cfg.MemoryBudget) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "decant_queued_requests", Help: "Requests waiting for admission.",
		}, func() float64 { return float64(s.queued.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "decant_reads_running", Help: "Screenshots being read or annotated, and quick searches.",
		}, held(s.readers)),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "decant_searches_running", Help: "Long searches running.",
		}, held(s.searches)),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "decant_search_paused_seconds_total", Help: "Time long searches spent paused while quick work had every core.",
		}, func() float64 { return time.Duration(s.share.paused.Load()).Seconds() }),
	)
	return m
}
