package export

import (
	"cmp"
	"context"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetricgrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
)

// grpc reports whether a signal goes by gRPC: its own
// OTEL_EXPORTER_OTLP_<SIGNAL>_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL,
// says "grpc". Anything else is OTLP over HTTP, in protobuf (the SDK's
// HTTP exporters send no JSON; a collector takes either on the same
// endpoint).
func grpc(getenv func(string) string, signal string) bool {
	p := cmp.Or(getenv("OTEL_EXPORTER_OTLP_"+signal+"_PROTOCOL"), getenv("OTEL_EXPORTER_OTLP_PROTOCOL"))
	return strings.TrimSpace(strings.ToLower(p)) == "grpc"
}

// logExporter is the OTLP log exporter the environment asks for; the
// SDK reads the endpoint, headers, TLS and timeout from it.
func logExporter(ctx context.Context, getenv func(string) string) (sdklog.Exporter, error) {
	if grpc(getenv, "LOGS") {
		return otlploggrpc.New(ctx)
	}
	return otlploghttp.New(ctx)
}

// metricExporter is the OTLP metric exporter the environment asks for.
// With no temporality preference set, it sends deltas, as Claude Code
// does: each run of this program is a new process, and its sums are
// what happened since the last.
func metricExporter(ctx context.Context, getenv func(string) string) (sdkmetric.Exporter, error) {
	delta := getenv("OTEL_EXPORTER_OTLP_METRICS_TEMPORALITY_PREFERENCE") == ""
	if grpc(getenv, "METRICS") {
		if delta {
			return otlpmetricgrpc.New(ctx, otlpmetricgrpc.WithTemporalitySelector(deltaTemporality))
		}
		return otlpmetricgrpc.New(ctx)
	}
	if delta {
		return otlpmetrichttp.New(ctx, otlpmetrichttp.WithTemporalitySelector(deltaTemporality))
	}
	return otlpmetrichttp.New(ctx)
}

// deltaTemporality is OpenTelemetry's "delta" preference: deltas for
// counters, gauges and histograms, cumulative for up-down counters.
func deltaTemporality(k sdkmetric.InstrumentKind) metricdata.Temporality {
	switch k {
	case sdkmetric.InstrumentKindUpDownCounter, sdkmetric.InstrumentKindObservableUpDownCounter:
		return metricdata.CumulativeTemporality
	}
	return metricdata.DeltaTemporality
}
