// Package otlptest is a collector for tests: it listens on 127.0.0.1,
// speaks OTLP over HTTP (protobuf or JSON) or gRPC, decodes what it is
// sent with the OTLP protobuf definitions (go.opentelemetry.io/proto/otlp)
// and keeps it, flattened, for the test to look at. It also stands up the
// collectors that fail: one that is down and one that accepts and never
// answers.
//
// The collector's own receiver packages would do the same at many times
// the dependencies; the protobuf definitions are already what the SDK's
// exporters encode with. Only tests import this package.
package otlptest

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	colmetrics "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
)

// Log is one log record as received, with its resource's attributes.
type Log struct {
	Resource  map[string]any
	Scope     string
	EventName string
	Body      any
	Time      time.Time
	Severity  string
	Attrs     map[string]any
}

// Point is one metric data point as received.
type Point struct {
	Resource map[string]any
	Scope    string
	Name     string
	Unit     string
	// Kind is "gauge" or "sum"; Monotonic and Delta say which sum.
	Kind             string
	Monotonic, Delta bool
	Value            float64
	Attrs            map[string]any
}

// Receiver keeps what it was sent.
type Receiver struct {
	// Endpoint is what OTEL_EXPORTER_OTLP_ENDPOINT names it by, e.g.
	// http://127.0.0.1:4318.
	Endpoint string

	mu      sync.Mutex
	logs    []Log
	points  []Point
	changed chan struct{}
}

func newReceiver() *Receiver { return &Receiver{changed: make(chan struct{}, 1)} }

// NewHTTP starts a receiver of OTLP over HTTP on 127.0.0.1: /v1/logs and
// /v1/metrics are kept, /v1/traces taken and dropped.
func NewHTTP(t testing.TB) *Receiver {
	r := newReceiver()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, q *http.Request) {
		var req collogs.ExportLogsServiceRequest
		if r.decode(w, q, &req) {
			r.addLogs(&req)
			r.answer(w, q, &collogs.ExportLogsServiceResponse{})
		}
	})
	mux.HandleFunc("POST /v1/metrics", func(w http.ResponseWriter, q *http.Request) {
		var req colmetrics.ExportMetricsServiceRequest
		if r.decode(w, q, &req) {
			r.addMetrics(&req)
			r.answer(w, q, &colmetrics.ExportMetricsServiceResponse{})
		}
	})
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, q *http.Request) {
		var req coltrace.ExportTraceServiceRequest
		if r.decode(w, q, &req) {
			r.answer(w, q, &coltrace.ExportTraceServiceResponse{})
		}
	})
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener = listen(t)
	srv.Start()
	t.Cleanup(srv.Close)
	r.Endpoint = srv.URL
	return r
}

// NewGRPC starts a receiver of OTLP over gRPC on 127.0.0.1.
func NewGRPC(t testing.TB) *Receiver {
	r := newReceiver()
	s := grpc.NewServer()
	collogs.RegisterLogsServiceServer(s, logsServer{r: r})
	colmetrics.RegisterMetricsServiceServer(s, metricsServer{r: r})
	l := listen(t)
	go s.Serve(l)
	t.Cleanup(s.Stop)
	r.Endpoint = "http://" + l.Addr().String()
	return r
}

type logsServer struct {
	collogs.UnimplementedLogsServiceServer
	r *Receiver
}

func (s logsServer) Export(_ context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	s.r.addLogs(req)
	return &collogs.ExportLogsServiceResponse{}, nil
}

type metricsServer struct {
	colmetrics.UnimplementedMetricsServiceServer
	r *Receiver
}

func (s metricsServer) Export(_ context.Context, req *colmetrics.ExportMetricsServiceRequest) (*colmetrics.ExportMetricsServiceResponse, error) {
	s.r.addMetrics(req)
	return &colmetrics.ExportMetricsServiceResponse{}, nil
}

// Down is an endpoint where nothing listens: a collector that is down.
func Down(t testing.TB) string {
	l := listen(t)
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

// BlackHole is an endpoint that accepts connections and never answers:
// a collector that hangs. The connections it holds close with the test.
func BlackHole(t testing.TB) string {
	l := listen(t)
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return "http://" + l.Addr().String()
}

func listen(t testing.TB) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// decode reads an OTLP/HTTP request's body into m, by its content type;
// on failure it answers 400 and reports false.
func (r *Receiver) decode(w http.ResponseWriter, q *http.Request, m proto.Message) bool {
	body := io.Reader(q.Body)
	if q.Header.Get("Content-Encoding") == "gzip" {
		z, err := gzip.NewReader(q.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return false
		}
		defer z.Close()
		body = z
	}
	data, err := io.ReadAll(io.LimitReader(body, 64<<20))
	if err == nil {
		if strings.HasPrefix(q.Header.Get("Content-Type"), "application/json") {
			err = protojson.Unmarshal(data, m)
		} else {
			err = proto.Unmarshal(data, m)
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return false
	}
	return true
}

// answer writes an OTLP/HTTP response in the request's encoding.
func (r *Receiver) answer(w http.ResponseWriter, q *http.Request, m proto.Message) {
	var data []byte
	if strings.HasPrefix(q.Header.Get("Content-Type"), "application/json") {
		data, _ = protojson.Marshal(m)
		w.Header().Set("Content-Type", "application/json")
	} else {
		data, _ = proto.Marshal(m)
		w.Header().Set("Content-Type", "application/x-protobuf")
	}
	w.Write(data)
}

func (r *Receiver) addLogs(req *collogs.ExportLogsServiceRequest) {
	var got []Log
	for _, rl := range req.GetResourceLogs() {
		res := attrs(rl.GetResource().GetAttributes())
		for _, sl := range rl.GetScopeLogs() {
			for _, lr := range sl.GetLogRecords() {
				got = append(got, Log{Resource: res, Scope: sl.GetScope().GetName(), EventName: lr.GetEventName(),
					Body: value(lr.GetBody()), Time: time.Unix(0, int64(lr.GetTimeUnixNano())).UTC(),
					Severity: lr.GetSeverityNumber().String(), Attrs: attrs(lr.GetAttributes())})
			}
		}
	}
	r.mu.Lock()
	r.logs = append(r.logs, got...)
	r.mu.Unlock()
	r.notify()
}

func (r *Receiver) addMetrics(req *colmetrics.ExportMetricsServiceRequest) {
	var got []Point
	for _, rm := range req.GetResourceMetrics() {
		res := attrs(rm.GetResource().GetAttributes())
		for _, sm := range rm.GetScopeMetrics() {
			for _, m := range sm.GetMetrics() {
				base := Point{Resource: res, Scope: sm.GetScope().GetName(), Name: m.GetName(), Unit: m.GetUnit()}
				var dps []*metricspb.NumberDataPoint
				switch d := m.GetData().(type) {
				case *metricspb.Metric_Gauge:
					base.Kind, dps = "gauge", d.Gauge.GetDataPoints()
				case *metricspb.Metric_Sum:
					base.Kind, dps = "sum", d.Sum.GetDataPoints()
					base.Monotonic = d.Sum.GetIsMonotonic()
					base.Delta = d.Sum.GetAggregationTemporality() == metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_DELTA
				default:
					continue
				}
				for _, dp := range dps {
					p := base
					p.Attrs = attrs(dp.GetAttributes())
					switch v := dp.GetValue().(type) {
					case *metricspb.NumberDataPoint_AsInt:
						p.Value = float64(v.AsInt)
					case *metricspb.NumberDataPoint_AsDouble:
						p.Value = v.AsDouble
					}
					got = append(got, p)
				}
			}
		}
	}
	r.mu.Lock()
	r.points = append(r.points, got...)
	r.mu.Unlock()
	r.notify()
}

func (r *Receiver) notify() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Logs returns the log records received so far.
func (r *Receiver) Logs() []Log {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Log(nil), r.logs...)
}

// Points returns the metric points received so far.
func (r *Receiver) Points() []Point {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Point(nil), r.points...)
}

// WaitFor waits until ok holds of what was received, or timeout passes;
// it reports whether ok held. It is for the things that arrive on their
// own time (Claude Code's exporters send at intervals).
func (r *Receiver) WaitFor(timeout time.Duration, ok func(logs []Log, points []Point) bool) bool {
	deadline := time.After(timeout)
	for {
		if ok(r.Logs(), r.Points()) {
			return true
		}
		select {
		case <-r.changed:
		case <-deadline:
			return ok(r.Logs(), r.Points())
		}
	}
}

// attrs flattens OTLP attributes.
func attrs(kvs []*commonpb.KeyValue) map[string]any {
	out := make(map[string]any, len(kvs))
	for _, kv := range kvs {
		out[kv.GetKey()] = value(kv.GetValue())
	}
	return out
}

// value is an OTLP value as Go's: string, int64, float64, bool, []any,
// map[string]any, []byte, or nil.
func value(v *commonpb.AnyValue) any {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return x.IntValue
	case *commonpb.AnyValue_DoubleValue:
		return x.DoubleValue
	case *commonpb.AnyValue_BoolValue:
		return x.BoolValue
	case *commonpb.AnyValue_BytesValue:
		return x.BytesValue
	case *commonpb.AnyValue_ArrayValue:
		var out []any
		for _, e := range x.ArrayValue.GetValues() {
			out = append(out, value(e))
		}
		return out
	case *commonpb.AnyValue_KvlistValue:
		return attrs(x.KvlistValue.GetValues())
	}
	return nil
}

// String writes a log record as a test's failure message shows it: its
// event name, time and attributes in order.
func (l Log) String() string {
	return fmt.Sprintf("%s at %s %s resource %s", cmpName(l.EventName, l.Body), l.Time.Format(time.RFC3339), sorted(l.Attrs), sorted(l.Resource))
}

// String writes a point for a failure message.
func (p Point) String() string {
	return fmt.Sprintf("%s %s=%v %s resource %s", p.Kind, p.Name, p.Value, sorted(p.Attrs), sorted(p.Resource))
}

func cmpName(event string, body any) string {
	if event != "" {
		return event
	}
	return fmt.Sprint(body)
}

func sorted(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%v", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}
