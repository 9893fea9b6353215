package membound.calibrator.imports;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import membound.profile.Distribution;
import membound.profile.Link;

/**
 * What one tool's output says, before it goes into a profile.
 *
 * @param tool              "STREAM", "BabelStream", "likwid-bench", "nvbandwidth", "nccl-tests"
 * @param toolVersion       as printed, if it was
 * @param settings          how the tool was run, as far as it printed it
 * @param deviceName        the device the tool ran on, if it named it
 * @param bandwidth         bandwidth figures of a device
 * @param linkMeasurements  transfers or collectives over a link
 * @param linkBandwidth     the bandwidth to plan a link with, derived from {@code linkMeasurements}
 * @param linkLatencyNanos  a link latency the tool measured, if any
 * @param hosts             distinct host names the tool ran on (nccl-tests ranks), if it printed them
 * @param skipped           parts of the output not imported, and why
 * @param inferred          what was inferred from the file and from what (ranks from busbw/algbw, ...)
 */
public record ImportedFigures(String tool, String toolVersion, SortedMap<String, String> settings, String deviceName,
                              List<ImportedBandwidth> bandwidth, List<Link.Measurement> linkMeasurements,
                              Distribution linkBandwidth, Double linkLatencyNanos, List<String> hosts,
                              List<String> skipped, List<String> inferred) {

    public ImportedFigures {
        settings = new TreeMap<>(settings == null ? Map.of() : settings);
        bandwidth = List.copyOf(bandwidth);
        linkMeasurements = List.copyOf(linkMeasurements);
        hosts = List.copyOf(hosts);
        skipped = List.copyOf(skipped);
        inferred = List.copyOf(inferred);
    }

    /** What the skipped list begins with for a log that ends inside its table (nccl-tests cut off). */
    public static final String CUT_OFF = "no closing";

    /**
     * True when the output ends inside its table: the figures stop at a size the run went beyond, so a link's
     * bandwidth from them is that of the small messages alone. {@code import} refuses it without {@code --partial}.
     */
    public boolean cutOff() {
        return skipped.stream().anyMatch(s -> s.startsWith(CUT_OFF));
    }

    /** The largest message size among the link measurements, 0 without any. */
    public long largestMessageBytes() {
        return linkMeasurements.stream().mapToLong(Link.Measurement::messageBytes).max().orElse(0);
    }

    static ImportedFigures bandwidth(String tool, String toolVersion, Map<String, String> settings,
                                     List<ImportedBandwidth> bandwidth) {
        return new ImportedFigures(tool, toolVersion, new TreeMap<>(settings), null, bandwidth, List.of(), null, null,
                List.of(), List.of(), List.of());
    }
}
