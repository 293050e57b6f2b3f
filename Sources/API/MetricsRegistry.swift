import Metrics
import Prometheus

/// The process-wide metrics registry. swift-metrics can be bootstrapped once per process, so this does it on
/// first use.
public enum MetricsRegistry {
    /// The registry every metric of the process reports to, served as text at `GET /metrics`.
    public static let shared: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}
