package membound.calibrator.compare;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.LatencyEntry;
import membound.profile.OperationEntry;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Profile;
import membound.profile.TenantEntry;

/**
 * The comparable figures of a profile, by key. Keys name what was measured, not an entry's id, so that
 * two profiles of the same suite match figure for figure:
 * <ul>
 *   <li>{@code <device>/ceiling/<level>/<access>}: the ceilings the model uses; their spread is that of
 *       the bandwidth entry they were taken from</li>
 *   <li>{@code <device>/bandwidth/<kernel>/<elementType>/threads=<n>/placement=<p>/<level>/ws=<bytes>}</li>
 *   <li>{@code <device>/compute/<kind>/<precision>/threads=<n>[/n=<matrixSize>]}</li>
 *   <li>{@code <device>/latency/<level>/<pattern>/ws=<bytes>}: p50, lower is better, spread p50–p90</li>
 *   <li>{@code <device>/tenants/<k>/<kernel>/<level>}: per-tenant bandwidth</li>
 *   <li>{@code link/<id>/bandwidth}</li>
 * </ul>
 * A missing thread count, placement or working set reads {@code ?}.
 */
public final class Figures {

    private Figures() {
    }

    public static SortedMap<String, Figure> of(Profile profile) {
        SortedMap<String, Figure> figures = new TreeMap<>();
        for (Device device : profile.devices()) {
            String d = device.id();
            for (LevelCeiling ceiling : device.levels()) {
                if (ceiling.standsIn()) {
                    continue;
                }
                String key = d + "/ceiling/" + ceiling.level() + "/" + ceiling.access();
                BandwidthEntry source = ceiling.bandwidthId() == null ? null
                        : device.bandwidthEntry(ceiling.bandwidthId()).orElse(null);
                Distribution spread = source == null ? null
                        : ceiling.inHardwareBytes() ? source.hardwareBytesPerSecond() : source.streamBytesPerSecond();
                Double low = spread == null ? null : spread.low();
                Double high = spread == null ? null : spread.high();
                put(figures, new Figure(key, Figure.BYTES_PER_SECOND, true, ceiling.bytesPerSecond(),
                        ceiling.statistic().label(), low, high, Figure.describe(ceiling.provenance())));
            }
            for (BandwidthEntry b : device.bandwidth()) {
                String key = d + "/bandwidth/" + b.kernel() + "/" + b.elementType() + "/threads=" + or(b.threads())
                        + "/placement=" + or(b.placement()) + "/" + b.level() + "/ws=" + or(b.workingSetBytes());
                put(figures, Figure.rate(key, Figure.BYTES_PER_SECOND, b.streamBytesPerSecond(), b.provenance()));
            }
            for (ComputeEntry c : device.compute()) {
                String key = d + "/compute/" + c.kind() + "/" + c.precision() + "/threads=" + or(c.threads())
                        + (c.matrixSize() != null ? "/n=" + c.matrixSize() : "")
                        + (c.shape() != null ? "/shape=" + c.shape() : "");
                put(figures, Figure.rate(key, Figure.FLOPS_PER_SECOND, c.flopsPerSecond(), c.provenance()));
            }
            for (OperationEntry o : device.operations()) {
                String key = d + "/operation/" + o.operation() + "/row=" + o.rowLength() + "/threads=" + or(o.threads());
                put(figures, Figure.rate(key, Figure.ELEMENTS_PER_SECOND, o.elementsPerSecond(), o.provenance()));
            }
            for (LatencyEntry l : device.latency()) {
                String key = d + "/latency/" + l.level() + "/" + l.pattern() + "/ws=" + l.workingSetBytes();
                put(figures, new Figure(key, Figure.NANOSECONDS, false, l.nanosPerLoad().p50(), "p50",
                        l.nanosPerLoad().p50(), l.nanosPerLoad().p90(), Figure.describe(l.provenance())));
            }
            for (TenantEntry t : device.tenants()) {
                String key = d + "/tenants/" + t.tenants() + "/" + t.kernel() + "/" + t.level();
                put(figures, Figure.rate(key, Figure.BYTES_PER_SECOND, t.perTenantBytesPerSecond(), t.provenance()));
            }
        }
        for (Link link : profile.links()) {
            if (link.bandwidthBytesPerSecond() != null) {
                put(figures, Figure.rate("link/" + link.id() + "/bandwidth", Figure.BYTES_PER_SECOND,
                        link.bandwidthBytesPerSecond(), link.provenance()));
            }
        }
        return figures;
    }

    /** Two entries that measured the same thing (the same output imported twice) get #2, #3. */
    private static void put(Map<String, Figure> figures, Figure figure) {
        String key = figure.key();
        for (int n = 2; figures.containsKey(key); n++) {
            key = figure.key() + "#" + n;
        }
        figures.put(key, key.equals(figure.key()) ? figure : new Figure(key, figure.unit(), figure.higherIsBetter(),
                figure.value(), figure.statistic(), figure.low(), figure.high(), figure.source()));
    }

    private static String or(Object value) {
        return value == null ? "?" : value.toString();
    }
}
