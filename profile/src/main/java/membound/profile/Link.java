package membound.profile;

import java.util.List;

import membound.vocabulary.LinkKind;

/**
 * A connection between two devices, or between this machine and another.
 *
 * @param id           unique in the profile ("c2c", "spark-pair")
 * @param from         a device id of this profile
 * @param to           a device id of this profile, or another node's ("peer", "spark-2:gpu")
 * @param kind         c2c, pcie, nvlink or network
 * @param bandwidthBytesPerSecond the bandwidth to plan with (for a collective: its bus bandwidth), if known
 * @param latencyNanos one-way latency of a small transfer, if known
 * @param measurements what the bandwidth was taken from, one per operation and message size
 * @param provenance   where {@code bandwidthBytesPerSecond} came from
 */
public record Link(String id, String from, String to, LinkKind kind, Distribution bandwidthBytesPerSecond,
                   Double latencyNanos, List<Measurement> measurements, Provenance provenance) {

    public Link {
        Checks.id("link.id", id);
        Checks.id("link.from", from);
        Checks.id("link.to", to);
        Checks.present("link.kind", kind);
        Checks.optionalPositive("link.latencyNanos", latencyNanos);
        measurements = Checks.list("link.measurements", measurements);
        if (bandwidthBytesPerSecond != null || latencyNanos != null) {
            Checks.present("link.provenance", provenance);
        }
    }

    /**
     * One transfer or collective.
     *
     * @param operation        "all_reduce", "host_to_device_memcpy_ce", ...
     * @param ranks            participants of a collective, if known
     * @param messageBytes     bytes per rank (nccl-tests' size) or per copy, if known
     * @param dataType         element type of a collective, if any ("float")
     * @param inPlace          nccl-tests' in-place column (true) or out-of-place (false); absent for copies
     * @param timeNanos        time of one operation, if known
     * @param bytesPerSecond   data size over time (nccl-tests' algbw; nvbandwidth's figure)
     * @param busBytesPerSecond nccl-tests' busbw (algbw scaled by the collective's traffic factor), if any
     * @param provenance       the tool and file
     */
    public record Measurement(String operation, Integer ranks, Long messageBytes, String dataType, Boolean inPlace,
                              Double timeNanos, double bytesPerSecond, Double busBytesPerSecond,
                              Provenance provenance) {
        public Measurement {
            Checks.id("measurement.operation", operation);
            Checks.optionalPositive("measurement.ranks", ranks);
            Checks.optionalPositive("measurement.messageBytes", messageBytes);
            Checks.optionalText("measurement.dataType", dataType);
            Checks.optionalPositive("measurement.timeNanos", timeNanos);
            Checks.positive("measurement.bytesPerSecond", bytesPerSecond);
            Checks.optionalPositive("measurement.busBytesPerSecond", busBytesPerSecond);
            Checks.present("measurement.provenance", provenance);
        }
    }
}
